import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { findCharge } from "@/db/queries/charges";
import { storeRates } from "@/db/queries/rates";
import { selectCoin } from "@/lib/checkout/select";
import { checkoutView } from "@/lib/checkout/view";
import { config } from "@/lib/config";
import type { RatesConfig } from "@/lib/config/rates";
import { createPayment, newBusiness } from "../helpers";
import { oneFileAtATime } from "../serial";
import { RATES, RATES_TESTS_LOCK, resetRates } from "../rates/fixtures";

oneFileAtATime(RATES_TESTS_LOCK);

/** The service's rates configuration, switched to market providers (10 minutes' max age) for this file. */
const saved: RatesConfig = { ...config().rates };
beforeAll(() => void Object.assign(config().rates, { ...RATES, maxAgeMs: 600_000 }));
afterAll(() => void Object.assign(config().rates, saved));

/** Every provider's BTC and EUR values, read `age` ms ago (nothing for the other coins). */
async function bitcoinOnly(age: number) {
  const fetchedAt = new Date(Date.now() - age);
  await storeRates(
    await getDb(),
    (["kraken", "coinbase", "coingecko"] as const).flatMap((provider) => [
      { provider, kind: "coin" as const, key: "BITCOIN", value: "65000", fetchedAt },
      { provider, kind: "fiat" as const, key: "EUR", value: "0.9", fetchedAt },
    ]),
  );
}

describe("checkout view and market rates", () => {
  beforeEach(async () => resetRates(await getDb()));

  it("marks the coins no fresh rate prices as unavailable before a coin is chosen", async () => {
    await bitcoinOnly(1_000);
    const b = await newBusiness();
    const { id } = await createPayment(b, { currency: "EUR", amount: 20, paymentMethods: { PLATFORM_CRYPTO: ["BITCOIN", "ETHEREUM"] } });
    const view = (await checkoutView(await getDb(), id))!;
    expect(view.coins.map((c) => [c.coin, c.available])).toEqual([
      ["BITCOIN", true],
      ["ETHEREUM", false],
    ]);
  });

  it("stale rates make every coin unavailable", async () => {
    await bitcoinOnly(11 * 60_000);
    const b = await newBusiness();
    const { id } = await createPayment(b, { currency: "USD", amount: 20, paymentMethods: { PLATFORM_CRYPTO: ["BITCOIN"] } });
    expect((await checkoutView(await getDb(), id))!.coins).toEqual([expect.objectContaining({ coin: "BITCOIN", available: false })]);
  });

  it("shows when the charge was quoted and when its rate was read", async () => {
    await bitcoinOnly(4_000);
    const b = await newBusiness();
    const { id } = await createPayment(b, { currency: "USD", amount: 20, paymentMethods: { PLATFORM_CRYPTO: ["BITCOIN"] } });
    await selectCoin(await getDb(), id, "BITCOIN");
    const charge = (await findCharge(await getDb(), id))!;
    const view = (await checkoutView(await getDb(), id))!;
    expect(view.charge).toMatchObject({ quotedAt: charge.updatedAt.toISOString(), rateAt: charge.rateFetchedAt!.toISOString() });
    expect(Date.parse(view.charge!.quotedAt) - Date.parse(view.charge!.rateAt!)).toBeGreaterThanOrEqual(3_000);
    // With a charge the picker offers a change of coin; availability is not computed then.
    expect(view.coins.every((c) => c.available)).toBe(true);
  });
});
