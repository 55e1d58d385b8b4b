import type { Db } from "@/db/client";
import {
  droppedPayments,
  failedDeliveries,
  heldPayments,
  lateTransfers,
  paymentsInStatus,
  type AttentionPayment,
  type FailedDelivery,
  type LateTransfer,
  type Listed,
} from "@/db/queries/dashboard-overview";
import { paymentsPerDay } from "@/db/queries/payments-dashboard";
import type { Business } from "@/db/schema";
import { COINS, type CoinName } from "@/domain/coins";
import { Big } from "@/domain/decimal";
import { unitsToDecimal } from "@/domain/amounts";
import { watchedChainOf, type WatchedChain } from "@/domain/watched-chains";
import { authorize } from "@/lib/accounts/authorize";
import { chainsHealth, type ChainHealth } from "@/lib/chains/health";
import { ratesReport, type RatesReport } from "@/lib/rates/report";
import { parseListQuery } from "@/lib/payments/list-query";
import { listPayments } from "@/lib/payments/read";
import type { PaymentRecord } from "@/lib/payments/schemas";

/*
 * A business's overview, the first page of its dashboard: how much it took today and this month,
 * its newest payments, what needs the merchant's attention, and whether the chains and exchange
 * rates its coins depend on are working. Money is counted as the payments list's chart counts it:
 * completed payments by the UTC day they were created, in USD after the fee (`netAmountUsd`,
 * settled at the rate locked with the quote), the one currency every payment has.
 */

/** Each attention list shows this many of its newest entries… */
export const ATTENTION_SHOWN = 5;
/** …and counts up to this many ("100+"). */
export const ATTENTION_CAP = 100;
/** Dropped transfers, late money and failed deliveries of this many days are listed. */
export const ATTENTION_DAYS = 7;
/** A transfer still short of its confirmations this long after it was seen is held. */
export const HELD_AFTER_MS = 3_600_000;
/** Recent payments shown. */
export const RECENT_SHOWN = 5;

const DAY_MS = 86_400_000;

export type Volume = { completed: number; completedNetUsd: string; created: number };

export type LateMoney = LateTransfer & { coinAmount: string | null };

export type ChainLine = Pick<ChainHealth, "chain" | "state" | "network" | "networkName" | "lag" | "lastTickAt" | "lastError"> & {
  /** The business's enabled coins on this chain. */
  coins: CoinName[];
};

export type RatesLine = Pick<RatesReport, "source" | "usableFor" | "asOf" | "maxAgeSeconds"> & {
  /** Whether this business's payments can be quoted from the source at all (the built-in table serves test businesses only). */
  servesBusiness: boolean;
  providers: RatesReport["providers"];
  /** The business's enabled coins without a usable rate now, and why. */
  unusableCoins: { coin: CoinName; why: string }[];
};

export type Overview = {
  business: Business;
  /** `YYYY-MM-DD`, the UTC day "today" is. */
  today: string;
  /** `YYYY-MM`, the UTC month. */
  month: string;
  volume: { today: Volume; month: Volume };
  recent: PaymentRecord[];
  attention: {
    underpaid: Listed<AttentionPayment>;
    late: Listed<LateMoney>;
    held: Listed<AttentionPayment>;
    dropped: Listed<AttentionPayment>;
  };
  failedDeliveries: Listed<FailedDelivery>;
  chains: ChainLine[];
  rates: RatesLine;
};

const limits = { limit: ATTENTION_SHOWN, cap: ATTENTION_CAP };

/** Completed volume of the UTC day of `now` and of its month so far (db/queries/payments-dashboard.ts's per-day figures). */
async function volumes(db: Db, business: Business, now: Date): Promise<{ today: Volume; month: Volume }> {
  const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const todayStart = new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS);
  const days = await paymentsPerDay(db, business, { fromTime: monthStart, toTime: now });
  const sum = (rows: typeof days): Volume => ({
    completed: rows.reduce((n, r) => n + r.completed, 0),
    created: rows.reduce((n, r) => n + r.created, 0),
    completedNetUsd: rows.reduce((s, r) => s.plus(r.completedNetUsd), new Big(0)).toFixed(2),
  });
  const todayKey = todayStart.toISOString().slice(0, 10);
  return { today: sum(days.filter((d) => d.day === todayKey)), month: sum(days) };
}

/** The watched chains, each with the business's enabled coins on it; in test mode they only inform (payments are simulated). */
function chainLines(health: ChainHealth[], enabled: readonly string[]): ChainLine[] {
  const byChain = new Map<WatchedChain, CoinName[]>();
  for (const c of enabled) {
    if (!Object.hasOwn(COINS, c)) continue;
    const chain = watchedChainOf(c as CoinName);
    if (chain) byChain.set(chain, [...(byChain.get(chain) ?? []), c as CoinName]);
  }
  return health.map((h) => ({
    chain: h.chain,
    state: h.state,
    network: h.network,
    networkName: h.networkName,
    lag: h.lag,
    lastTickAt: h.lastTickAt,
    lastError: h.lastError,
    coins: byChain.get(h.chain) ?? [],
  }));
}

function ratesLine(report: RatesReport, business: Business): RatesLine {
  const enabled = new Set(business.enabledCoins);
  return {
    source: report.source,
    usableFor: report.usableFor,
    asOf: report.asOf,
    maxAgeSeconds: report.maxAgeSeconds,
    servesBusiness: report.usableFor === "all businesses" || business.mode === "test",
    providers: report.providers,
    unusableCoins: report.coins.filter((c) => enabled.has(c.key) && !c.usable).map((c) => ({ coin: c.key, why: c.why ?? "no rate" })),
  };
}

/** A late transfer's amount in whole coins of the payment's coin ("0.0015"), when the coin is known. */
function lateMoney(t: LateTransfer): LateMoney {
  const coin = t.selectedCoin && Object.hasOwn(COINS, t.selectedCoin) ? (t.selectedCoin as CoinName) : null;
  return { ...t, coinAmount: coin ? unitsToDecimal(BigInt(t.units), COINS[coin].decimals) : null };
}

/**
 * The overview of `businessId` for a member of it (any role: it shows nothing a viewer may not
 * see), at `now`. Its reads run one after the other: on the embedded database they share one
 * session anyway, and on PostgreSQL the page is not a hot path.
 */
export async function businessOverview(db: Db, userId: string, businessId: unknown, now = new Date()): Promise<Overview> {
  const { business } = await authorize(db, userId, businessId, "view");
  const since = new Date(now.getTime() - ATTENTION_DAYS * DAY_MS);
  const volume = await volumes(db, business, now);
  const page = await listPayments(db, business, parseListQuery(new URLSearchParams({ PageSize: String(RECENT_SHOWN) })));
  const underpaid = await paymentsInStatus(db, business, ["UNDERPAID"], undefined, limits);
  const late = await lateTransfers(db, business, since, limits);
  const held = await heldPayments(db, business, new Date(now.getTime() - HELD_AFTER_MS), limits);
  const dropped = await droppedPayments(db, business, since, limits);
  const deliveries = await failedDeliveries(db, business.id, since, limits);
  const health = await chainsHealth(db, now);
  const rates = await ratesReport(db, now);
  return {
    business,
    today: now.toISOString().slice(0, 10),
    month: now.toISOString().slice(0, 7),
    volume,
    recent: page.items.map((text) => JSON.parse(text) as PaymentRecord),
    attention: { underpaid, late: { ...late, items: late.items.map(lateMoney) }, held, dropped },
    failedDeliveries: deliveries,
    chains: chainLines(health, business.enabledCoins),
    rates: ratesLine(rates, business),
  };
}
