import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { findCharge } from "@/db/queries/charges";
import { quoteBaseUnits, toBaseUnits, unitsToDecimal } from "@/domain/amounts";
import { COIN_NAMES, COINS } from "@/domain/coins";
import { simulate } from "@/lib/checkout/simulator";
import { checkoutView } from "@/lib/checkout/view";
import { QUOTE_DECIMALS, quotedUnits, roundUpToShown } from "@/lib/rates/quote";
import { createPayment, newBusiness } from "../helpers";

/** A positive decimal with up to `scale` decimals, as text. */
const decimal = (maxDigits: bigint, scale: number) =>
  fc.bigInt({ min: 1n, max: maxDigits }).map((d) => unitsToDecimal(d, scale));

const decimalsOf = (text: string) => (text.includes(".") ? text.length - text.indexOf(".") - 1 : 0);

describe("quotes a customer can type", () => {
  // The embedded database starts with the first query: in the hook, whose time limit allows for a busy machine.
  beforeAll(async () => {
    await getDb();
  });

  it("round up to at most 8 decimals, and the shown amount is exactly the quoted units", () => {
    fc.assert(
      fc.property(decimal(10n ** 12n, 2), decimal(10n ** 16n, 8), fc.constantFrom(...COIN_NAMES), (fiat, rate, coin) => {
        const { decimals } = COINS[coin];
        const exact = quoteBaseUnits(fiat, rate, decimals);
        const units = quotedUnits(fiat, rate, decimals);
        const shown = unitsToDecimal(units, decimals);
        expect(decimalsOf(shown)).toBeLessThanOrEqual(Math.min(decimals, QUOTE_DECIMALS));
        expect(toBaseUnits(coin, shown)).toBe(units);
        // Never short, and never more than one shown step over the exact quote.
        const step = 10n ** BigInt(Math.max(0, decimals - QUOTE_DECIMALS));
        expect(units >= exact && units - exact < step).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it("leave coins of 8 decimals or fewer to their base unit", () => {
    expect(roundUpToShown(33_334n, 8)).toBe(33_334n);
    expect(roundUpToShown(1_000_001n, 6)).toBe(1_000_001n);
    expect(roundUpToShown(333_333_333_333_333_334n, 18)).toBe(333_333_340_000_000_000n);
    expect(roundUpToShown(10n ** 10n, 18)).toBe(10n ** 10n);
    expect(roundUpToShown(1n, 12)).toBe(10_000n); // Monero: 0.000000000001 → 0.00000001
    expect(roundUpToShown(0n, 18)).toBe(0n);
  });

  it("an Ether charge stores and checks the units its shown amount says; what is still due is typeable and completes it", async () => {
    const db = await getDb();
    const b = await newBusiness();
    const { id } = await createPayment(b, { currency: "USD", amount: 10 });
    await simulate(db, id, { action: "select", coin: "ETHEREUM" });
    const quoted = BigInt((await findCharge(db, id))!.quotedUnits);
    const view = (await checkoutView(db, id))!;
    expect(decimalsOf(view.charge!.amount)).toBeLessThanOrEqual(8);
    expect(toBaseUnits("ETHEREUM", view.charge!.amount)).toBe(quoted);
    expect(quoted % 10n ** 10n).toBe(0n);
    // The wallet link asks for the same units.
    expect(view.charge!.uri).toContain(`value=${quoted}`);

    // One wei arrives: the exact remainder has 18 decimals; the page asks for it rounded up to 8.
    let p = await simulate(db, id, { action: "pay", amount: 1e-18, confirmations: 12 });
    expect(p.status).toBe("UNDERPAID");
    const due = (await checkoutView(db, id))!.charge!.due;
    expect(decimalsOf(due)).toBeLessThanOrEqual(8);
    expect(toBaseUnits("ETHEREUM", due)).toBe(quoted);
    p = await simulate(db, id, { action: "pay", amount: Number(due), confirmations: 12 });
    expect(p.status).toBe("COMPLETED");
  });
});
