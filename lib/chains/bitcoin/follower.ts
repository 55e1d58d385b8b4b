import type { Db } from "@/db/client";
import type { SeenBlock } from "@/db/schema";
import { inputsOf, matchOutputs, scriptPubKeyOf, type VerboseTx } from "./scan";
import type { CoinName } from "@/domain/coins";
import type { BitcoinRpc } from "./rpc";
import { CursorWalk, type FollowerOptions, type FollowResult, type Whereabouts } from "../cursor-walk";
import { WatchList } from "../watch-list";

export { RECENT_BLOCKS, type FollowResult } from "../cursor-walk";

export type BitcoinChain = "BITCOIN" | "LITECOIN" | "BITCOIN_CASH";

export type FollowOptions = FollowerOptions & {
  chain: BitcoinChain;
  rpc: BitcoinRpc;
  /** Mempool transactions already looked at by this instance (kept between ticks by the caller). */
  seenInMempool?: Set<string>;
  /** The watch set, kept between ticks by the caller (`bitcoinWatchList`); without it, each tick reads it whole. */
  watch?: WatchList;
};

/**
 * A Bitcoin-family chain's watch set: every watched charge by the script its address locks to
 * (addresses derive one per charge), kept between ticks by the caller (watch-list.ts).
 */
export function bitcoinWatchList(chain: BitcoinChain): WatchList {
  return new WatchList([chain as CoinName], (c) => {
    try {
      return { part: "script", key: scriptPubKeyOf(c.address) };
    } catch {
      // An address of another network (a charge made before the node was configured) is nobody's here.
      return null;
    }
  });
}

/**
 * Where the node has a transaction: in its mempool, or mined (since this tick's blocks were read:
 * the next tick finds it in its block); "unknown" when neither, as after a double-spend.
 */
async function locate(rpc: BitcoinRpc, txid: string): Promise<Whereabouts> {
  if (await rpc.call("getmempoolentry", [txid]).then(() => true, () => false)) return "pool";
  const tx = await rpc.call<{ blockhash?: string }>("getrawtransaction", [txid, true]).catch(() => null);
  return tx?.blockhash === undefined ? "unknown" : "block";
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
 *    with no confirmation (the payment is seen: PENDING), with the outpoints its transaction
 *    spends;
 * 4. drops at once an unconfirmed transfer whose transaction's input another transaction in a
 *    block read (2) or in the mempool (3) spends: a double-spend; and drops the transfers in no
 *    block and no longer in the mempool for `dropAfterMs` (an eviction, a conflict not seen);
 * 5. sets the watched transfers' confirmations from the tip, and lets the detection step the simulator
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
  const watch = o.watch ?? bitcoinWatchList(o.chain);
  await watch.refresh(db, walk.lateSince, walk.now());
  const scripts = watch.part("script");
  await walk.drops.watchSpends();
  const record = async (txs: VerboseTx[], block: SeenBlock | null) => {
    for (const m of matchOutputs(txs, scripts, o.chain)) {
      await walk.record(scripts.get(m.scriptPubKey)!.at(-1)!, { txId: m.outpoint, units: m.units, block, spends: inputsOf(m.tx) });
    }
    if (walk.drops.watchingSpends) for (const tx of txs) await walk.drops.spentBy(tx.txid, inputsOf(tx));
  };
  for (let height = walk.from; height <= walk.tip; height++) {
    const hash = await o.rpc.call<string>("getblockhash", [height]);
    if (scripts.size > 0 || walk.drops.watchingSpends) await record((await o.rpc.call<{ tx: VerboseTx[] }>("getblock", [hash, 2])).tx, { height, hash });
    if (!(await walk.advance(height, hash))) return walk.cut();
  }
  if (scripts.size > 0 || walk.drops.watchingSpends) {
    const seen = o.seenInMempool ?? new Set<string>();
    for (const txid of await o.rpc.call<string[]>("getrawmempool")) {
      if (seen.has(txid)) continue;
      seen.add(txid);
      const tx = await o.rpc.call<VerboseTx>("getrawtransaction", [txid, true]).catch(() => null); // mined or evicted meanwhile
      if (tx) await record([tx], null);
    }
  }
  await walk.drops.dropVanished((txid) => locate(o.rpc, txid));
  return walk.finish();
}
