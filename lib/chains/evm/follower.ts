import { TransactionNotFoundError, type Hash } from "viem";
import type { Db } from "@/db/client";
import type { WatchedCharge } from "@/db/queries/chain-watch";
import type { SeenBlock } from "@/db/schema";
import { COIN_NAMES, COINS, type CoinName } from "@/domain/coins";
import { matchNativeTransfers, matchTokenTransfers, senderNonce, tokenContracts, type EvmMatch } from "./scan";
import { evmTipOf, minedCount, readEvmBlock, readTransferLogs, senderOf, type EvmClient } from "./rpc";
import { CursorWalk, type FollowerOptions, type FollowResult, type Whereabouts } from "../cursor-walk";
import { nativeAndTokenWatchList, type WatchList } from "../watch-list";
import { log } from "@/log/logger.mjs";

export type EvmFollowOptions = FollowerOptions & {
  client: EvmClient;
  /** The configured token contracts (lower-cased) and the coins each pays: one contract may serve two coins (ETH_TETHER, CONTRACT_ERC20_USDT). */
  tokens: ReadonlyMap<string, readonly CoinName[]>;
  /** The most blocks one eth_getLogs call covers (default 1000): providers refuse wider ranges. */
  logRange?: number;
  /** The watch set, kept between ticks by the caller (`evmWatchList` of these tokens); without it, each tick reads it whole. */
  watch?: WatchList;
};

/** Every coin paid on the Ethereum network: Ether and the ERC-20 tokens. */
export const EVM_COINS: readonly CoinName[] = COIN_NAMES.filter((c) => COINS[c].network === "ETHEREUM");

/** The coins paid in Ether itself, a transaction's value; the network's other coins are tokens. */
const NATIVE_COINS: ReadonlySet<CoinName> = new Set(["ETHEREUM", "CONTRACT_ERC20_ETH"]);

/** The Ethereum watch set (watch-list.ts), keyed by lower-cased address: nodes print addresses checksummed or not. */
export function evmWatchList(tokens: EvmFollowOptions["tokens"]): WatchList {
  return nativeAndTokenWatchList(EVM_COINS, NATIVE_COINS, tokens, (address) => address.toLowerCase());
}

/** The watch set as a tick matches against it, and for each token coin the coins its contract pays (a match names one of them). */
function watchSet(watch: WatchList, tokens: EvmFollowOptions["tokens"]) {
  const sameContract = new Map<CoinName, readonly CoinName[]>();
  for (const coins of tokens.values()) for (const coin of coins) sameContract.set(coin, coins);
  return { native: watch.part("native"), token: watch.part("token"), sameContract };
}

type WatchSet = ReturnType<typeof watchSet>;

/**
 * The charges a match pays. A transfer counts only for a charge of the coin it moves: Ether
 * for an Ether charge, a configured contract's tokens for a charge of a coin that contract pays.
 * Anything else sent to the address (Ether to a USDT charge, another token) is not the quoted
 * coin: its base units are not the charge's, so counting them would read, say, a few cents of
 * USDT units as 10^12 times more Ether, or the reverse. It stays on the address for the merchant.
 */
function chargesPaid(watch: WatchSet, m: EvmMatch): readonly WatchedCharge[] {
  if (m.coin === "ETHEREUM") return watch.native.get(m.to) ?? [];
  const coins = watch.sameContract.get(m.coin) ?? [];
  return (watch.token.get(m.to) ?? []).filter((c) => coins.includes(c.coin));
}

/** A block as the walk records it: its place on the chain and the watched transfers in it. */
type ReadBlock = SeenBlock & { matches: EvmMatch[] };

/** A block without its transactions: enough to follow the chain when no Ether charge is watched. */
async function blockHeader(client: EvmClient, height: number) {
  const block = await client.getBlock({ blockNumber: BigInt(height) });
  return { hash: block.hash, parentHash: block.parentHash };
}

/**
 * Reads the blocks `from`..`to`, each the child of the one before (the first, of `parent`), with
 * the watched Ether transfers in them (full blocks only when an Ether charge is watched: the
 * hashes are needed anyway), then the Transfer logs of those blocks in one eth_getLogs call
 * whatever the number of addresses. "moved" when the node's chain changed meanwhile (a block
 * not the child of the one before, a log from another block than the one read at its height,
 * another block at `to` after the logs): the blocks and the logs may then be of two chains,
 * and recording them could skip a transfer for good. The next tick's reorganisation check
 * finds where the chain now goes.
 */
async function readRange(o: EvmFollowOptions, watch: WatchSet, parent: SeenBlock, from: number, to: number): Promise<ReadBlock[] | "moved"> {
  const blocks: ReadBlock[] = [];
  let parentHash = parent.hash;
  for (let height = from; height <= to; height++) {
    const block = watch.native.size ? await readEvmBlock(o.client, height) : await blockHeader(o.client, height);
    if (block.parentHash !== parentHash) return "moved";
    const matches = "transactions" in block ? matchNativeTransfers(block, watch.native) : [];
    blocks.push({ height, hash: block.hash, matches });
    parentHash = block.hash;
  }
  if (watch.token.size === 0) return blocks;
  const logs = await readTransferLogs(o.client, { from, to }, [...o.tokens.keys()], [...watch.token.keys()]);
  if (logs.some((log) => blocks[log.blockNumber - from]?.hash !== log.blockHash)) return "moved";
  if ((await blockHeader(o.client, to)).hash !== blocks[blocks.length - 1].hash) return "moved";
  const tokens = tokenContracts([...o.tokens].flatMap(([contract, coins]) => (coins.length ? [[contract, coins[0]] as const] : [])));
  for (const m of matchTokenTransfers(logs, watch.token, tokens)) blocks[m.blockNumber - from].matches.push(m);
  return blocks;
}

/**
 * Where the node has a transaction (eth_getTransactionByHash): in a block, pending in its pool,
 * or unknown to it, as after a reorganisation that no block of the new chain took it back in.
 * Any other failure fails the tick: a node that cannot answer says nothing about the transaction.
 */
async function locate(client: EvmClient, hash: string): Promise<Whereabouts> {
  try {
    const tx = await client.getTransaction({ hash: hash as Hash });
    return tx.blockNumber === null ? "pool" : "block";
  } catch (err) {
    if (err instanceof TransactionNotFoundError) return "unknown";
    throw err;
  }
}

/**
 * One tick of the Ethereum watcher. With the chain's lease (another instance holding it:
 * nothing to do) it
 * 1. compares the last blocks it read with the node's; after a reorganisation, transfers in
 *    blocks above the fork become unconfirmed and the blocks after the fork are read again;
 * 2. reads every block after the cursor up to the node's tip (no cap: after any downtime it
 *    catches up), `logRange` blocks at a time: Ether paid to a watched charge by a
 *    transaction's value, and ERC-20 Transfer logs from the configured contracts to watched
 *    charges. Each is recorded once (a transaction's hash for Ether, `hash:logIndex` for a log),
 *    with its block's height and hash, and the cursor moves block by block once a range is read
 *    whole, so a tick cut short resumes after the last block recorded;
 * 3. drops the transfers in no block (their block left the main chain) whose transaction was
 *    replaced, at once: the node's chain holds another transaction of its sender with its nonce
 *    (each transfer is recorded with its transaction's `sender:nonce`), so it can never be
 *    mined; and those whose transaction the node has neither in a block nor pending for
 *    `dropAfterMs`: a reorganisation's new chain did not take it back, and it will not arrive;
 * 4. sets the watched transfers' confirmations from the tip, and lets the detection step the
 *    simulator uses decide each touched payment's status.
 * Pending transactions are not read: one in the pool may be replaced or dropped at will, so a
 * payment is seen from its block (PENDING at 1 confirmation). On a chain's first tick it starts
 * at the tip.
 */
export async function followEvmChain(db: Db, o: EvmFollowOptions): Promise<FollowResult> {
  const walk = await CursorWalk.begin(db, o, {
    key: o.cursor ?? "ETHEREUM",
    label: "ETHEREUM",
    coins: EVM_COINS,
    tip: () => evmTipOf(o.client),
    hashAt: async (height) => (await blockHeader(o.client, height)).hash,
  });
  if (!(walk instanceof CursorWalk)) return walk;
  const kept = o.watch ?? evmWatchList(o.tokens);
  await kept.refresh(db, walk.lateSince, walk.now());
  const watch = watchSet(kept, o.tokens);
  const range = o.logRange ?? 1000;
  for (let from = walk.from; from <= walk.tip; from += range) {
    const blocks = await readRange(o, watch, walk.last, from, Math.min(from + range - 1, walk.tip));
    if (blocks === "moved") {
      log.warn({ component: "watcher", chain: "ETHEREUM", from }, `the chain changed while blocks ${from}+ were read; the next tick reads them again`);
      break;
    }
    for (const block of blocks) {
      for (const m of block.matches) {
        const paid = chargesPaid(watch, m);
        if (!paid.length) continue;
        // A token log names no nonce: its transaction's is asked for (a few per block at most).
        const spends = m.spends ?? [await senderOf(o.client, m.txHash).then((t) => senderNonce(t.from, t.nonce))];
        for (const charge of paid) await walk.record(charge, { txId: m.key, units: m.units, block, spends });
      }
      if (!(await walk.advance(block.height, block.hash))) return walk.cut();
    }
  }
  await walk.drops.dropVanished(
    (hash) => locate(o.client, hash),
    async (spend) => {
      const [from, nonce] = spend.split(":");
      return (await minedCount(o.client, from)) > Number(nonce);
    },
  );
  return walk.finish();
}
