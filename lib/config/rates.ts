import { z } from "zod";

/** The market APIs the service has an adapter for (lib/rates/providers). */
export const RATE_PROVIDER_IDS = ["kraken", "coinbase", "coingecko"] as const;
export type RateProviderId = (typeof RATE_PROVIDER_IDS)[number];

/**
 * Where quotes' exchange rates come from (lib/rates/quote.ts):
 * - RATES_FILE: the operator's pinned table, for every business, never stale;
 * - RATE_PROVIDERS: market APIs, fetched every RATE_REFRESH_SECONDS by one instance, stored,
 *   and refused for quotes once older than RATE_MAX_AGE_SECONDS;
 * - neither: test businesses quote from the built-in static table and live ones cannot quote.
 */
export type RatesConfig = {
  providers: RateProviderId[];
  refreshMs: number;
  maxAgeMs: number;
  /** A provider's value moving more than this against its last good one (still fresh) is refused. */
  maxJumpPercent: number;
  /** Budget of one HTTP call to a provider. */
  timeoutMs: number;
  /** Replacements of the providers' public hosts (a proxy, a local test server). */
  baseUrls: Partial<Record<RateProviderId, string>>;
  coingeckoApiKey: string | undefined;
  /** RATES_FILE, when set. */
  pinnedFile: string | undefined;
};

const blankIsUnset = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);
const seconds = (min: number, max: number, fallback: number) =>
  z.preprocess(blankIsUnset, z.coerce.number().int(`must be a whole number of seconds (${min} … ${max})`).min(min).max(max).default(fallback));
const baseUrl = z.preprocess(blankIsUnset, z.url({ protocol: /^https?$/, error: "must be an http(s) URL such as http://127.0.0.1:4100" }).optional());

export const RATES_ENV = {
  RATES_FILE: z.preprocess(blankIsUnset, z.string().optional()),
  RATE_PROVIDERS: z.preprocess(
    blankIsUnset,
    z
      .string()
      .transform((list, ctx) => {
        const names = [...new Set(list.split(",").map((s) => s.trim().toLowerCase()).filter(Boolean))];
        for (const n of names) {
          if (!(RATE_PROVIDER_IDS as readonly string[]).includes(n)) {
            ctx.addIssue({ code: "custom", message: `unknown provider "${n}"; known: ${RATE_PROVIDER_IDS.join(", ")}` });
          }
        }
        return names as RateProviderId[];
      })
      .optional(),
  ),
  RATE_REFRESH_SECONDS: seconds(5, 3600, 60),
  RATE_MAX_AGE_SECONDS: seconds(10, 86_400, 600),
  RATE_MAX_JUMP_PERCENT: z.preprocess(blankIsUnset, z.coerce.number().positive("must be a positive percentage such as 20").default(20)),
  RATE_PROVIDER_TIMEOUT_SECONDS: seconds(1, 60, 10),
  KRAKEN_BASE_URL: baseUrl,
  COINBASE_BASE_URL: baseUrl,
  COINGECKO_BASE_URL: baseUrl,
  COINGECKO_API_KEY: z.preprocess(blankIsUnset, z.string().optional()),
};

type RatesEnv = z.output<z.ZodObject<typeof RATES_ENV>>;

/** The rates settings, or the problems with them (added to the configuration's other problems). */
export function ratesConfigOf(e: RatesEnv): { config: RatesConfig; problems: string[] } {
  const problems: string[] = [];
  const providers = e.RATE_PROVIDERS ?? [];
  if (e.RATES_FILE && providers.length) {
    problems.push("RATES_FILE and RATE_PROVIDERS: set one — a pinned table is the rate source for every business, so providers would never be read");
  }
  if (e.RATE_MAX_AGE_SECONDS <= e.RATE_REFRESH_SECONDS) {
    problems.push(
      `RATE_MAX_AGE_SECONDS (${e.RATE_MAX_AGE_SECONDS}) must be longer than RATE_REFRESH_SECONDS (${e.RATE_REFRESH_SECONDS}), or every rate would go stale before the next fetch`,
    );
  }
  return {
    problems,
    config: {
      providers,
      refreshMs: e.RATE_REFRESH_SECONDS * 1000,
      maxAgeMs: e.RATE_MAX_AGE_SECONDS * 1000,
      maxJumpPercent: e.RATE_MAX_JUMP_PERCENT,
      timeoutMs: e.RATE_PROVIDER_TIMEOUT_SECONDS * 1000,
      baseUrls: Object.fromEntries(
        ([["kraken", e.KRAKEN_BASE_URL], ["coinbase", e.COINBASE_BASE_URL], ["coingecko", e.COINGECKO_BASE_URL]] as const).filter(([, u]) => u),
      ),
      coingeckoApiKey: e.COINGECKO_API_KEY,
      pinnedFile: e.RATES_FILE,
    },
  };
}

/** One line for the start-up log: where quotes' rates come from. */
export function describeRateSource(r: RatesConfig): string {
  if (r.pinnedFile) return `Exchange rates: pinned table ${r.pinnedFile} (RATES_FILE), for every business`;
  if (r.providers.length) {
    return `Exchange rates: ${r.providers.join(", ")}, fetched every ${r.refreshMs / 1000} s, refused for quotes after ${r.maxAgeMs / 1000} s`;
  }
  return "Exchange rates: built-in static table for test businesses; live businesses cannot quote until RATE_PROVIDERS or RATES_FILE is set";
}
