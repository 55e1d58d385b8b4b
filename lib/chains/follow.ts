import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import type { Db } from "@/db/client";
import { listChainCursors, recordChainError, recordChainTick, resetChainCursor } from "@/db/queries/chain-cursors";
import type { Config } from "@/lib/config";
import { endpointOf, isStalled } from "./health";
import type { WatchedChain } from "@/domain/watched-chains";
import type { ChainDriver, NodeIdentity } from "./adapter";
import type { DecidePayment, FollowResult } from "./cursor-walk";
import { driverFor } from "./drivers";
import { log } from "@/log/logger.mjs";

/** This process's name in the chains' leases. */
export const OWNER = `${hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`;

/** How often a chain is followed: a node is asked for its tip this often, not on every runner tick. */
export const CHAIN_POLL_MS = 5_000;

/** A chain as this process last followed it (the database's chain_cursors is what every instance reads). */
export type FollowedChain = {
  chain: WatchedChain;
  endpoint: string;
  net: NodeIdentity["network"] | null;
  lastTickAt: Date | null;
  lastResult: FollowResult | null;
  lastError: string | null;
  lastErrorAt: Date | null;
};

type Followed = FollowedChain & {
  url: string;
  driver: ChainDriver;
  id: NodeIdentity | null;
  running: boolean;
  /** Whether the open addresses were checked directly since this process caught up. */
  checked: boolean;
  tip: number | null;
  tipSince: Date | null;
  stallLogged: boolean;
};

/*
 * Module state: the chains this bundle follows. The embedded runner's bundle (instrumentation)
 * or the Inngest function's follows them; the lease in the database keeps two processes from
 * following one chain.
 */
const followed = new Map<WatchedChain, Followed>();

function followedChain(chain: WatchedChain, url: string, chains: Config["chains"]): Followed {
  let f = followed.get(chain);
  if (!f || f.url !== url) {
    const driver = driverFor(chain, url, chains);
    f = { chain, url, endpoint: endpointOf(url), driver, id: null, net: null, lastTickAt: null, lastResult: null, lastError: null, lastErrorAt: null, running: false, checked: false, tip: null, tipSince: null, stallLogged: false };
    followed.set(chain, f);
  }
  return f;
}

/** The node's network, asked once; a cursor of another network (the node was replaced) starts again at the new tip. */
async function identify(db: Db, f: Followed, now: Date): Promise<NodeIdentity> {
  if (f.id) return f.id;
  const id = await f.driver.identify();
  const row = (await listChainCursors(db)).find((r) => r.chain === f.chain);
  if (row && row.network !== "unknown" && row.network !== id.network) {
    log.warn({ component: "watcher", chain: f.chain, endpoint: f.endpoint, network: id.network, cursorNetwork: row.network }, `the node at ${f.endpoint} serves ${id.network}, the cursor followed ${row.network}: starting again at its tip`);
    await resetChainCursor(db, f.chain, id.network, now);
  }
  log.info({ component: "watcher", chain: f.chain, endpoint: f.endpoint, network: id.network, chainId: id.chainId, coins: id.coins }, `${f.endpoint} serves ${id.network}${id.chainId === null ? "" : ` (chain id ${id.chainId})`}: ${id.coins.join(", ")}`);
  f.id = id;
  f.net = id.network;
  return id;
}

/** Logs once when the chain's tip stops moving for longer than its blocks ever take, and once when it moves again. */
function watchStall(f: Followed, tip: number, now: Date) {
  if (f.tip !== tip) {
    if (f.stallLogged) log.info({ component: "watcher", chain: f.chain, tip }, `the chain advances again (tip ${tip})`);
    f.tip = tip;
    f.tipSince = now;
    f.stallLogged = false;
  } else if (!f.stallLogged && f.net && isStalled(f.chain, f.net, f.tipSince, now)) {
    log.warn({ component: "watcher", chain: f.chain, tip, tipSince: f.tipSince!.toISOString() }, `stalled: the node's tip has stayed at ${tip} since ${f.tipSince!.toISOString()}; its coins are not offered`);
    f.stallLogged = true;
  }
}

async function followOne(db: Db, f: Followed, chains: Config["chains"], decide: DecidePayment, now: Date) {
  try {
    const id = await identify(db, f, now);
    const result = await f.driver.tick(db, id, { owner: OWNER, lateWindowMs: chains.latePaymentWindowMs, leaseMs: CHAIN_POLL_MS * 6, now: () => new Date(), decide });
    f.lastResult = result;
    if (!result.followed || result.to === null) return; // another instance follows it
    await recordChainTick(db, f.chain, OWNER, { network: id.network, chainId: id.chainId, tip: result.to, coins: id.coins }, new Date());
    watchStall(f, result.to, now);
    if (result.from !== null && result.to - result.from > 10) log.info({ component: "watcher", chain: f.chain, from: result.from, to: result.to }, `read blocks ${result.from}-${result.to}`);
    if (!f.checked) {
      f.checked = true;
      await f.driver.checkOpenAddresses(db, new Date(), decide);
    }
  } catch (err) {
    f.lastError = (err as Error).message;
    f.lastErrorAt = now;
    // Asked again next time: the node may have been replaced by one of another network.
    f.id = null;
    log.error({ component: "watcher", chain: f.chain }, f.lastError);
    await recordChainError(db, f.chain, OWNER, f.lastError, now).catch(() => undefined);
  }
}

/**
 * The runner's job: follows every chain whose node is configured, each at most every
 * CHAIN_POLL_MS, one tick at a time. A node that fails (down, wrong credentials) is logged,
 * recorded for the health view and retried at the next interval; the other chains go on.
 * `decide` is the payments layer's transfers → status step (lib/payments/reconcile.ts).
 */
export async function followConfiguredChains(
  db: Db,
  chains: Config["chains"],
  decide: DecidePayment,
  now = new Date(),
): Promise<FollowedChain[]> {
  const due: Followed[] = [];
  for (const [chain, url] of Object.entries(chains.rpcUrls) as [WatchedChain, string][]) {
    const f = followedChain(chain, url, chains);
    due.push(f);
  }
  await Promise.all(
    due.map(async (f) => {
      if (f.running || (f.lastTickAt && now.getTime() - f.lastTickAt.getTime() < CHAIN_POLL_MS)) return;
      f.running = true;
      f.lastTickAt = now;
      try {
        await followOne(db, f, chains, decide, now);
      } finally {
        f.running = false;
      }
    }),
  );
  return due.map(({ chain, endpoint, net, lastTickAt, lastResult, lastError, lastErrorAt }) => ({ chain, endpoint, net, lastTickAt, lastResult, lastError, lastErrorAt }));
}
