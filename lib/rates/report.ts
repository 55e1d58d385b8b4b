import type { Db } from "@/db/client";
import { allRates, providerRuns } from "@/db/queries/rates";
import type { ExchangeRateRow, RateProviderRunRow } from "@/db/schema";
import { COIN_NAMES, type CoinName } from "@/domain/coins";
import { DEFAULT_RATE_TABLE } from "@/lib/rates/default-rates";
import { Dec, inverse } from "@/lib/rates/providers/decimal";
import { medianDecimal } from "@/lib/rates/snapshot-source";
import { loadRateTable, type RateTable } from "@/lib/rates/rate-source";
import { config } from "@/lib/config";
import type { RatesConfig } from "@/lib/config/rates";
import { isPayableCurrency } from "@/domain/currencies";

/*
 * The operator's view of the exchange rates (`GET /admin/v1/rates`, `npm run admin -- rates`):
 * which source quotes use (lib/rates/quote.ts decides the same way), each market
 * provider's last success and error, and for every coin and every accepted currency the value
 * a quote would use now, from which providers, how old, and why not when it cannot be used.
 *
 * Units: a coin's `usd` is USD per one whole coin; a currency's `perUsd` is units of the
 * currency per one USD (the providers' own convention, so a row's value and its providers'
 * values compare directly). A table (RATES_FILE, the built-in one) lists USD per unit of a
 * currency: its `perUsd` is the inverse, to 30 decimal places.
 */

export type RatesSource = "rates-file" | "providers" | "static-table";

/** One provider's stored value of a coin or a currency. */
export type ProviderQuote = {
  provider: string;
  value: string;
  fetchedAt: string;
  ageSeconds: number;
  /** Younger than RATE_MAX_AGE_SECONDS: a quote may use it. */
  fresh: boolean;
  /** The provider's latest value, refused by the refresher (a jump), kept beside the last good one. */
  rejected: { value: string; at: string; why: string } | null;
};

type RateRow = {
  providers: ProviderQuote[];
  usable: boolean;
  /** The oldest value used; when none is usable, the youngest stored one; null for a table. */
  ageSeconds: number | null;
  /** Null when usable; else why not. */
  why: string | null;
};
export type CoinRateRow = { key: CoinName; /** USD per one whole coin. */ usd: string | null } & RateRow;
export type CurrencyRateRow = { key: string; /** Units of the currency per one USD. */ perUsd: string | null } & RateRow;

export type ProviderRunReport = {
  provider: string;
  /** Named in RATE_PROVIDERS (else a provider asked before, whose stored values still count while fresh). */
  configured: boolean;
  lastAttemptAt: string | null;
  lastSuccessAt: string | null;
  lastError: string | null;
  lastErrorAt: string | null;
  backoffUntil: string | null;
};

export type RatesReport = {
  source: RatesSource;
  /** Which businesses can quote from the source: the built-in table serves test businesses only. */
  usableFor: "all businesses" | "test businesses";
  /** RATES_FILE, when it is the source. */
  pinnedFile: string | null;
  /** The table's `asOf` (RATES_FILE or the built-in table); null with providers. */
  asOf: string | null;
  maxAgeSeconds: number;
  refreshSeconds: number;
  /** The market providers (empty unless `source` is "providers"). */
  providers: ProviderRunReport[];
  coins: CoinRateRow[];
  currencies: CurrencyRateRow[];
};

/** What the report is made of: the stored rows, and RATES_FILE's table when that is the source. */
export type RatesReportInput = {
  rows: readonly ExchangeRateRow[];
  runs: readonly RateProviderRunRow[];
  pinned: RateTable | null;
};

export function rateSourceOf(cfg: RatesConfig): RatesSource {
  if (cfg.pinnedFile) return "rates-file";
  return cfg.providers.length > 0 ? "providers" : "static-table";
}

const iso = (d: Date | null) => d?.toISOString() ?? null;
const ageSeconds = (now: Date, at: Date) => Math.max(0, Math.floor((now.getTime() - at.getTime()) / 1000));

function quoteOf(r: ExchangeRateRow, now: Date, maxAgeMs: number): ProviderQuote {
  return {
    provider: r.provider,
    value: r.value,
    fetchedAt: r.fetchedAt.toISOString(),
    ageSeconds: ageSeconds(now, r.fetchedAt),
    // The same test as quote-rates.ts: a value exactly max-age old is still used.
    fresh: now.getTime() - r.fetchedAt.getTime() <= maxAgeMs,
    rejected:
      r.rejectedValue !== null && r.rejectedAt !== null ? { value: r.rejectedValue, at: r.rejectedAt.toISOString(), why: r.rejectedWhy ?? "" } : null,
  };
}

/** A key's market value: the median of the fresh providers' values, as a quote takes it. */
function marketRow(rows: readonly ExchangeRateRow[], now: Date, maxAgeMs: number): { value: string | null } & RateRow {
  const providers = rows.map((r) => quoteOf(r, now, maxAgeMs)).sort((a, b) => a.provider.localeCompare(b.provider));
  const fresh = providers.filter((p) => p.fresh);
  if (fresh.length > 0) {
    return { value: medianDecimal(fresh.map((p) => p.value)), providers, usable: true, ageSeconds: Math.max(...fresh.map((p) => p.ageSeconds)), why: null };
  }
  if (providers.length === 0) return { value: null, providers, usable: false, ageSeconds: null, why: "no provider quotes it" };
  const youngest = Math.min(...providers.map((p) => p.ageSeconds));
  return { value: null, providers, usable: false, ageSeconds: youngest, why: `older than ${maxAgeMs / 1000} s` };
}

/** The report from rows and configuration, without the database or the clock: see ratesReport. */
export function ratesReportOf(input: RatesReportInput, now: Date, cfg: RatesConfig): RatesReport {
  const source = rateSourceOf(cfg);
  const table = source === "rates-file" ? input.pinned : source === "static-table" ? DEFAULT_RATE_TABLE : null;
  if (source === "rates-file" && !table) throw new Error("ratesReportOf: RATES_FILE is the source but its table was not given");
  // The currencies a payment may be created in: acceptedCurrencies() of quote-rates.ts, for `cfg`.
  const currencyKeys = Object.keys((table ?? DEFAULT_RATE_TABLE).currencies).filter(isPayableCurrency).sort();
  const head = {
    source,
    usableFor: source === "static-table" ? ("test businesses" as const) : ("all businesses" as const),
    pinnedFile: source === "rates-file" ? cfg.pinnedFile! : null,
    asOf: table?.asOf ?? null,
    maxAgeSeconds: cfg.maxAgeMs / 1000,
    refreshSeconds: cfg.refreshMs / 1000,
  };

  if (table) {
    const missing = source === "rates-file" ? "not in RATES_FILE" : "not in the built-in table";
    const fixed = (value: string | null) => ({ providers: [], usable: value !== null, ageSeconds: null, why: value === null ? missing : null });
    return {
      ...head,
      providers: [],
      coins: COIN_NAMES.map((key) => {
        const usd = table.coins[key] ?? null;
        return { key, usd, ...fixed(usd) };
      }),
      currencies: currencyKeys.map((key) => {
        const perUsd = key === "USD" ? "1" : inverse(new Dec(table.currencies[key]));
        return { key, perUsd, ...fixed(perUsd) };
      }),
    };
  }

  const byKey = new Map<string, ExchangeRateRow[]>();
  for (const r of input.rows) {
    const k = `${r.kind}:${r.key}`;
    byKey.set(k, [...(byKey.get(k) ?? []), r]);
  }
  const runs = new Map(input.runs.map((r) => [r.provider, r]));
  const names = [...cfg.providers, ...[...runs.keys()].filter((p) => !(cfg.providers as string[]).includes(p)).sort()];
  return {
    ...head,
    providers: names.map((provider) => {
      const r = runs.get(provider);
      return {
        provider,
        configured: (cfg.providers as string[]).includes(provider),
        lastAttemptAt: iso(r?.lastAttemptAt ?? null),
        lastSuccessAt: iso(r?.lastSuccessAt ?? null),
        lastError: r?.lastError ?? null,
        lastErrorAt: iso(r?.lastErrorAt ?? null),
        backoffUntil: iso(r?.backoffUntil ?? null),
      };
    }),
    coins: COIN_NAMES.map((key) => {
      const { value, ...rest } = marketRow(byKey.get(`coin:${key}`) ?? [], now, cfg.maxAgeMs);
      return { key, usd: value, ...rest };
    }),
    currencies: currencyKeys.map((key) => {
      if (key === "USD") return { key, perUsd: "1", providers: [], usable: true, ageSeconds: null, why: null };
      const { value, ...rest } = marketRow(byKey.get(`fiat:${key}`) ?? [], now, cfg.maxAgeMs);
      return { key, perUsd: value, ...rest };
    }),
  };
}

/**
 * The rates as the admin API and `npm run admin -- rates` show them, now: see the note at the
 * top. Reads the stored market rates only when providers are the source.
 */
export async function ratesReport(db: Db, now = new Date(), cfg: RatesConfig = config().rates): Promise<RatesReport> {
  const source = rateSourceOf(cfg);
  const rows = source === "providers" ? await allRates(db) : [];
  const runs = source === "providers" ? await providerRuns(db) : [];
  const pinned = source === "rates-file" ? loadRateTable({ RATES_FILE: cfg.pinnedFile }) : null;
  return ratesReportOf({ rows, runs, pinned }, now, cfg);
}
