import type { Tx } from "@/db/client";
import { listChainCursors } from "@/db/queries/chain-cursors";
import type { ChainCursorRow } from "@/db/schema";
import { config } from "@/lib/config";
import type { CoinName } from "@/domain/coins";
import type { ChainNet } from "@/lib/wallets/derive";
import { networkNameOf, WATCHED_CHAINS, type WatchedChain } from "@/domain/watched-chains";

/**
 * Whether each chain can take payments now, from what its watcher last wrote (chain_cursors):
 * every instance of the service reads the same answer, whichever instance follows the chain.
 */

/** A watcher that has not ticked for this long is not following its chain (12 poll intervals). */
export const TICK_STALE_MS = 60_000;

/**
 * How long a chain's tip may stand still before the chain counts as stalled: a few times the
 * block interval, beyond which a gap is far likelier a stuck node than chance (Bitcoin's
 * 10-minute blocks leave an hour's gap about once a week; two hours almost never). Regtest and
 * development chains make blocks only when asked, so their tips never count as stalled.
 */
export const STALL_AFTER_MS: Record<WatchedChain, number> = {
  BITCOIN: 2 * 3_600_000,
  BITCOIN_CASH: 2 * 3_600_000,
  LITECOIN: 3_600_000,
  ETHEREUM: 10 * 60_000,
  // 3-second slots: five minutes is a hundred blocks missed.
  TRON: 5 * 60_000,
  // 2-minute blocks: forty minutes is twenty missed, which chance all but never gives.
  MONERO: 40 * 60_000,
  // 400 ms slots: two minutes is some three hundred slots without a finalized block.
  SOLANA: 2 * 60_000,
  // About 5-second masterchain blocks: five minutes is some sixty missed.
  TON: 5 * 60_000,
};

export type ChainState = "healthy" | "starting" | "failing" | "stalled" | "not configured";

export type ChainHealth = {
  chain: WatchedChain;
  configured: boolean;
  /** The node's address without its credentials. */
  endpoint: string | null;
  network: ChainNet | null;
  chainId: number | null;
  /** TRON's network by name (mainnet, Nile, Shasta, private); null where `network` says it all. */
  networkName: string | null;
  tip: number | null;
  cursor: number | null;
  lag: number | null;
  lastTickAt: Date | null;
  tipChangedAt: Date | null;
  lastError: string | null;
  lastErrorAt: Date | null;
  state: ChainState;
  /** The coins a live business can be paid in on this chain now: none unless healthy. */
  coins: CoinName[];
};

const NETS: readonly string[] = ["main", "test", "regtest"];

/** The RPC URL without user, password, query or fragment: what may be shown and logged. */
export function endpointOf(url: string): string {
  const u = new URL(url);
  return `${u.protocol}//${u.host}${u.pathname === "/" ? "" : u.pathname}`;
}

/** One chain's health from its cursor row (undefined: never followed). */
export function chainHealth(chain: WatchedChain, url: string | undefined, row: ChainCursorRow | undefined, now: Date): ChainHealth {
  const network = row && NETS.includes(row.network) ? (row.network as ChainNet) : null;
  const health: ChainHealth = {
    chain,
    configured: url !== undefined,
    endpoint: url === undefined ? null : endpointOf(url),
    network,
    chainId: row?.chainId ?? null,
    networkName: network === null ? null : networkNameOf(chain, row?.chainId ?? null),
    tip: row?.tip ?? null,
    cursor: row?.height ?? null,
    lag: row?.tip != null && row.height != null ? Math.max(0, row.tip - row.height) : null,
    lastTickAt: row?.tickedAt ?? null,
    tipChangedAt: row?.tipChangedAt ?? null,
    lastError: row?.lastError ?? null,
    lastErrorAt: row?.lastErrorAt ?? null,
    state: "healthy",
    coins: [],
  };
  if (url === undefined) return { ...health, state: "not configured" };
  if (!row?.tickedAt || network === null) return { ...health, state: row?.lastErrorAt ? "failing" : "starting" };
  if (now.getTime() - row.tickedAt.getTime() > TICK_STALE_MS) return { ...health, state: "failing" };
  if (isStalled(chain, network, row.tipChangedAt, now)) return { ...health, state: "stalled" };
  return { ...health, coins: (row.coins ?? []) as CoinName[] };
}

export function isStalled(chain: WatchedChain, network: ChainNet, tipChangedAt: Date | null, now: Date): boolean {
  return network !== "regtest" && tipChangedAt !== null && now.getTime() - tipChangedAt.getTime() > STALL_AFTER_MS[chain];
}

/** Every watched chain's health, configured or not. */
export async function chainsHealth(db: Tx, now = new Date(), urls = config().chains.rpcUrls): Promise<ChainHealth[]> {
  const rows = new Map((await listChainCursors(db)).map((r) => [r.chain, r]));
  return WATCHED_CHAINS.map((chain) => chainHealth(chain, urls[chain], rows.get(chain), now));
}

/** What deriving and offering a live coin needs: the chain's network, and an EVM chain's id. */
export type LiveCoin = { chain: WatchedChain; network: ChainNet; chainId: number | null };

/** The coins live businesses can be paid in now (their chains configured and healthy), each with its chain's network. */
export async function liveCoins(db: Tx, now = new Date()): Promise<Map<CoinName, LiveCoin>> {
  return liveCoinsOf(await chainsHealth(db, now));
}

/** The same, from the chains' health already read. */
export function liveCoinsOf(health: readonly ChainHealth[]): Map<CoinName, LiveCoin> {
  const out = new Map<CoinName, LiveCoin>();
  for (const h of health) {
    for (const coin of h.coins) out.set(coin, { chain: h.chain, network: h.network!, chainId: h.chainId });
  }
  return out;
}
