import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { COIN_NAMES } from "@/domain/coins";
import { DEFAULT_RATE_TABLE } from "@/lib/rates/default-rates";
import {
  StaticRateSource,
  UnknownRateError,
  loadRateTable,
  parseRateTable,
  tableRate,
  usdValue,
  type RateTable,
} from "@/lib/rates/rate-source";
import { isPayableCurrency } from "@/domain/currencies";

const TABLE: RateTable = {
  coins: { BITCOIN: "60000", ETHEREUM: "3000", ETH_SHIBA_INU: "0.00002", ETH_TETHER: "1" },
  currencies: { USD: "1", EUR: "1.2", JPY: "0.0064", KWD: "3.2" },
};

describe("StaticRateSource", () => {
  const at = new Date("2030-01-02T03:04:05Z");
  const source = new StaticRateSource(TABLE, { now: () => at });

  it("returns the USD price directly", async () => {
    expect(await source.rate("BITCOIN", "USD")).toEqual({ rate: "60000", source: "static-table", at, usdPerUnit: "1" });
  });

  it("derives other fiat through the USD cross rate", async () => {
    expect((await source.rate("BITCOIN", "EUR")).rate).toBe("50000");
    expect((await source.rate("BITCOIN", "EUR")).usdPerUnit).toBe("1.2");
    expect((await source.rate("ETHEREUM", "JPY")).rate).toBe("468750");
    expect((await source.rate("ETH_TETHER", "KWD")).rate).toBe("0.3125");
    expect((await source.rate("ETH_SHIBA_INU", "JPY")).rate).toBe("0.003125");
    // non-terminating: 30 decimal places, half-up
    expect((await source.rate("ETHEREUM", "EUR")).rate).toBe("2500");
    expect(tableRate({ coins: { BITCOIN: "1" }, currencies: { XYZ: "3" } }, "BITCOIN", "XYZ")).toBe(
      "0.333333333333333333333333333333",
    );
  });

  it("accepts lower-case currency codes", async () => {
    expect((await source.rate("BITCOIN", "eur")).rate).toBe("50000");
  });

  it("names an unknown currency or coin in a clear error", async () => {
    await expect(source.rate("BITCOIN", "CHF")).rejects.toThrow(UnknownRateError);
    await expect(source.rate("BITCOIN", "CHF")).rejects.toThrow(/No exchange rate for currency CHF.*EUR, JPY, KWD, USD.*RATES_FILE/);
    await expect(source.rate("MONERO", "USD")).rejects.toThrow(/No USD price for MONERO/);
  });

  it("usdValue converts to USD rounded half-up to cents", () => {
    expect(source.usdValue("100", "EUR")).toBe("120.00");
    expect(usdValue("1000", "JPY", TABLE)).toBe("6.40");
    expect(usdValue("0.78125", "USD", TABLE)).toBe("0.78");
    expect(usdValue("0.785", "USD", TABLE)).toBe("0.79");
    expect(usdValue("123456789012345678.9", "KWD", TABLE)).toBe("395061724839506172.48");
    expect(() => usdValue("1", "CHF", TABLE)).toThrow(/CHF/);
  });
});

describe("DEFAULT_RATE_TABLE", () => {
  it("prices every coin of the catalogue and only real ISO 4217 currencies", async () => {
    expect(Object.keys(DEFAULT_RATE_TABLE.coins).sort()).toEqual([...COIN_NAMES].sort());
    for (const code of Object.keys(DEFAULT_RATE_TABLE.currencies)) expect(isPayableCurrency(code), code).toBe(true);
    for (const code of ["USD", "EUR", "GBP", "CAD", "AUD", "JPY", "CHF", "CNY", "INR", "BRL", "MXN"]) {
      expect(DEFAULT_RATE_TABLE.currencies[code], code).toBeDefined();
    }
    expect(parseRateTable(DEFAULT_RATE_TABLE)).toEqual(DEFAULT_RATE_TABLE);
    const source = new StaticRateSource();
    for (const coin of COIN_NAMES) expect(Number((await source.rate(coin, "EUR")).rate)).toBeGreaterThan(0);
  });
});

describe("loadRateTable", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "rates-"));
  const write = (name: string, content: unknown) => {
    const file = path.join(dir, name);
    writeFileSync(file, typeof content === "string" ? content : JSON.stringify(content));
    return file;
  };

  it("uses the default table without RATES_FILE", () => {
    expect(loadRateTable({})).toBe(DEFAULT_RATE_TABLE);
  });

  it("replaces it with the RATES_FILE table, normalising numbers and adding USD", async () => {
    const file = write("ok.json", { asOf: "2030-01-01", coins: { BITCOIN: 70000, ETHEREUM: "3500.5" }, currencies: { EUR: 1.25 } });
    const table = loadRateTable({ RATES_FILE: file });
    expect(table).toEqual({ asOf: "2030-01-01", coins: { BITCOIN: "70000", ETHEREUM: "3500.5" }, currencies: { EUR: "1.25", USD: "1" } });
    const source = new StaticRateSource(table);
    expect(await source.rate("BITCOIN", "EUR")).toMatchObject({ rate: "56000", source: "static-table:2030-01-01" });
    await expect(source.rate("LITECOIN", "USD")).rejects.toThrow(/LITECOIN/);
  });

  it("refuses bad files with a message naming the problem", () => {
    expect(() => loadRateTable({ RATES_FILE: path.join(dir, "missing.json") })).toThrow(/cannot be read/);
    expect(() => loadRateTable({ RATES_FILE: write("bad.json", "{nope") })).toThrow(/not valid JSON/);
    expect(() => loadRateTable({ RATES_FILE: write("coin.json", { coins: { DOGE: "1" }, currencies: {} }) })).toThrow(
      /coins.*not a coin of the catalogue/,
    );
    expect(() => loadRateTable({ RATES_FILE: write("cur.json", { coins: {}, currencies: { EURO: "1" } }) })).toThrow(
      /ISO 4217/,
    );
    expect(() => loadRateTable({ RATES_FILE: write("neg.json", { coins: { BITCOIN: "-1" }, currencies: {} }) })).toThrow(
      /coins\.BITCOIN: must be a positive decimal/,
    );
    expect(() => loadRateTable({ RATES_FILE: write("usd.json", { coins: {}, currencies: { USD: "2" } }) })).toThrow(
      /USD must be 1/,
    );
    expect(() => loadRateTable({ RATES_FILE: write("extra.json", { coins: {}, currencies: {}, prices: {} }) })).toThrow(
      /Invalid RATES_FILE/,
    );
  });
});
