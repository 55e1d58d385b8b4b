import type { RpcTimes } from "./followers";
import type { TronBlockRead } from "./scan-reads";
import type { Quantiles } from "./stats";

/** What scan.ts measures: per chain, a tick's cost at each number of watched addresses, and the catch-up. */

export type SizeFigures = {
  watched: number;
  /** The addresses the watch set held: the watched ones less those paid at the smaller sizes. */
  watchSet: number;
  seedSeconds: number;
  /** The watch set's statement alone, and the Set built from its rows (ms, median of 5). */
  loadQueryMs: number;
  loadBuildMs: number;
  idleTick: Quantiles;
  /** This process's CPU time of the median idle tick (user + system; PGlite and the fake TRON node included). */
  idleTickCpuMs?: number;
  /** The same idle ticks reading the whole watch set each time (interleaved with those above). */
  idleTickReloading: Quantiles;
  /** Ticks reading one block that pays no watched charge: the scan itself. */
  scanTick: Quantiles;
  /** The same, reading the whole watch set each time. */
  scanTickReloading: Quantiles;
  /** One tick reading ten such blocks: the median of `tenBlockTicksMs` (three such ticks). */
  tenBlockTickMs: number;
  tenBlockTicksMs?: number[];
  /** The ten-block tick less the median idle tick, per block. */
  scanPerBlockMs: number;
  /** The same in this process's CPU time: the median ten-block tick's less the median idle tick's, per block. */
  scanPerBlockCpuMs?: number;
  /** RPC time per block in the ten-block tick, and of it the blocks' reads. */
  scanRpcMs: number;
  blockReadMs: number;
  /**
   * Ticks reading one block that also pays `watchedPerBlock` watched charges, after which the
   * watcher changes their statuses, completes earlier ones (Litecoin: the previous block's) and
   * counts the confirmations of those paid within the window again.
   */
  paidTick: Quantiles;
  /** Median paid tick less median one-block scan tick: the work the block's payments add. */
  paidPerBlockMs: number;
  transfersPerPaidBlock: number;
  reconciledPerPaidBlock: number;
  rpc: { scan: RpcTimes[]; tenBlocks: RpcTimes; paid: RpcTimes[] };
};

export type ChainScan = {
  chain: "LITECOIN" | "ETHEREUM" | "TRON";
  txsPerBlock: number;
  /** What the blocks' transactions are when not transfers to random addresses (TRON: "20 TRX + 20 USDT transfers"). */
  traffic?: string;
  watchedPerBlock: number;
  sizes: SizeFigures[];
  /** Litecoin: one block's (of txsPerBlock transactions) getblock … 2 split: the node's answer as text, then parsed as the client does (lossless-json) and by JSON.parse. */
  blockRead?: { bytes: number; fetchMs: number; losslessParseMs: number; jsonParseMs: number };
  /** TRON: one block's two reads, the fake node's answers (served in this process) against the same through the watcher's client. */
  tronRead?: TronBlockRead;
  /** Ticks of blocks paying no watched charge, without and with `paid` payments closed within the late-payment window. */
  recent?: { watched: number; paid: number; without: Quantiles; with: Quantiles; reconciledWith: number; perPaidPaymentMs: number };
  /** Idle ticks (kept watch set) with `charges` charges made within the last minute, against those without. */
  fresh?: { watched: number; charges: number; without: Quantiles; with: Quantiles };
  catchUp?: {
    blocks: number;
    txsPerBlock: number;
    watched: number;
    seconds: number;
    /** This process's CPU time over the tick (user + system). */
    cpuSeconds?: number;
    blocksPerSecond: number;
    transfers: number;
    rpc: RpcTimes;
    mineSeconds: number;
  };
};

export type ScanFigures = { chains: ChainScan[] };
