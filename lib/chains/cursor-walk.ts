import type { Db } from "@/db/client";
import { advanceChainCursor, claimChainLease } from "@/db/queries/chain-cursors";
import { recordChainTransfer, refreshConfirmations, unconfirmTransfersAbove, watchedChargeNow, type WatchedCharge } from "@/db/queries/chain-watch";
import type { SeenBlock } from "@/db/schema";
import { inTransaction } from "@/db/transaction";
import { isTerminal } from "@/domain/transitions";
import type { CoinName } from "@/domain/coins";
import type { ChainNet } from "@/lib/wallets/derive";
import { Drops } from "./drops";
import { log } from "@/log/logger.mjs";

/**
 * What every chain's follower shares, whatever the family: the lease, the cursor and its last
 * blocks, noticing a reorganisation, recording a transfer once, counting confirmations from the
 * tip, dropping the transfers that will not arrive (drops.ts) and handing the touched payments to
 * the detection step. A follower adds only how its chain's blocks are read and matched, and how its
 * node is asked where a transaction is.
 */

export type FollowResult = {
  followed: boolean;
  from: number | null;
  to: number | null;
  transfers: number;
  reconciled: number;
  /** The height the chains forked at, when this tick found a reorganisation. */
  reorgedAt?: number;
};

/** A catch-up logs its progress every this many blocks. */
const PROGRESS_EVERY = 100;

/** Blocks remembered in the cursor: a reorganisation deeper than this is rescanned from the oldest one. */
export const RECENT_BLOCKS = 100;

export { DROP_AFTER_MS, type Whereabouts } from "./drops";

/**
 * What becomes of a payment whose transfers changed: the caller's transfers → status step
 * (lib/payments/reconcile.ts). Chains only report transfers; the payments layer decides.
 */
export type DecidePayment = (db: Db, paymentId: string, at: Date) => Promise<unknown>;

/** The options every chain's follower takes. */
export type FollowerOptions = {
  decide: DecidePayment;
  net: ChainNet;
  /** This instance's name in the chain's lease. */
  owner: string;
  /** How long money is still watched for after a payment closed (LATE_PAYMENT_WINDOW). */
  lateWindowMs: number;
  leaseMs?: number;
  now?: () => Date;
  /** The name of the chain's cursor and lease: the chain's own (tests that share a database name their own). */
  cursor?: string;
  /** How long a transfer may be in neither a block nor the node's pool before it is dropped (default DROP_AFTER_MS). */
  dropAfterMs?: number;
};

/** The chain a walk follows, as its follower reaches it. */
export type WalkedChain = {
  /** The name of the chain's cursor and lease. */
  key: string;
  /** The chain's name in the logs. */
  label: string;
  /** The coins the chain carries: their transfers are the ones a reorganisation or a new block changes. */
  coins: readonly CoinName[];
  /** The height of the node's newest block. */
  tip(): Promise<number>;
  /** The hash of the node's block at `height` (never above the tip). */
  hashAt(height: number): Promise<string>;
  /** Where the node names its irreversible blocks (TRON's solidified block), read before the tip. */
  finality?: Finality;
};

/**
 * A chain whose node says which blocks are irreversible (TRON: the solidified block, which 19 of
 * the 27 block producers have built on). A transfer's confirmations are its block's depth, but
 * at least `confirmations` once its block is at or below `height` and at most one fewer while
 * it is above: `confirmations` confirmations mean exactly "irreversible", whatever the depth,
 * and a merchant's smaller count is still a count of blocks.
 */
export type Finality = { height: number; confirmations: number };

/** A transfer's confirmations in the block at `height` with the node's tip at `tip`. */
export function confirmationsAt(height: number, tip: number, finality?: Finality): number {
  const depth = Math.max(tip - height + 1, 0);
  if (!finality) return depth;
  return height <= finality.height ? Math.max(depth, finality.confirmations) : Math.min(depth, finality.confirmations - 1);
}

/**
 * Where the node's chain and the blocks the watcher read part: the newest remembered block the
 * node still has at its height. Null when none is (deeper than RECENT_BLOCKS).
 */
async function forkPoint(chain: WalkedChain, recent: readonly SeenBlock[], tip: number): Promise<SeenBlock | null | "same"> {
  const top = recent[recent.length - 1];
  if (top.height <= tip && (await chain.hashAt(top.height)) === top.hash) return "same";
  for (let i = recent.length - 2; i >= 0; i--) {
    const b = recent[i];
    if (b.height <= tip && (await chain.hashAt(b.height)) === b.hash) return b;
  }
  return null;
}

/** One tick's walk along the chain, from the block after the cursor to the tip read at its start. */
export class CursorWalk {
  transfers = 0;
  reorgedAt?: number;
  /** Payments whose transfers changed and whose status is still to be decided. */
  readonly touched = new Set<string>();
  /** Payments decided so far this tick. */
  private readonly decided = new Set<string>();
  readonly lateSince: Date;
  /** The first height this tick reads. */
  readonly from: number;
  /** Dropping the transfers that will not arrive: double-spent, replaced, or vanished. */
  readonly drops: Drops;

  /** The walk's clock (FollowerOptions.now). */
  readonly now: () => Date;

  private constructor(
    private readonly db: Db,
    private readonly o: FollowerOptions,
    private readonly chain: WalkedChain,
    readonly tip: number,
    private recent: SeenBlock[],
  ) {
    this.now = o.now ?? (() => new Date());
    this.from = this.last.height + 1;
    this.lateSince = new Date(this.now().getTime() - o.lateWindowMs);
    this.drops = new Drops(db, chain, this.now, o.dropAfterMs, (paymentId) => this.touched.add(paymentId));
  }

  /** The newest block read: the cursor. */
  get last(): SeenBlock {
    return this.recent[this.recent.length - 1];
  }

  /**
   * Moves the cursor to the block at `height`, just read and recorded: a tick cut short (a crash,
   * a lost lease) resumes after it. False when the lease is no longer this instance's.
   */
  async advance(height: number, hash: string): Promise<boolean> {
    // A long catch-up (after downtime) says how far it has got, so the operator sees it move.
    if (this.tip - this.from >= PROGRESS_EVERY && (height - this.from + 1) % PROGRESS_EVERY === 0) {
      log.info({ component: "watcher", chain: this.chain.label, height, tip: this.tip }, `catching up: block ${height} of ${this.tip} (${this.tip - height} to go)`);
    }
    // Decided before the cursor passes the block: a tick cut short after it leaves no payment undecided.
    await this.decide();
    return this.save([...this.recent, { height, hash }].slice(-RECENT_BLOCKS));
  }

  /** Lets the caller's detection step decide the touched payments (`decide`, the simulator's step too). */
  private async decide(): Promise<void> {
    for (const id of this.touched) {
      await this.o.decide(this.db, id, this.now());
      this.decided.add(id);
    }
    this.touched.clear();
  }

  /** Writes `recent` as the cursor, its newest block the cursor's height; kept here only once written. */
  private async save(recent: SeenBlock[]): Promise<boolean> {
    const { height, hash } = recent[recent.length - 1];
    const cursor = { network: this.o.net, height, blockHash: hash, recent };
    const moved = await advanceChainCursor(this.db, this.chain.key, this.o.owner, cursor, this.now(), this.o.leaseMs ?? 30_000);
    if (moved) this.recent = recent;
    return moved;
  }

  /**
   * Records a transfer paying `charge` once by its identity, with what its transaction uses up
   * (`spends`); money after the payment closed is late. The charge is read again first: a watch
   * set kept between ticks (watch-list.ts) may hold one no longer watched, and its payment's
   * status decides lateness.
   */
  async record(cached: WatchedCharge, t: { txId: string; units: bigint; block: SeenBlock | null; spends?: string[]; held?: string | null }): Promise<void> {
    const charge = await watchedChargeNow(this.db, cached.paymentId, cached.address, this.chain.coins, this.lateSince);
    if (!charge) return;
    const changed = await recordChainTransfer(this.db, {
      paymentId: charge.paymentId,
      txId: t.txId,
      amount: t.units,
      toAddress: charge.address,
      blockNumber: t.block?.height ?? null,
      blockHash: t.block?.hash ?? null,
      confirmations: t.block ? confirmationsAt(t.block.height, this.tip, this.chain.finality) : 0,
      late: isTerminal(charge.status),
      at: this.now(),
      spends: t.spends,
      held: t.held,
    });
    if (changed) {
      this.transfers++;
      this.touched.add(charge.paymentId);
    }
  }

  /** The result of a tick whose lease lapsed on the way: the holder now decides the statuses. */
  cut(): FollowResult {
    return { followed: false, from: this.from, to: this.last.height, transfers: this.transfers, reconciled: 0, reorgedAt: this.reorgedAt };
  }

  /** Sets the watched transfers' confirmations from the tip and lets the detection step decide each touched payment. */
  async finish(): Promise<FollowResult> {
    const { db, now } = this;
    for (const id of await inTransaction(db, (tx) => refreshConfirmations(tx, this.chain.coins, this.tip, this.lateSince, now(), this.chain.finality))) this.touched.add(id);
    await this.decide();
    return { followed: true, from: this.from, to: this.last.height, transfers: this.transfers, reconciled: this.decided.size, reorgedAt: this.reorgedAt };
  }

  /**
   * Takes the chain's lease and compares the last blocks read with the node's. After a
   * reorganisation the transfers in blocks above the fork become unconfirmed and the cursor goes
   * back to the fork at once, so the walk reads the new chain's blocks from there. Returns the
   * walk, or the tick's whole result when there is nothing to walk: no lease, or a first tick,
   * which starts at the tip.
   */
  static async begin(db: Db, o: FollowerOptions, chain: WalkedChain): Promise<CursorWalk | FollowResult> {
    const idle: FollowResult = { followed: false, from: null, to: null, transfers: 0, reconciled: 0 };
    const now = o.now ?? (() => new Date());
    const cursor = await claimChainLease(db, chain.key, o.net, o.owner, now(), o.leaseMs ?? 30_000);
    if (!cursor) return idle;
    const tip = await chain.tip();
    if (cursor.height === null) {
      const top = [{ height: tip, hash: await chain.hashAt(tip) }];
      await new CursorWalk(db, o, chain, tip, top).save(top);
      return { ...idle, followed: true, to: tip };
    }
    const recent = cursor.recent.length ? cursor.recent : [{ height: cursor.height, hash: cursor.blockHash! }];
    if (tip < recent[0].height) {
      // Not a reorganisation one can read past: a node still syncing, or one of another chain.
      // The tick fails (the chain shows as failing, its coins are not offered) until the node is back above.
      throw new Error(`the node's tip ${tip} is below the blocks already read (${recent[0].height}-${cursor.height}): is it still syncing?`);
    }
    const fork = await forkPoint(chain, recent, tip);
    if (fork === "same") return new CursorWalk(db, o, chain, tip, recent);
    // Deeper than the remembered blocks: from below the oldest of them, as the node has it now.
    const height = fork?.height ?? recent[0].height - 1;
    const base = fork ?? { height, hash: await chain.hashAt(height) };
    log.warn({ component: "watcher", chain: chain.label, height: base.height }, `the chain reorganised above height ${base.height}; reading its blocks again`);
    const unconfirmed = await inTransaction(db, (tx) => unconfirmTransfersAbove(tx, chain.coins, base.height, now()));
    const kept = [...recent.filter((b) => b.height < base.height), base];
    const walk = new CursorWalk(db, o, chain, tip, kept);
    // The cursor goes back to the fork at once: with no block above it yet, the next tick finds no reorganisation again.
    if (!(await walk.save(kept))) return idle;
    for (const id of unconfirmed) walk.touched.add(id);
    walk.reorgedAt = base.height;
    return walk;
  }
}
