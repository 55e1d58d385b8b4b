import { describe, expect, it } from "vitest";
import { loadConfig } from "@/lib/config";

const load = (values: Record<string, string>) => loadConfig({ DATA_DIR: ":memory:", ...values } as unknown as NodeJS.ProcessEnv);

describe("rates configuration", () => {
  it("defaults: no provider, a minute between fetches, ten minutes of validity, 20 % jumps", () => {
    expect(load({}).rates).toEqual({
      providers: [],
      refreshMs: 60_000,
      maxAgeMs: 600_000,
      maxJumpPercent: 20,
      timeoutMs: 10_000,
      baseUrls: {},
      coingeckoApiKey: undefined,
      pinnedFile: undefined,
    });
  });

  it("reads the providers (any case, duplicates dropped), their hosts, the key and the limits", () => {
    const rates = load({
      RATE_PROVIDERS: " Kraken,coinbase,kraken , coingecko",
      KRAKEN_BASE_URL: "http://127.0.0.1:4100",
      COINGECKO_API_KEY: "CG-demo",
      RATE_REFRESH_SECONDS: "30",
      RATE_MAX_AGE_SECONDS: "300",
      RATE_MAX_JUMP_PERCENT: "12.5",
      RATE_PROVIDER_TIMEOUT_SECONDS: "4",
    }).rates;
    expect(rates).toMatchObject({
      providers: ["kraken", "coinbase", "coingecko"],
      baseUrls: { kraken: "http://127.0.0.1:4100" },
      coingeckoApiKey: "CG-demo",
      refreshMs: 30_000,
      maxAgeMs: 300_000,
      maxJumpPercent: 12.5,
      timeoutMs: 4_000,
    });
  });

  it("refuses an unknown provider, a pinned table with providers, and a validity no longer than the period", () => {
    expect(() => load({ RATE_PROVIDERS: "kraken,binance" })).toThrow(/RATE_PROVIDERS: unknown provider "binance"; known: kraken, coinbase, coingecko/);
    expect(() => load({ RATE_PROVIDERS: "kraken", RATES_FILE: "/etc/rates.json" })).toThrow(/RATES_FILE and RATE_PROVIDERS: set one/);
    expect(() => load({ RATE_REFRESH_SECONDS: "600", RATE_MAX_AGE_SECONDS: "600" })).toThrow(/RATE_MAX_AGE_SECONDS \(600\) must be longer than RATE_REFRESH_SECONDS \(600\)/);
    expect(() => load({ RATE_REFRESH_SECONDS: "1", RATE_MAX_JUMP_PERCENT: "-3", KRAKEN_BASE_URL: "ftp://x" })).toThrow(
      /RATE_REFRESH_SECONDS[\s\S]*RATE_MAX_JUMP_PERCENT: must be a positive percentage[\s\S]*KRAKEN_BASE_URL: must be an http\(s\) URL/,
    );
  });
});
