import type Big from "big.js";
import type { CoinName } from "@/domain/coins";
import { UnknownRateError, type Rate, type RateSource } from "./rate-source";
import { Dec } from "./providers/decimal";
import type { ProviderSnapshot } from "./providers/types";

/**
 * The exact median of decimal texts: the middle value, or the mean of the two middle ones
 * (times 0.5, exact at any scale, where a division would round at 30 places). A median
 * rather than a mean, so one provider with a wild or stale quote cannot move the price.
 */
export function medianDecimal(values: readonly string[]): string {
  if (values.length === 0) throw new RangeError("median of no values");
  const sorted = values.map((v) => new Dec(v)).sort((a, b) => a.cmp(b));
  const mid = sorted.length >> 1;
  const m: Big = sorted.length % 2 === 1 ? sorted[mid] : sorted[mid - 1].plus(sorted[mid]).times("0.5");
  return m.toFixed();
}

/** One leg of a rate: its median, the providers behind it, and their oldest read (null for USD→USD). */
export type Leg = { value: string; providers: string[]; at: Date | null };

function leg(snapshots: readonly ProviderSnapshot[], pick: (s: ProviderSnapshot) => string | undefined): Leg | null {
  const used = snapshots.flatMap((s) => {
    const v = pick(s);
    return v === undefined ? [] : [{ v, s }];
  });
  if (used.length === 0) return null;
  return {
    value: medianDecimal(used.map((u) => u.v)),
    providers: used.map((u) => u.s.provider),
    // The oldest contributing read, so a rate never looks fresher than its inputs.
    at: new Date(Math.min(...used.map((u) => u.s.fetchedAt.getTime()))),
  };
}

export type SnapshotRateSource = RateSource & {
  /** Median USD per coin, or null when no snapshot quotes it. */
  coinUsd(coin: CoinName): Leg | null;
  /** Median units of `currency` per USD ("1" for USD), or null when no snapshot has it. */
  fiatPerUsd(currency: string): Leg | null;
  /** Every currency some snapshot can price, USD included, sorted. */
  currencies(): string[];
};

/**
 * A RateSource over provider snapshots, pure: coin→USD is the median across the snapshots that
 * quote the coin, USD→currency the median across those with that fiat, and the rate their
 * product, exact in big.js (no division, so no rounding). The source names both legs'
 * providers, e.g. `median(coingecko,kraken)×EUR:median(coinbase,kraken)`.
 */
export function snapshotRateSource(snapshots: readonly ProviderSnapshot[]): SnapshotRateSource {
  const coinUsd = (coin: CoinName) => leg(snapshots, (s) => s.usd.get(coin));
  const fiatPerUsd = (currency: string): Leg | null => {
    const code = currency.toUpperCase();
    if (code === "USD") return { value: "1", providers: [], at: null };
    return leg(snapshots, (s) => s.fiat?.get(code));
  };
  return {
    coinUsd,
    fiatPerUsd,
    currencies() {
      const codes = new Set(["USD"]);
      for (const s of snapshots) for (const code of s.fiat?.keys() ?? []) codes.add(code);
      return [...codes].sort();
    },
    async rate(coin: CoinName, currency: string): Promise<Rate> {
      const code = currency.toUpperCase();
      const c = coinUsd(coin);
      if (!c) throw new UnknownRateError(`No provider snapshot quotes ${coin} in USD`);
      const f = fiatPerUsd(code);
      if (!f) throw new UnknownRateError(`No provider snapshot has a USD→${code} rate`);
      const source = `median(${c.providers.join(",")})` + (code === "USD" ? "" : `×${code}:median(${f.providers.join(",")})`);
      return {
        rate: new Dec(c.value).times(f.value).toFixed(),
        source,
        at: f.at !== null && f.at < c.at! ? f.at : c.at!,
        usdPerUnit: code === "USD" ? "1" : new Dec(1).div(f.value).toFixed(),
      };
    },
  };
}
