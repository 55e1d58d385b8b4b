import { describe, expect, it } from "vitest";
import { formatCoinAmount, formatCount, formatMoney, formatRate, formatUsd, formatUtc } from "@/components/dashboard/format";
import {
  chainName,
  chainStateName,
  chargeTypeName,
  coinName,
  deliveryStateName,
  eventName,
  networkName,
  rateSourceName,
  statusName,
} from "@/components/dashboard/names";
import { CHARGE_TYPES, COIN_NAMES, COINS } from "@/domain/coins";
import { EVENT_TYPES } from "@/domain/events";
import { PAYMENT_STATUSES } from "@/domain/statuses";
import { WATCHED_CHAINS } from "@/domain/watched-chains";
import { DELIVERY_STATUSES } from "@/lib/webhooks/delivery-log";

/**
 * The dashboard's words for the API's values and its number formats: every value of every enum
 * it shows has a name of its own (not its identifier with the underscores taken out), the API's
 * value stays beside it, and amounts read as a person writes them.
 */

/** An identifier merely reformatted ("PLATFORM_CRYPTO" → "Platform crypto"), which is not a name. */
const reformatted = (api: string) => api.toLowerCase().replaceAll("_", " ");

describe("names of the API's values", () => {
  it("gives every status, event kind, delivery state, charge type, chain and chain state words of its own", () => {
    const all = [
      ...PAYMENT_STATUSES.map(statusName),
      ...EVENT_TYPES.map(eventName),
      eventName("WEBHOOK_TEST"),
      ...DELIVERY_STATUSES.map(deliveryStateName),
      ...CHARGE_TYPES.map(chargeTypeName),
      ...WATCHED_CHAINS.map(chainName),
      ...["healthy", "starting", "failing", "stalled", "not configured"].map(chainStateName),
      ...["providers", "rates-file", "static-table"].map(rateSourceName),
    ];
    for (const n of all) {
      expect(n.label, n.api).not.toMatch(/_/);
      // TRON and TON are the chains' own names; every other value has words other than itself.
      if (n.api !== "TRON" && n.api !== "TON") expect(n.label, n.api).not.toBe(n.api);
    }
    // Words a merchant reads, where the identifier alone would not say it.
    expect(statusName("PENDING")).toMatchObject({ label: "Confirming", api: "PENDING" });
    expect(statusName("AWAITING_PAYMENT").label).toBe("Awaiting payment");
    expect(chargeTypeName("PLATFORM_CRYPTO").label).not.toBe(reformatted("PLATFORM_CRYPTO"));
    expect(eventName("PAYMENT_METHOD_SELECTED").label).toBe("Coin chosen");
    expect(deliveryStateName("succeeded").label).toBe("Delivered");
    expect(chainName("BITCOIN_CASH").label).toBe("Bitcoin Cash");
    expect(chainStateName("not configured").label).toBe("Not set up");
  });

  it("names every coin by the catalogue's name, with its identifier and symbol", () => {
    for (const c of COIN_NAMES) expect(coinName(c)).toEqual({ label: COINS[c].name, api: c, hint: COINS[c].symbol });
    expect(coinName("TRX_USD_C").label).toBe("USD Coin (TRON)");
  });

  it("shows a value it does not know as it is", () => {
    expect(statusName("REFUNDED")).toEqual({ label: "REFUNDED", api: "REFUNDED" });
    expect(coinName("UNKNOWN")).toEqual({ label: "UNKNOWN", api: "UNKNOWN" });
    expect(eventName("PAYMENT_REFUNDED").label).toBe("PAYMENT_REFUNDED");
  });

  it("names Bitcoin Cash's network as its own, though the API writes BTC", () => {
    expect(networkName("BTC", "BITCOIN_CASH")).toEqual({ label: "Bitcoin Cash", api: "BTC" });
    expect(networkName("BTC", "BITCOIN")?.label).toBe("Bitcoin");
    expect(networkName("TRON", "TRX_TETHER")?.label).toBe("TRON");
    expect(networkName(null, "MONERO")?.label).toBe("Monero");
    expect(networkName(undefined)).toBeNull();
  });
});

describe("formats", () => {
  it("writes a rate with the currency's minor digits, and a small one with up to 8 decimals", () => {
    expect(formatRate(60185.18518518518, "USD")).toBe("$60,185.19");
    expect(formatRate(55000, "EUR")).toBe("€55,000.00");
    expect(formatRate(9_876_543.21, "JPY")).toBe("¥9,876,543");
    expect(formatRate(0.0000123456, "USD")).toBe("$0.00001235");
    expect(formatRate(0.5, "USD")).toBe("$0.50");
    expect(formatRate(12.5, null)).toBe("12.5");
  });

  it("writes money with its currency's digits and an unambiguous symbol", () => {
    expect(formatMoney(12.5, "EUR")).toBe("€12.50");
    expect(formatMoney(40, "USD")).toBe("$40.00");
    expect(formatMoney(5, "CAD")).toBe("CA$5.00");
    expect(formatMoney(500, "JPY")).toBe("¥500");
    expect(formatMoney("1234.5", "USD")).toBe("$1,234.50");
    expect(formatMoney(null, "USD")).toBe("—");
    expect(formatMoney(3, "XYZ1")).toBe("3 XYZ1");
    expect(formatUsd(0)).toBe("$0.00");
  });

  it("writes coin amounts with at most the coin's decimals, without trailing zeros, and its symbol", () => {
    expect(formatCoinAmount(0.0015, "BITCOIN")).toBe("0.0015 BTC");
    expect(formatCoinAmount(0.1, "ETHEREUM")).toBe("0.1 ETH");
    expect(formatCoinAmount(1250.5, "TRX_TETHER")).toBe("1,250.5 USDT");
    expect(formatCoinAmount(0.000000001, "SOLANA")).toBe("0.000000001 SOL");
    // More digits than the coin has (a float's tail) are cut to the coin's decimals.
    expect(formatCoinAmount(0.123456789, "BITCOIN")).toBe("0.12345679 BTC");
    expect(formatCoinAmount(1e-7, "ETHEREUM")).toBe("0.0000001 ETH");
    expect(formatCoinAmount(2, null)).toBe("2");
  });

  it("writes counts and instants", () => {
    expect(formatCount(1204)).toBe("1,204");
    expect(formatCount(100, true)).toBe("100+");
    expect(formatUtc("2026-01-31T14:02:31.123Z")).toBe("2026-01-31 14:02:31 UTC");
  });
});
