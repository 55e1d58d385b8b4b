import type { Db } from "@/db/client";
import { chainsHealth, type ChainHealth } from "@/lib/chains/health";

/** A chain's health as the admin API and `npm run admin -- chains` show it. */
export function chainReport(h: ChainHealth) {
  const iso = (d: Date | null) => d?.toISOString() ?? null;
  return {
    chain: h.chain,
    configured: h.configured,
    endpoint: h.endpoint,
    network: h.network,
    chainId: h.chainId,
    networkName: h.networkName,
    state: h.state,
    tip: h.tip,
    cursor: h.cursor,
    lag: h.lag,
    lastTickAt: iso(h.lastTickAt),
    tipChangedAt: iso(h.tipChangedAt),
    lastError: h.lastError,
    lastErrorAt: iso(h.lastErrorAt),
    coins: h.coins,
  };
}

export async function chainsReport(db: Db) {
  return (await chainsHealth(db)).map(chainReport);
}
