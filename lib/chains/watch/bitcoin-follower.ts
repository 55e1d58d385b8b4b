import type { Db } from "@/db/client";
import { advanceChainCursor, claimChainLease } from "@/db/queries/chain-cursors";
import {
  dropTransfers,
  recordChainTransfer,
  refreshConfirmations,
  unconfirmTransfersAbove,
  unconfirmedTransfers,
  watchedCharges,
  type WatchedCharge,
} from "@/db/queries/chain-watch";
import type { ChainCursorRow, SeenBlock } from "@/db/schema";
import { inTransaction } from "@/db/transaction";
import { isTerminal } from "@/lib/payments/transitions";
import { matchOutputs, scriptPubKeyOf, type VerboseTx } from "../bitcoin/scan";
import type { CoinName } from "../coins";
import type { ChainNet } from "../derive";
import { reconcilePayment } from "../reconcile";
import type { BitcoinRpc } from "../rpc/bitcoin-rpc";

export type BitcoinChain = "BITCOIN" | "LITECOIN" | "BITCOIN_CASH";

export type FollowOptions = {
  chain: BitcoinChain;
  rpc: BitcoinRpc;
  net: ChainNet;
  /** This instance's name in the chain's lease. */
  owner: string;
  /** The name of the chain's cursor and lease: the chain itself (tests that share a database name their own). */
  cursor?: string;
  /** How long money is still watched for after a payment closed (LATE_PAYMENT_WINDOW). */
  lateWindowMs: number;
  leaseMs?: number;
  now?: () => Date;
  /** Mempool transactions already looked at by this instance (kept between ticks by the caller). */
  seenInMempool?: Set<string>;
  /** How long a transfer may be in neither a block nor the mempool before it is dropped (default 10 minutes). */
  dropAfterMs?: number;
};

export type FollowResult = {
  followed: boolean;
  from: number | null;
  to: number | null;
  transfers: number;
  reconciled: number;
  /** The height the chains forked at, when this tick found a reorganisation. */
  reorgedAt?: number;
};

/** Blocks remembered in the cursor: a reorganisation deeper than this is rescanned from the oldest one. */
export const RECENT_BLOCKS = 100;

/** Every watched charge by the script its address locks to (addresses derive one per charge). */
async function watchSet(db: Db, chain: BitcoinChain, since: Date) {
  const byScript = new Map<string, WatchedCharge>();
  for (const c of await watchedCharges(db, [chain as CoinName], since)) {
    try {
      byScript.set(scriptPubKeyOf(c.address), c);
    } catch {
      // An address of another network (a charge made before the node was configured) is nobody's here.
    }
  }
  return byScript;
}

/**
 * Drops the transfers that are in no block and no longer in the node's mempool, once they have
 * been recorded (or last changed) `dropAfterMs` ago: a double-spend (a conflicting transaction was mined,
 * and the node evicted this one) or a transaction evicted and never mined. A node's wallet would
 * silently forget such a payment; here its payment, left with nothing, fails. Returns the
 * payments touched.
 */
async function dropVanished(db: Db, o: FollowOptions): Promise<string[]> {
  const now = o.now?.() ?? new Date();
  const gone: number[] = [];
  const touched: string[] = [];
  for (const t of await unconfirmedTransfers(db, [o.chain])) {
    const txid = t.txId.split(":")[0];
    const inMempool = await o.rpc.call("getmempoolentry", [txid]).then(
      () => true,
      () => false,
    );
    if (inMempool) continue;
    // Mined since this tick's blocks were read: the next tick finds it in its block.
    const mined = await o.rpc.call<{ blockhash?: string }>("getrawtransaction", [txid, true]).then(
      (tx) => tx.blockhash !== undefined,
      () => false,
    );
    if (mined || now.getTime() - t.updatedAt.getTime() < (o.dropAfterMs ?? 600_000)) continue;
    gone.push(t.id);
    touched.push(t.paymentId);
  }
  if (gone.length) {
    console.warn(`[watcher ${o.chain}] dropped ${gone.length} transfer(s) in no block and no longer in the mempool`);
    await dropTransfers(db, gone, now);
  }
  return touched;
}

/**
 * Where the node's chain and the blocks the watcher read part: the newest remembered block the
 * node still has at its height. Null when none is (deeper than RECENT_BLOCKS, or a first tick).
 */
async function forkPoint(rpc: BitcoinRpc, cursor: ChainCursorRow, tip: number): Promise<SeenBlock | null | "same"> {
  const recent = cursor.recent.length ? cursor.recent : [{ height: cursor.height!, hash: cursor.blockHash! }];
  const top = recent[recent.length - 1];
  if (top.height <= tip && (await rpc.call<string>("getblockhash", [top.height])) === top.hash) return "same";
  for (let i = recent.length - 2; i >= 0; i--) {
    const b = recent[i];
    if (b.height <= tip && (await rpc.call<string>("getblockhash", [b.height])) === b.hash) return b;
  }
  return null;
}

/**
 * One tick of a Bitcoin-family chain's watcher. With the chain's lease (another instance holding
 * it: nothing to do) it
 * 1. compares the last blocks it read with the node's; after a reorganisation, transfers in
 *    blocks above the fork become unconfirmed and the blocks after the fork are read again;
 * 2. reads every block after the cursor up to the node's tip (no cap: after any downtime it
 *    catches up), recording each output that pays a watched charge once by its outpoint, with
 *    the block's height and hash, and moving the cursor block by block;
 * 3. looks at the mempool's new transactions: an output paying a watched charge is recorded
 *    with no confirmation (the payment is seen: PENDING);
 * 4. sets the watched transfers' confirmations from the tip, and lets the detection step the simulator
 *    uses decide each touched payment's status.
 * On a chain's first tick it starts at the tip.
 */
export async function followBitcoinChain(db: Db, o: FollowOptions): Promise<FollowResult> {
  const now = o.now ?? (() => new Date());
  const result: FollowResult = { followed: false, from: null, to: null, transfers: 0, reconciled: 0 };
  const key = o.cursor ?? o.chain;
  const cursor = await claimChainLease(db, key, o.net, o.owner, now(), o.leaseMs ?? 30_000);
  if (!cursor) return result;
  const tip = await o.rpc.call<number>("getblockcount");
  const move = (height: number, hash: string, recent: SeenBlock[]) =>
    advanceChainCursor(db, key, o.owner, { network: o.net, height, blockHash: hash, recent: recent.slice(-RECENT_BLOCKS) }, now());
  if (cursor.height === null) {
    const hash = await o.rpc.call<string>("getblockhash", [tip]);
    await move(tip, hash, [{ height: tip, hash }]);
    return { ...result, followed: true, to: tip };
  }
  const touched = new Set<string>();
  let recent = cursor.recent.length ? cursor.recent : [{ height: cursor.height, hash: cursor.blockHash! }];
  let from = cursor.height + 1;
  const fork = await forkPoint(o.rpc, cursor, tip);
  if (fork !== "same") {
    // Deeper than the remembered blocks: from below the oldest of them, as the node has it now.
    const height = fork?.height ?? recent[0].height - 1;
    const base = fork ?? { height, hash: await o.rpc.call<string>("getblockhash", [height]) };
    console.warn(`[watcher ${o.chain}] the chain reorganised above height ${base.height}; reading its blocks again`);
    for (const id of await inTransaction(db, (tx) => unconfirmTransfersAbove(tx, [o.chain], base.height, now()))) touched.add(id);
    recent = [...recent.filter((b) => b.height < base.height), base];
    // The cursor goes back to the fork at once: with no block above it yet, the next tick finds no reorganisation again.
    if (!(await move(base.height, base.hash, recent))) return result;
    from = base.height + 1;
    result.reorgedAt = base.height;
  }
  const lateSince = new Date(now().getTime() - o.lateWindowMs);
  const watched = await watchSet(db, o.chain, lateSince);
  const scripts = new Set(watched.keys());
  const record = async (txs: VerboseTx[], block: SeenBlock | null) => {
    for (const m of matchOutputs(txs, scripts, o.chain)) {
      const charge = watched.get(m.scriptPubKey)!;
      const changed = await recordChainTransfer(db, {
        paymentId: charge.paymentId,
        txId: m.outpoint,
        amount: m.units,
        toAddress: charge.address,
        blockNumber: block?.height ?? null,
        blockHash: block?.hash ?? null,
        confirmations: block ? tip - block.height + 1 : 0,
        late: isTerminal(charge.status),
        at: now(),
      });
      if (changed) {
        result.transfers++;
        touched.add(charge.paymentId);
      }
    }
  };
  for (let height = from; height <= tip; height++) {
    const hash = await o.rpc.call<string>("getblockhash", [height]);
    if (scripts.size > 0) await record((await o.rpc.call<{ tx: VerboseTx[] }>("getblock", [hash, 2])).tx, { height, hash });
    recent.push({ height, hash });
    // Block by block: a tick cut short (a crash, a lost lease) resumes after the last block read.
    if (!(await move(height, hash, recent))) return { ...result, from, to: height - 1 };
  }
  if (scripts.size > 0) {
    const seen = o.seenInMempool ?? new Set<string>();
    for (const txid of await o.rpc.call<string[]>("getrawmempool")) {
      if (seen.has(txid)) continue;
      seen.add(txid);
      const tx = await o.rpc.call<VerboseTx>("getrawtransaction", [txid, true]).catch(() => null); // mined or evicted meanwhile
      if (tx) await record([tx], null);
    }
  }
  for (const id of await dropVanished(db, o)) touched.add(id);
  for (const id of await inTransaction(db, (tx) => refreshConfirmations(tx, [o.chain], tip, lateSince, now()))) touched.add(id);
  for (const id of touched) await reconcilePayment(db, id, now());
  return { ...result, followed: true, from, to: tip, reconciled: touched.size };
}
