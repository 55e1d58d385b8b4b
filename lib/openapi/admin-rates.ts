import { z } from "zod";
import type { ZodOpenApiPathsObject } from "zod-openapi";
import { COIN_NAMES } from "@/domain/coins";
import { adminErrors, envelopeOf, success } from "./components";

const dateTime = z.iso.datetime({ offset: true });
const decimal = z.string().regex(/^[0-9]+(\.[0-9]+)?$/);
const seconds = z.number().int().min(0);

const ProviderQuoteSchema = z
  .strictObject({
    provider: z.string(),
    value: decimal.meta({ description: "The provider's last good value, in the row's unit." }),
    fetchedAt: dateTime,
    ageSeconds: seconds,
    fresh: z.boolean().meta({ description: "Younger than `RATE_MAX_AGE_SECONDS`: quotes use it." }),
    rejected: z
      .strictObject({ value: decimal, at: dateTime, why: z.string() })
      .nullable()
      .meta({ description: "The provider's latest value when the refresher refused it (a jump beyond `RATE_MAX_JUMP_PERCENT`); the last good value stays, and ages." }),
  })
  .meta({ id: "ProviderRateQuote", description: "One market provider's stored value of a coin or a currency." });

const rowFields = {
  providers: z.array(ProviderQuoteSchema).meta({ description: "Every provider's stored value, fresh or not; empty when a table is the source." }),
  usable: z.boolean().meta({ description: "Whether a quote can use this value now (with `source` `static-table`: for test businesses only)." }),
  ageSeconds: seconds
    .nullable()
    .meta({ description: "Age of the oldest value used; when none is fresh, of the youngest stored one; null for a table (never stale) and USD." }),
  why: z.string().nullable().meta({
    description: "Null when usable; else why not, e.g. `no provider quotes it`, `older than 600 s`, `not in RATES_FILE`.",
    examples: ["older than 600 s"],
  }),
};

const CoinRateSchema = z
  .strictObject({
    key: z.enum(COIN_NAMES as [string, ...string[]]),
    usd: decimal.nullable().meta({ description: "USD per one whole coin: the median of the fresh providers' values, or the table's; null when not usable.", examples: ["65000"] }),
    ...rowFields,
  })
  .meta({ id: "CoinRate", description: "A coin's USD price as quotes use it now." });

const CurrencyRateSchema = z
  .strictObject({
    key: z.string().regex(/^[A-Z]{3}$/).meta({ description: "ISO 4217 code." }),
    perUsd: decimal.nullable().meta({
      description:
        "Units of the currency per one USD: the median of the fresh providers' values, or the inverse of the table's USD per unit (30 decimal places); `1` for USD; null when not usable.",
      examples: ["0.92"],
    }),
    ...rowFields,
  })
  .meta({ id: "CurrencyRate", description: "An accepted currency's rate against USD as quotes use it now." });

const ProviderRunSchema = z
  .strictObject({
    provider: z.string(),
    configured: z.boolean().meta({ description: "Named in `RATE_PROVIDERS`; else a provider asked before, whose stored values still count while fresh." }),
    lastAttemptAt: dateTime.nullable(),
    lastSuccessAt: dateTime.nullable(),
    lastError: z.string().nullable().meta({ description: "The last failure, kept after the provider recovers." }),
    lastErrorAt: dateTime.nullable(),
    backoffUntil: dateTime.nullable().meta({ description: "The provider rate-limited the service: it is not asked again before this." }),
  })
  .meta({ id: "RateProviderRun", description: "When the refresher last asked a market provider, and how that went." });

export const RatesReportSchema = z
  .strictObject({
    source: z.enum(["rates-file", "providers", "static-table"]).meta({
      description:
        "Where quotes take their rates from: `rates-file` (RATES_FILE, every business, never stale), `providers` (RATE_PROVIDERS: the median of the values younger than `maxAgeSeconds`), or `static-table` (neither is set: the built-in approximate table, for test businesses only; live businesses cannot quote).",
    }),
    usableFor: z.enum(["all businesses", "test businesses"]),
    pinnedFile: z.string().nullable().meta({ description: "RATES_FILE, when it is the source." }),
    asOf: z.string().nullable().meta({ description: "The table's `asOf`; null with providers." }),
    maxAgeSeconds: seconds.meta({ description: "RATE_MAX_AGE_SECONDS: older market values are not used." }),
    refreshSeconds: seconds.meta({ description: "RATE_REFRESH_SECONDS: how often the providers are asked." }),
    providers: z.array(ProviderRunSchema).meta({ description: "The configured providers, then any other one asked before; empty unless `source` is `providers`." }),
    coins: z.array(CoinRateSchema).meta({ description: "Every coin of the catalogue." }),
    currencies: z.array(CurrencyRateSchema).meta({ description: "Every currency a payment may be created in." }),
  })
  .meta({ id: "RatesReport", description: "The exchange rates quotes use now, and where they come from." });

export const ratePaths: ZodOpenApiPathsObject = {
  "/admin/v1/rates": {
    get: {
      tags: ["Admin"],
      security: [{ adminBearer: [] }],
      operationId: "adminRates",
      summary: "The exchange rates",
      description:
        "The rate source in force and, for every coin (USD per coin) and every accepted currency (units per USD), the value a quote would use now: with market providers, each provider's stored value, its age and any refused value, the median of the fresh ones, and why a coin or currency cannot be quoted (no provider quotes it, or every value is older than `RATE_MAX_AGE_SECONDS`); also each provider's last success, last error and backoff.",
      responses: {
        200: success("The rates.", envelopeOf(RatesReportSchema, "RatesReportEnvelope")),
        ...adminErrors(401),
      },
    },
  },
};
