import { describe, expect, it } from "vitest";
import { fiatValue, fromBaseUnits, quoteBaseUnits, toBaseUnits, unitsToDecimal } from "@/domain/amounts";

describe("toBaseUnits", () => {
  it.each([
    ["BITCOIN", "0.0015", 150000n],
    ["BITCOIN", 0.0015, 150000n],
    ["BITCOIN", "21000000", 2100000000000000n],
    ["BITCOIN", "0.00000001", 1n],
    ["BITCOIN", 1e-8, 1n],
    ["BITCOIN", "0", 0n],
    ["ETHEREUM", "1", 10n ** 18n],
    ["ETHEREUM", "0.000000000000000001", 1n],
    ["ETHEREUM", 0.1, 100000000000000000n],
    ["ETH_SHIBA_INU", "123456789012345.123456789012345678", 123456789012345123456789012345678n],
    ["ETH_TETHER", "19.99", 19990000n],
    ["ETH_CRONOS", "1.00000001", 100000001n],
    ["MONERO", "0.000000000001", 1n],
    ["TRON", "1.5", 1500000n],
  ] as const)("%s %s → %s", (coin, amount, units) => {
    expect(toBaseUnits(coin, amount)).toBe(units);
  });

  it("is exact beyond 2^53 (no float)", () => {
    expect(toBaseUnits("ETHEREUM", "9007199254740993.000000000000000001")).toBe(9007199254740993000000000000000001n);
    expect(toBaseUnits("ETHEREUM", "1000000000000000000000000")).toBe(10n ** 42n);
  });

  it("rejects more decimals than the coin has, negatives and garbage", () => {
    expect(() => toBaseUnits("BITCOIN", "0.000000001")).toThrow(/9 decimals; BITCOIN has at most 8/);
    expect(() => toBaseUnits("ETH_TETHER", 0.0000001)).toThrow(/at most 6/);
    expect(() => toBaseUnits("ETHEREUM", "0.0000000000000000001")).toThrow(/at most 18/);
    expect(() => toBaseUnits("BITCOIN", "-1")).toThrow(/negative/);
    expect(() => toBaseUnits("BITCOIN", "abc")).toThrow(/not a decimal/);
    expect(() => toBaseUnits("BITCOIN", Number.NaN)).toThrow(/finite/);
    expect(() => toBaseUnits("BITCOIN", Number.POSITIVE_INFINITY)).toThrow(/finite/);
  });
});

describe("fromBaseUnits", () => {
  it.each([
    ["BITCOIN", 150000n, "0.0015"],
    ["BITCOIN", 100000000n, "1"],
    ["BITCOIN", 0n, "0"],
    ["BITCOIN", 1n, "0.00000001"],
    ["ETHEREUM", 1n, "0.000000000000000001"],
    ["ETHEREUM", 1500000000000000000n, "1.5"],
    ["ETHEREUM", 2n ** 70n, "1180.591620717411303424"],
    ["ETH_TETHER", 19990000n, "19.99"],
  ] as const)("%s %s → %s", (coin, units, text) => {
    expect(fromBaseUnits(coin, units)).toBe(text);
  });

  it("round-trips with toBaseUnits, also for huge values", () => {
    for (const units of [1n, 10n ** 18n + 1n, 2n ** 64n + 12345n, 2n ** 200n]) {
      expect(toBaseUnits("ETHEREUM", fromBaseUnits("ETHEREUM", units))).toBe(units);
    }
    expect(unitsToDecimal(-150n, 2)).toBe("-1.5");
  });
});

describe("quoteBaseUnits", () => {
  it("divides exactly when it can", () => {
    expect(quoteBaseUnits("100", "50000", 8)).toBe(200000n); // 0.002 BTC
    expect(quoteBaseUnits("19.99", "1", 6)).toBe(19990000n); // USDT at 1
    expect(quoteBaseUnits("0", "50000", 8)).toBe(0n);
  });

  it("rounds UP to the next base unit", () => {
    // 10 / 30000 = 0.000333333… BTC → 33334 sat, not 33333
    expect(quoteBaseUnits("10", "30000", 8)).toBe(33334n);
    // 1 / 3 ETH → 333333333333333334 wei
    expect(quoteBaseUnits("1", "3", 18)).toBe(333333333333333334n);
    // never short: quoted × rate ≥ fiat
    const units = quoteBaseUnits("123.45", "67890.12", 8);
    expect(units * 6789012n >= 12345n * 10n ** 8n).toBe(true);
    expect((units - 1n) * 6789012n < 12345n * 10n ** 8n).toBe(true);
  });

  it("handles 18 decimals and huge values beyond 2^53 exactly", () => {
    // 1e12 USD of SHIB at 0.00001 USD each = 1e17 SHIB = 1e35 base units
    expect(quoteBaseUnits("1000000000000", "0.00001", 18)).toBe(10n ** 35n);
    expect(quoteBaseUnits("9007199254740993", "1", 18)).toBe(9007199254740993n * 10n ** 18n);
  });

  it("rejects a zero or negative rate and garbage", () => {
    expect(() => quoteBaseUnits("10", "0", 8)).toThrow(/positive/);
    expect(() => quoteBaseUnits("10", "-1", 8)).toThrow(/negative/);
    expect(() => quoteBaseUnits("ten", "1", 8)).toThrow(/not a decimal/);
    expect(() => quoteBaseUnits("1", "1", -1)).toThrow(/decimals/);
  });
});

describe("fiatValue", () => {
  it("rounds half-up to the minor units", () => {
    expect(fiatValue(200000n, "50000", 8, 2)).toBe("100.00");
    expect(fiatValue(33334n, "30000", 8, 2)).toBe("10.00"); // 10.0002
    expect(fiatValue(1n, "50000", 8, 2)).toBe("0.00"); // 0.0005 → 0.00
    expect(fiatValue(10n, "50000", 8, 2)).toBe("0.01"); // 0.005 → 0.01 (half-up)
    expect(fiatValue(9n, "50000", 8, 2)).toBe("0.00"); // 0.0045 → 0.00
    expect(fiatValue(150000n, "2.5", 8, 0)).toBe("0"); // 0.00375 JPY-style 0 minor units
    expect(fiatValue(100000000n, "153.5", 8, 0)).toBe("154");
    expect(fiatValue(1234567n, "1", 6, 3)).toBe("1.235"); // 3 minor units (e.g. KWD)
  });

  it("is exact for 18-decimal coins and values beyond 2^64", () => {
    expect(fiatValue(10n ** 18n, "3456.789", 18, 2)).toBe("3456.79");
    expect(fiatValue(2n ** 70n, "1", 18, 2)).toBe("1180.59");
    expect(fiatValue(10n ** 40n, "0.00001234", 18, 2)).toBe("123400000000000000.00");
  });
});
