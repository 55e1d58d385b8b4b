import { randomUUID } from "node:crypto";
import type { Db } from "@/db/client";
import type { BitcoinRpc } from "@/lib/chains/bitcoin/rpc";
import type { EvmClient } from "@/lib/chains/evm/rpc";
import type { TronClient } from "@/lib/chains/tron/rpc";
import type { CoinName } from "@/domain/coins";
import { randomEvmAddress, type EvmBench } from "./evm";
import { randomLitecoinAddress, type LitecoinBench } from "./litecoin";
import { randomTronAddress, type TronBench, type TronCoin } from "./tron";
import { seedWatched } from "./watched";
import { reconcilePayment } from "@/lib/payments/reconcile";

/**
 * The followers as the scan measurements drive them (scan.ts): each under a cursor of its own,
 * its node's RPC timed per method, with how its blocks are made, its watched charges seeded and
 * its watch set loaded.
 */

export const WEEK = 7 * 86_400_000;
export const LTC_UNITS = 1_000_000n; // 0.01 LTC per watched charge
export const ETH_WEI = 10n ** 16n; // 0.01 ETH
const TRX_SUN = 133_333_334n; // $20 at the pinned 0.15 USD
const USDT_UNITS = 20_000_000n; // 20 USDT

/** A coin of the watched charges, with what each charge quotes. */
type SeedCoin = { coin: CoinName; units: bigint; rate: string };

/**
 * `count` watched charges on new addresses, the coins taken in turn (address i pays coins[i mod
 * n]); returns the addresses in order, and notes each one's coin in `coinOf`.
 */
async function seedInTurn(db: Db, businessId: number, count: number, newAddress: () => string, coins: SeedCoin[], coinOf?: Map<string, SeedCoin>) {
  const addresses = Array.from({ length: count }, newAddress);
  for (const [k, c] of coins.entries()) {
    const part = addresses.filter((_, i) => i % coins.length === k);
    if (part.length) await seedWatched(db, { businessId, coin: c.coin, addresses: part, units: c.units, rate: c.rate });
    for (const a of part) coinOf?.set(a, c);
  }
  return addresses;
}

/** The RPC methods' time and calls, as the follower made them. */
export type RpcTimes = Record<string, { calls: number; ms: number }>;

function timedBitcoinRpc(rpc: BitcoinRpc) {
  const times: RpcTimes = {};
  const timed: BitcoinRpc = {
    endpoint: rpc.endpoint,
    async call<T>(method: string, params?: unknown[]) {
      const t0 = performance.now();
      try {
        return await rpc.call<T>(method, params);
      } finally {
        const t = (times[method] ??= { calls: 0, ms: 0 });
        t.calls++;
        t.ms += performance.now() - t0;
      }
    },
  };
  return { rpc: timed, times };
}

function timedEvmClient(client: EvmClient) {
  const times: RpcTimes = {};
  const proxy = new Proxy(client, {
    get(target, prop, receiver) {
      const value: unknown = Reflect.get(target, prop, receiver);
      if (typeof prop !== "string" || !["getBlock", "getBlockNumber", "getLogs"].includes(prop)) return value;
      return async (...args: unknown[]) => {
        const t0 = performance.now();
        try {
          return await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        } finally {
          const t = (times[prop] ??= { calls: 0, ms: 0 });
          t.calls++;
          t.ms += performance.now() - t0;
        }
      };
    },
  });
  return { client: proxy as EvmClient, times };
}

/** The TRON client's POSTs timed by endpoint; a block read with its transactions apart from a header's. */
function timedTronClient(client: TronClient) {
  const times: RpcTimes = {};
  const timed: TronClient = {
    async post(path, body) {
      const name = `${path.replace(/^\/wallet\//, "").replace(/^\/walletsolidity\//, "solidity ")}${(body as { detail?: boolean }).detail ? " detail" : ""}`;
      const t0 = performance.now();
      try {
        return await client.post(path, body);
      } finally {
        const t = (times[name] ??= { calls: 0, ms: 0 });
        t.calls++;
        t.ms += performance.now() - t0;
      }
    },
  };
  return { client: timed, times };
}

export const snapshot = (t: RpcTimes): RpcTimes => JSON.parse(JSON.stringify(t));
export function since(before: RpcTimes, after: RpcTimes): RpcTimes {
  const out: RpcTimes = {};
  for (const [m, a] of Object.entries(after)) {
    const b = before[m] ?? { calls: 0, ms: 0 };
    if (a.calls > b.calls) out[m] = { calls: a.calls - b.calls, ms: Math.round((a.ms - b.ms) * 10) / 10 };
  }
  return out;
}
export const rpcMs = (t: RpcTimes) => Object.values(t).reduce((s, x) => s + x.ms, 0);

type TickResult = { followed: boolean; from: number | null; to: number | null; transfers: number; reconciled: number };

export type Follower = {
  chain: "LITECOIN" | "ETHEREUM" | "TRON";
  /** A tick as the service's driver runs it: the watch set kept between ticks (lib/chains/watch-list.ts). */
  tick: () => Promise<TickResult>;
  /** A tick that reads the whole watch set, as every tick did before it was kept: the same run's "before". */
  tickReloading: () => Promise<TickResult>;
  /** A new kept watch set: its next tick reads it whole (as after a start, or every FULL_READ_EVERY_MS). */
  resetWatch: () => void;
  /** How many full and change reads the kept watch set made. */
  watchReads: () => { full: number; changes: number };
  /** The node's newest block. */
  tip: () => Promise<{ height: number; hash: string }>;
  /** Mines `n` blocks with no transaction of the bench's. */
  mineEmpty: (n: number) => Promise<unknown>;
  required: number;
  times: RpcTimes;
  /** The RPC methods that read a block's transfers: the "read" of the per-block figures. */
  blockReadMethods: string[];
  loadWatchSet: (db: Db) => Promise<{ queryMs: number; buildMs: number; size: number }>;
  /** Mines one block of `random` transactions to random addresses and one to each of `watched`. */
  block: (random: number, watched: string[]) => Promise<void>;
  /** `count` watched charges of a live business, each on a new address of the chain; the addresses. */
  seed: (db: Db, businessId: number, count: number) => Promise<string[]>;
  /** Transactions per block when the chain's traffic is its own (TRON: TRX and USDT), and what they are. */
  txsPerBlock?: number;
  traffic?: string;
};

export async function litecoinFollower(db: Db, ltc: LitecoinBench): Promise<Follower> {
  const { followBitcoinChain, bitcoinWatchList } = await import("@/lib/chains/bitcoin/follower");
  const { watchedCharges } = await import("@/db/queries/chain-watch");
  const { scriptPubKeyOf } = await import("@/lib/chains/bitcoin/scan");
  const { rpc, times } = timedBitcoinRpc(ltc.rpc);
  const options = { chain: "LITECOIN" as const, rpc, net: "regtest" as const, owner: "bench", cursor: `LITECOIN-bench-${randomUUID()}`, lateWindowMs: WEEK, decide: reconcilePayment, seenInMempool: new Set<string>() };
  let watch = bitcoinWatchList("LITECOIN");
  return {
    chain: "LITECOIN",
    tick: () => followBitcoinChain(db, { ...options, watch }),
    tickReloading: () => followBitcoinChain(db, options),
    resetWatch: () => void (watch = bitcoinWatchList("LITECOIN")),
    watchReads: () => ({ ...watch.reads }),
    tip: async () => ({ height: await ltc.rpc.call<number>("getblockcount"), hash: await ltc.rpc.call<string>("getbestblockhash") }),
    mineEmpty: (n) => ltc.mine(n),
    required: 2,
    times,
    blockReadMethods: ["getblock"],
    async loadWatchSet(db) {
      const t0 = performance.now();
      const rows = await watchedCharges(db, ["LITECOIN"], new Date(Date.now() - WEEK));
      const t1 = performance.now();
      const set = new Map<string, unknown>();
      for (const c of rows) set.set(scriptPubKeyOf(c.address), c);
      return { queryMs: t1 - t0, buildMs: performance.now() - t1, size: set.size };
    },
    async block(random, watched) {
      await ltc.pay([
        ...Array.from({ length: random }, () => ({ address: randomLitecoinAddress(), units: 100_000n })),
        ...watched.map((address) => ({ address, units: LTC_UNITS })),
      ]);
      await ltc.mine(1);
    },
    seed: (db, businessId, count) => seedInTurn(db, businessId, count, randomLitecoinAddress, [{ coin: "LITECOIN", units: LTC_UNITS, rate: "80" }]),
  };
}

export async function evmFollower(db: Db, evm: EvmBench): Promise<Follower> {
  const { followEvmChain, evmWatchList, EVM_COINS } = await import("@/lib/chains/evm/follower");
  const { watchedCharges } = await import("@/db/queries/chain-watch");
  const { watchedSet } = await import("@/lib/chains/evm/scan");
  const { client, times } = timedEvmClient(evm.client);
  const options = { client, net: "regtest" as const, owner: "bench", cursor: `ETHEREUM-bench-${randomUUID()}`, lateWindowMs: WEEK, decide: reconcilePayment, tokens: new Map() };
  await evm.automine(false);
  let watch = evmWatchList(options.tokens);
  return {
    chain: "ETHEREUM",
    tick: () => followEvmChain(db, { ...options, watch }),
    tickReloading: () => followEvmChain(db, options),
    resetWatch: () => void (watch = evmWatchList(options.tokens)),
    watchReads: () => ({ ...watch.reads }),
    tip: async () => {
      const b = await evm.client.getBlock();
      return { height: Number(b.number), hash: b.hash };
    },
    mineEmpty: (n) => evm.mine(n),
    required: 12,
    times,
    blockReadMethods: ["getBlock"],
    async loadWatchSet(db) {
      const t0 = performance.now();
      const rows = await watchedCharges(db, EVM_COINS, new Date(Date.now() - WEEK));
      const t1 = performance.now();
      const set = watchedSet(rows.map((c) => c.address));
      return { queryMs: t1 - t0, buildMs: performance.now() - t1, size: set.size };
    },
    async block(random, watched) {
      await evm.pay([...Array.from({ length: random }, () => ({ to: randomEvmAddress(), wei: 10n ** 15n })), ...watched.map((to) => ({ to, wei: ETH_WEI }))]);
      await evm.mine(1);
    },
    seed: (db, businessId, count) => seedInTurn(db, businessId, count, randomEvmAddress, [{ coin: "ETHEREUM", units: ETH_WEI, rate: "3000" }]),
  };
}

/**
 * followTronChain with the node's token configured as the service configures it (the driver's
 * identify: TRON_TOKEN_CONTRACTS {"TRX_TETHER": the node's USDT}); the watched charges half TRX,
 * half USDT, so a tick reads both each block's transactions and its transaction infos.
 */
export async function tronFollower(db: Db, tron: TronBench): Promise<Follower> {
  const { followTronChain, tronWatchList, TRON_COINS, SOLIDIFIED_CONFIRMATIONS } = await import("@/lib/chains/tron/follower");
  const { tronDriver } = await import("@/lib/chains/tron/driver");
  const { readTronBlock, tronClient } = await import("@/lib/chains/tron/rpc");
  const { tronHexOf } = await import("@/lib/chains/tron/address");
  const { watchedCharges } = await import("@/db/queries/chain-watch");
  const id = await tronDriver(tron.url, { tokenContracts: { TRX_TETHER: tron.usdt.address } }).identify();
  if (!id.coins.includes("TRX_TETHER")) throw new Error(`the TRON node's USDT was refused: coins ${id.coins.join(", ")}`);
  const plain = tronClient(tron.url);
  const { client, times } = timedTronClient(plain);
  const options = { client, net: id.network, owner: "bench", cursor: `TRON-bench-${randomUUID()}`, lateWindowMs: WEEK, decide: reconcilePayment, tokens: id.tokens };
  let watch = tronWatchList(id.tokens);
  const coinOf = new Map<string, SeedCoin>();
  return {
    chain: "TRON",
    tick: () => followTronChain(db, { ...options, watch }),
    tickReloading: () => followTronChain(db, options),
    resetWatch: () => void (watch = tronWatchList(id.tokens)),
    watchReads: () => ({ ...watch.reads }),
    tip: async () => {
      const b = await readTronBlock(plain, "latest");
      return { height: b.block_header.raw_data.number, hash: b.blockID };
    },
    mineEmpty: (n) => tron.mine(n),
    required: SOLIDIFIED_CONFIRMATIONS,
    times,
    blockReadMethods: ["getblock detail", "gettransactioninfobyblocknum"],
    async loadWatchSet(db) {
      const t0 = performance.now();
      const rows = await watchedCharges(db, TRON_COINS, new Date(Date.now() - WEEK));
      const t1 = performance.now();
      const set = new Map<string, unknown>();
      for (const c of rows) set.set(tronHexOf(c.address), c);
      return { queryMs: t1 - t0, buildMs: performance.now() - t1, size: set.size };
    },
    async block(random, watched) {
      const trx = Math.floor(random / 2);
      await tron.block({
        trx,
        token: random - trx,
        watched: watched.map((to) => {
          const c = coinOf.get(to);
          if (!c) throw new Error(`${to} is not a seeded TRON charge`);
          return { to, coin: c.coin as TronCoin, units: c.units };
        }),
      });
    },
    seed: (db, businessId, count) =>
      seedInTurn(db, businessId, count, randomTronAddress, [{ coin: "TRON", units: TRX_SUN, rate: "0.15" }, { coin: "TRX_TETHER", units: USDT_UNITS, rate: "1" }], coinOf),
    txsPerBlock: 40,
    traffic: "20 TRX + 20 USDT transfers",
  };
}
