import type { Db } from "@/db/client";
import { dropTransfers, unconfirmedTransfers, type UnconfirmedTransfer } from "@/db/queries/chain-watch";
import type { CoinName } from "@/domain/coins";
import { log } from "@/log/logger.mjs";

/** How long a transfer may be in neither a block nor the node's pool before it is dropped, by default. */
export const DROP_AFTER_MS = 10 * 60_000;

/**
 * Where the node has a transaction that a transfer recorded with no block came from: in a block
 * (mined since the walk read its blocks: the next walk finds it there), in its pool of pending
 * transactions, or nowhere.
 */
export type Whereabouts = "block" | "pool" | "unknown";

/**
 * A walk's dropping of unconfirmed transfers whose money will not arrive: double-spent (another
 * transaction in a block or the node's pool spends what theirs spends), replaced (an Ethereum
 * transaction of the same sender and nonce was mined), or vanished (the node has the transaction
 * nowhere for `dropAfterMs`). Each dropped transfer's payment is handed to `touch`, to be decided.
 */
export class Drops {
  /** The unconfirmed transfers by each thing their transaction uses up (`watchSpends`). */
  private readonly spending = new Map<string, UnconfirmedTransfer[]>();

  constructor(
    private readonly db: Db,
    private readonly chain: { label: string; coins: readonly CoinName[] },
    private readonly now: () => Date,
    private readonly dropAfterMs: number | undefined,
    private readonly touch: (paymentId: string) => void,
  ) {}

  /**
   * Reads the chain's unconfirmed transfers by what their transactions use up, for `spentBy` to
   * look each transaction this walk reads against. Called once the walk has begun (a
   * reorganisation's unconfirmed transfers are among them).
   */
  async watchSpends(): Promise<void> {
    this.spending.clear();
    for (const t of await unconfirmedTransfers(this.db, this.chain.coins)) {
      for (const spend of t.spends ?? []) this.spending.set(spend, [...(this.spending.get(spend) ?? []), t]);
    }
  }

  /** Whether an unconfirmed transfer's transaction could be double-spent by one this walk reads. */
  get watchingSpends(): boolean {
    return this.spending.size > 0;
  }

  /**
   * A transaction `hash` in a block or the node's pool uses up `spends`: an unconfirmed transfer
   * of another transaction using one of them can never be mined (a double-spend). It is dropped
   * at once, before the cursor passes the block, and its payment decided: one left with nothing
   * fails, without waiting for `dropAfterMs`.
   */
  async spentBy(hash: string, spends: Iterable<string>): Promise<void> {
    if (!this.spending.size) return;
    const conflicted = new Map<number, UnconfirmedTransfer>();
    for (const spend of spends) for (const t of this.spending.get(spend) ?? []) if (t.txHash !== hash) conflicted.set(t.id, t);
    if (!conflicted.size) return;
    for (const t of conflicted.values()) for (const spend of t.spends ?? []) this.spending.delete(spend);
    const paymentIds = await dropTransfers(this.db, [...conflicted.keys()], this.now());
    if (!paymentIds.length) return;
    const hashes = [...new Set([...conflicted.values()].map((t) => t.txHash))];
    log.warn({ component: "watcher", chain: this.chain.label, dropped: conflicted.size, txHashes: hashes, by: hash }, `dropped ${conflicted.size} transfer(s) of ${hashes.join(", ")}: ${hash} spends what they spend (a double-spend)`);
    for (const id of paymentIds) this.touch(id);
  }

  /**
   * Drops the chain's transfers that are in no block and that the node no longer has, in a block
   * or in its pool (`locate`, asked once per transaction hash), once recorded or last changed
   * `dropAfterMs` ago: a transaction evicted and never mined, or one whose block left the main
   * chain and that no block took again. A node's wallet would silently forget such a payment;
   * here its payment is touched, and one left with nothing fails. With `usedUp` (is what a
   * transaction spends used up on the node's chain: an Ethereum sender's nonce), a transfer whose
   * transaction is in no block while something else used up what it spends was replaced, and is
   * dropped at once, whatever `dropAfterMs`.
   */
  async dropVanished(locate: (txHash: string) => Promise<Whereabouts>, usedUp?: (spend: string) => Promise<boolean>): Promise<void> {
    const now = this.now();
    const after = this.dropAfterMs ?? DROP_AFTER_MS;
    const where = new Map<string, Whereabouts>();
    const used = new Map<string, boolean>();
    const gone: UnconfirmedTransfer[] = [];
    const replaced: UnconfirmedTransfer[] = [];
    for (const t of await unconfirmedTransfers(this.db, this.chain.coins)) {
      const due = now.getTime() - t.updatedAt.getTime() >= after;
      let isUsed = false;
      if (usedUp) {
        // Asked before where the transaction is: used up first and in no block after means another took its place.
        for (const spend of t.spends ?? []) {
          if (!used.has(spend)) used.set(spend, await usedUp(spend));
          isUsed ||= used.get(spend)!;
        }
      }
      if (!due && !isUsed) continue;
      if (!where.has(t.txHash)) where.set(t.txHash, await locate(t.txHash));
      const at = where.get(t.txHash);
      if (isUsed && at !== "block") replaced.push(t);
      else if (due && at === "unknown") gone.push(t);
    }
    if (replaced.length) {
      log.warn({ component: "watcher", chain: this.chain.label, dropped: replaced.length }, `dropped ${replaced.length} transfer(s) in no block whose transaction another with its sender and nonce replaced`);
      for (const id of await dropTransfers(this.db, replaced.map((t) => t.id), now)) this.touch(id);
    }
    if (gone.length) {
      log.warn({ component: "watcher", chain: this.chain.label, dropped: gone.length }, `dropped ${gone.length} transfer(s) in no block and no longer known to the node`);
      for (const id of await dropTransfers(this.db, gone.map((t) => t.id), now)) this.touch(id);
    }
  }
}
