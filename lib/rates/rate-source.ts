import { readFileSync } from "node:fs";
import Big from "big.js";
import { z } from "zod";
import { isPayableCurrency } from "@/domain/currencies";
import { COIN_NAMES, type CoinName } from "@/domain/coins";
import { DEFAULT_RATE_TABLE, type RateTable } from "./default-rates";

export type { RateTable } from "./default-rates";

export type Rate = {
  /** Decimal string: units of the currency per one whole coin. */
  rate: string;
  /** Where the rate came from (shown to operators, stored with the charge). */
  source: string;
  /** When the rate was read (the oldest of its inputs). */
  at: Date;
  /** Decimal string: USD per one unit of the currency, read with the rate (settlement's netAmountUsd uses it). */
  usdPerUnit: string;
};

/** Anything that can price a coin in a fiat currency (a static table today, a price feed later). */
export interface RateSource {
  rate(coin: CoinName, currency: string): Promise<Rate>;
}

export class UnknownRateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UnknownRateError";
  }
}

/**
 * Cross rates need a division; this private big.js constructor does it to 30 decimal places
 * (half-up) without touching the shared Big settings. The quote itself is rounded up to a
 * whole base unit afterwards (amounts.quoteBaseUnits), so the merchant is never short.
 */
const Dec = Big();
Dec.DP = 30;
Dec.RM = Big.roundHalfUp;

function currencyUsd(table: RateTable, currency: string): Big {
  const code = currency.toUpperCase();
  const value = table.currencies[code];
  if (value === undefined) {
    throw new UnknownRateError(
      `No exchange rate for currency ${code}: the rate table knows ${Object.keys(table.currencies).sort().join(", ")}. ` +
        "Add it to the table given in RATES_FILE.",
    );
  }
  return new Dec(value);
}

function coinUsd(table: RateTable, coin: CoinName): Big {
  const value = table.coins[coin];
  if (value === undefined) throw new UnknownRateError(`No USD price for ${coin} in the rate table (RATES_FILE)`);
  return new Dec(value);
}

/** Price of one whole `coin` in `currency` from a USD-based table, as a plain decimal string. */
export function tableRate(table: RateTable, coin: CoinName, currency: string): string {
  return coinUsd(table, coin).div(currencyUsd(table, currency)).toFixed();
}

/** USD value of `amount` of `currency` (for netAmountUsd), rounded half-up to cents. */
export function usdValue(amount: string, currency: string, table: RateTable = DEFAULT_RATE_TABLE): string {
  return new Dec(amount).times(currencyUsd(table, currency)).toFixed(2, Big.roundHalfUp);
}

/** A RateSource over a fixed table (DEFAULT_RATE_TABLE or the RATES_FILE one). */
export class StaticRateSource implements RateSource {
  constructor(
    readonly table: RateTable = DEFAULT_RATE_TABLE,
    private readonly options: { source?: string; now?: () => Date } = {},
  ) {}

  async rate(coin: CoinName, currency: string): Promise<Rate> {
    return {
      rate: tableRate(this.table, coin, currency),
      source: this.options.source ?? `static-table${this.table.asOf ? `:${this.table.asOf}` : ""}`,
      at: (this.options.now ?? (() => new Date()))(),
      usdPerUnit: currencyUsd(this.table, currency).toFixed(),
    };
  }

  usdValue(amount: string, currency: string): string {
    return usdValue(amount, currency, this.table);
  }
}

const positiveDecimal = z.union([z.string(), z.number()]).transform((v, ctx) => {
  try {
    const d = new Big(v);
    if (d.gt(0)) return d.toFixed();
  } catch {
    // fall through
  }
  ctx.addIssue({ code: "custom", message: `must be a positive decimal number, got ${JSON.stringify(v)}` });
  return z.NEVER;
});

const COIN_SET: ReadonlySet<string> = new Set(COIN_NAMES);

const rateTableSchema = z
  .strictObject({
    asOf: z.string().optional(),
    coins: z.record(z.string(), positiveDecimal),
    currencies: z.record(z.string(), positiveDecimal),
  })
  .superRefine((table, ctx) => {
    for (const coin of Object.keys(table.coins)) {
      if (!COIN_SET.has(coin)) ctx.addIssue({ code: "custom", path: ["coins", coin], message: "is not a coin of the catalogue" });
    }
    for (const code of Object.keys(table.currencies)) {
      if (!isPayableCurrency(code)) {
        ctx.addIssue({ code: "custom", path: ["currencies", code], message: "is not an ISO 4217 currency with minor units" });
      }
    }
  });

/** Checks a parsed rate table (e.g. from JSON) and normalises its numbers to decimal strings. */
export function parseRateTable(input: unknown, origin = "rate table"): RateTable {
  const result = rateTableSchema.safeParse(input);
  if (!result.success) {
    const problems = result.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; ");
    throw new Error(`Invalid ${origin}: ${problems}`);
  }
  const table = result.data as RateTable;
  const usd = table.currencies.USD;
  if (usd !== undefined && !new Big(usd).eq(1)) throw new Error(`Invalid ${origin}: currencies.USD must be 1`);
  return { ...table, currencies: { ...table.currencies, USD: "1" } };
}

/**
 * The rate table in force: the JSON file named by `RATES_FILE` (same shape as
 * DEFAULT_RATE_TABLE, replacing it entirely), else the static default table.
 */
export function loadRateTable(env: Readonly<Record<string, string | undefined>> = process.env): RateTable {
  const file = env.RATES_FILE;
  if (!file) return DEFAULT_RATE_TABLE;
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    throw new Error(`RATES_FILE ${file} cannot be read: ${(e as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new Error(`RATES_FILE ${file} is not valid JSON: ${(e as Error).message}`);
  }
  return parseRateTable(json, `RATES_FILE ${file}`);
}
