import type { Db } from "@/db/client";
import type { SeenBlock } from "@/db/schema";
import { COIN_NAMES, COINS, type CoinName } from "@/domain/coins";
import { CursorWalk, type FollowerOptions, type FollowResult } from "../cursor-walk";
import { chargesPaidBy, nativeAndTokenWatchList, type WatchList } from "../watch-list";
import { tronHexOf } from "./address";
import { locateTronTx, readTronBlock, readTxInfos, tronSolidifiedOf, tronTipOf, type TronClient } from "./rpc";
import { matchTrc20Transfers, matchTrxTransfers, type TronMatch } from "./scan";
import { log } from "@/log/logger.mjs";

export type TronFollowOptions = FollowerOptions & {
  client: TronClient;
  /** The configured TRC-20 contracts (lower-case hex 41…) and the coins each pays: one contract may serve two coins (TRX_TETHER, CONTRACT_TRC20_USDT). */
  tokens: ReadonlyMap<string, readonly CoinName[]>;
  /** Blocks read between two checks that the node's chain did not move (default 100). */
  range?: number;
  /** The watch set, kept between ticks by the caller (`tronWatchList` of these tokens); without it, each tick reads it whole. */
  watch?: WatchList;
};

/** Every coin paid on the TRON network: TRX and the TRC-20 tokens. */
export const TRON_COINS: readonly CoinName[] = COIN_NAMES.filter((c) => COINS[c].network === "TRON");

/** The coins paid in TRX itself (a TransferContract); the network's other coins are tokens. */
const NATIVE_COINS: ReadonlySet<CoinName> = new Set(["TRON", "CONTRACT_TRC20_TRX"]);

/** TRON's solidification: a block 19 of the 27 super representatives built on is irreversible (lib/chains/confirmations.ts). */
export const SOLIDIFIED_CONFIRMATIONS = 19;

/** The TRON watch set (watch-list.ts), keyed by lower-case hex address (41…). */
export function tronWatchList(tokens: TronFollowOptions["tokens"]): WatchList {
  return nativeAndTokenWatchList(TRON_COINS, NATIVE_COINS, tokens, (address) => {
    try {
      return tronHexOf(address);
    } catch {
      return null; // not a TRON address: nothing on this chain can pay it
    }
  });
}

type ReadBlock = SeenBlock & { matches: TronMatch[] };

/**
 * Reads the blocks `from`..`to`, each the child of the one before (the first, of `parent`): with
 * their transactions when a TRX charge is watched, and each block's transaction infos (its
 * Transfer logs) when a token charge is. "moved" when the node's chain changed meanwhile: a block
 * not the child of the one before, infos of another height, or another block at `to` once all
 * is read (infos name no block id, so the chain is checked again after them).
 */
async function readRange(o: TronFollowOptions, watch: WatchList, parent: SeenBlock, from: number, to: number): Promise<ReadBlock[] | "moved"> {
  const native = watch.part("native");
  const token = watch.part("token");
  const blocks: ReadBlock[] = [];
  let parentHash = parent.hash;
  for (let height = from; height <= to; height++) {
    const block = await readTronBlock(o.client, height, { detail: native.size > 0 });
    if (block.block_header.raw_data.parentHash !== parentHash || block.block_header.raw_data.number !== height) return "moved";
    const matches = native.size ? matchTrxTransfers(block, native) : [];
    if (token.size) {
      const infos = await readTxInfos(o.client, height);
      if (infos.some((i) => i.blockNumber !== undefined && i.blockNumber !== height)) return "moved";
      matches.push(...matchTrc20Transfers(infos, token, o.tokens));
    }
    blocks.push({ height, hash: block.blockID, matches });
    parentHash = block.blockID;
  }
  if (token.size && (await readTronBlock(o.client, to)).blockID !== blocks[blocks.length - 1].hash) return "moved";
  return blocks;
}

/**
 * One tick of the TRON watcher, as the Ethereum one (lib/chains/evm/follower.ts) with TRON's
 * finality: with the chain's lease it
 * 1. reads the solidified block, then compares the last blocks it read with the node's (a
 *    reorganisation can only happen above the solidified block; its transfers become
 *    unconfirmed and the blocks are read again);
 * 2. reads every block after the cursor up to the tip (no cap: after downtime it catches up),
 *    recording each TRX transfer and Transfer log to a watched charge once, with its block;
 * 3. drops the transfers in no block that the node has neither in a block nor pending for
 *    `dropAfterMs` (a reorganisation's new chain did not take them; an expired TRON transaction
 *    can never be included);
 * 4. sets confirmations (at least 19 once a block is solidified, at most 18 before) and lets the
 *    detection step decide each touched payment.
 * Pending transactions are not read: a payment is seen from its block (PENDING). On a chain's
 * first tick it starts at the tip.
 */
export async function followTronChain(db: Db, o: TronFollowOptions): Promise<FollowResult> {
  // Read before the tip, so it is never above it.
  const solidified = await tronSolidifiedOf(o.client);
  const walk = await CursorWalk.begin(db, o, {
    key: o.cursor ?? "TRON",
    label: "TRON",
    coins: TRON_COINS,
    tip: async () => (await tronTipOf(o.client)).number,
    hashAt: async (height) => (await readTronBlock(o.client, height)).blockID,
    finality: { height: solidified, confirmations: SOLIDIFIED_CONFIRMATIONS },
  });
  if (!(walk instanceof CursorWalk)) return walk;
  const watch = o.watch ?? tronWatchList(o.tokens);
  await watch.refresh(db, walk.lateSince, walk.now());
  const range = o.range ?? 100;
  for (let from = walk.from; from <= walk.tip; from += range) {
    const blocks = await readRange(o, watch, walk.last, from, Math.min(from + range - 1, walk.tip));
    if (blocks === "moved") {
      log.warn({ component: "watcher", chain: "TRON", from }, `the chain changed while blocks ${from}+ were read; the next tick reads them again`);
      break;
    }
    for (const block of blocks) {
      for (const m of block.matches) {
        for (const charge of chargesPaidBy(watch, o.tokens, m)) await walk.record(charge, { txId: m.key, units: m.units, block });
      }
      if (!(await walk.advance(block.height, block.hash))) return walk.cut();
    }
  }
  await walk.drops.dropVanished((txId) => locateTronTx(o.client, txId));
  return walk.finish();
}
