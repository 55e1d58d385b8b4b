import type { Db } from "@/db/client";
import { dropTransfers, unconfirmedTransfers, watchedCharges, type WatchedCharge } from "@/db/queries/chain-watch";
import type { SeenBlock } from "@/db/schema";
import { matchOutputs, scriptPubKeyOf, type VerboseTx } from "../bitcoin/scan";
import type { CoinName } from "../coins";
import type { BitcoinRpc } from "../rpc/bitcoin-rpc";
import { CursorWalk, type FollowerOptions, type FollowResult } from "./cursor-walk";

export { RECENT_BLOCKS, type FollowResult } from "./cursor-walk";

export type BitcoinChain = "BITCOIN" | "LITECOIN" | "BITCOIN_CASH";

export type FollowOptions = FollowerOptions & {
  chain: BitcoinChain;
  rpc: BitcoinRpc;
  /** Mempool transactions already looked at by this instance (kept between ticks by the caller). */
  seenInMempool?: Set<string>;
  /** How long a transfer may be in neither a block nor the mempool before it is dropped (default 10 minutes). */
  dropAfterMs?: number;
};

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
  const walk = await CursorWalk.begin(db, o, {
    key: o.cursor ?? o.chain,
    label: o.chain,
    coins: [o.chain],
    tip: () => o.rpc.call<number>("getblockcount"),
    hashAt: (height) => o.rpc.call<string>("getblockhash", [height]),
  });
  if (!(walk instanceof CursorWalk)) return walk;
  const watched = await watchSet(db, o.chain, walk.lateSince);
  const scripts = new Set(watched.keys());
  const record = async (txs: VerboseTx[], block: SeenBlock | null) => {
    for (const m of matchOutputs(txs, scripts, o.chain)) await walk.record(watched.get(m.scriptPubKey)!, { txId: m.outpoint, units: m.units, block });
  };
  for (let height = walk.from; height <= walk.tip; height++) {
    const hash = await o.rpc.call<string>("getblockhash", [height]);
    if (scripts.size > 0) await record((await o.rpc.call<{ tx: VerboseTx[] }>("getblock", [hash, 2])).tx, { height, hash });
    if (!(await walk.advance(height, hash))) return walk.cut();
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
  for (const id of await dropVanished(db, o)) walk.touched.add(id);
  return walk.finish();
}
