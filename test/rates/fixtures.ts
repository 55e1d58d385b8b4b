import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { makeRateRefreshDue } from "@/db/queries/rates";
import type { CoinName } from "@/domain/coins";
import { RateLimitedError, RateProviderError } from "@/lib/rates/providers/errors";
import type { ProviderSnapshot, RateProvider } from "@/lib/rates/providers/types";
import type { RateProviderId } from "@/lib/config/rates";
import type { RatesConfig } from "@/lib/config/rates";

/** The lock the files that write the shared rate tables take turns on (test/serial.ts). */
export const RATES_TESTS_LOCK = 741852965;

export const RATES: RatesConfig = {
  providers: ["kraken", "coinbase", "coingecko"],
  refreshMs: 60_000,
  maxAgeMs: 600_000,
  maxJumpPercent: 20,
  timeoutMs: 1_000,
  baseUrls: {},
  coingeckoApiKey: undefined,
  pinnedFile: undefined,
};

export type Answer = { usd?: Partial<Record<CoinName, string>>; fiat?: Record<string, string> | null } | Error;

/**
 * A provider whose next answer the test sets: an in-process stand-in for the refresher's logic
 * tests (the adapters themselves are tested over real HTTP in test/chains/rate-providers and
 * test/rates/market-mock.test.ts). `calls` counts the polls.
 */
export function scriptedProvider(id: RateProviderId, answer: Answer) {
  const p = {
    id,
    answer,
    calls: 0,
    async fetchRates(o: { now?: () => Date } = {}): Promise<ProviderSnapshot> {
      p.calls++;
      if (p.answer instanceof Error) throw p.answer;
      return {
        provider: id,
        fetchedAt: (o.now ?? (() => new Date()))(),
        usd: new Map(Object.entries(p.answer.usd ?? {})) as Map<CoinName, string>,
        fiat: p.answer.fiat === null ? null : new Map(Object.entries(p.answer.fiat ?? {})),
        skipped: [],
      };
    },
  };
  return p satisfies RateProvider;
}

export const failure = (id: RateProviderId, message = "GET api.example/ failed: ECONNREFUSED") => new RateProviderError(id, "network", message);
export const limited = (id: RateProviderId, retryAfterMs: number | null) => new RateLimitedError(id, retryAfterMs, "HTTP 429 for /: slow down");

/** Empties the shared rate tables and makes the next refresh due at `now`. */
export async function resetRates(db: Db, now = new Date(0)) {
  await db.execute(sql`delete from exchange_rates`);
  await db.execute(sql`delete from rate_provider_runs`);
  await makeRateRefreshDue(db, now);
}

export const at = (s: number) => new Date(Date.UTC(2030, 0, 1, 12, 0, s));
