import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import type { Db } from "@/db/client";
import type { Config } from "@/lib/config";
import type { ChainNet } from "../derive";
import { bitcoinRpc, chainNetOf, type BitcoinRpc } from "../rpc/bitcoin-rpc";
import { followBitcoinChain, type BitcoinChain, type FollowResult } from "./bitcoin-follower";

/** This process's name in the chains' leases. */
const OWNER = `${hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`;

/** How often a chain is followed: a node is asked for its tip this often, not on every runner tick. */
export const CHAIN_POLL_MS = 5_000;

/** A followed chain as the watcher last left it (the health view reads these). */
export type ChainState = {
  chain: BitcoinChain;
  endpoint: string;
  net: ChainNet | null;
  lastTickAt: Date | null;
  lastResult: FollowResult | null;
  lastError: string | null;
  lastErrorAt: Date | null;
};

type Followed = ChainState & { rpc: BitcoinRpc; seenInMempool: Set<string>; running: boolean };

/*
 * Module state: the chains this bundle follows. Only the runner's bundle (instrumentation) follows
 * chains; the lease in the database keeps two processes from following one chain.
 */
const followed = new Map<BitcoinChain, Followed>();

function followedChain(chain: BitcoinChain, url: string): Followed {
  let f = followed.get(chain);
  if (!f) {
    const rpc = bitcoinRpc(url);
    f = { chain, endpoint: rpc.endpoint, rpc, net: null, lastTickAt: null, lastResult: null, lastError: null, lastErrorAt: null, seenInMempool: new Set(), running: false };
    followed.set(chain, f);
  }
  return f;
}

/**
 * The runner's job: follows every chain whose node is configured, each at most every
 * CHAIN_POLL_MS, one tick at a time. A node that fails (down, wrong credentials) is logged and
 * retried at the next interval; the other chains go on.
 */
export async function followConfiguredChains(db: Db, chains: Config["chains"], now = new Date()): Promise<ChainState[]> {
  const states: ChainState[] = [];
  for (const [chain, url] of Object.entries(chains.rpcUrls) as [BitcoinChain, string][]) {
    const f = followedChain(chain, url);
    states.push(f);
    if (f.running || (f.lastTickAt && now.getTime() - f.lastTickAt.getTime() < CHAIN_POLL_MS)) continue;
    f.running = true;
    f.lastTickAt = now;
    try {
      f.net ??= await chainNetOf(f.rpc);
      f.lastResult = await followBitcoinChain(db, {
        chain,
        rpc: f.rpc,
        net: f.net,
        owner: OWNER,
        lateWindowMs: chains.latePaymentWindowMs,
        seenInMempool: f.seenInMempool,
        leaseMs: CHAIN_POLL_MS * 6,
      });
      // Transactions leave the mempool as they are mined: keep its memory from growing for ever.
      if (f.seenInMempool.size > 100_000) f.seenInMempool.clear();
      if (f.lastResult.to !== null && f.lastResult.from !== null && f.lastResult.to - f.lastResult.from > 10) {
        console.info(`[watcher ${chain}] read blocks ${f.lastResult.from}-${f.lastResult.to}`);
      }
    } catch (err) {
      f.lastError = (err as Error).message;
      f.lastErrorAt = now;
      console.error(`[watcher ${chain}] ${f.lastError}`);
    } finally {
      f.running = false;
    }
  }
  return states.map(({ chain, endpoint, net, lastTickAt, lastResult, lastError, lastErrorAt }) => ({ chain, endpoint, net, lastTickAt, lastResult, lastError, lastErrorAt }));
}
