import { describe, expect, it } from "vitest";
import { InngestTestEngine } from "@inngest/test";
import { getDb } from "@/db/client";
import { simulate } from "@/lib/checkout/simulator";
import { cancelPayment } from "@/lib/checkout/cancel";
import { checkoutView } from "@/lib/checkout/view";
import { expirePayment } from "@/inngest/functions/expire-payment";
import { paymentStates } from "@/db/queries/payments-read";
import { createPayment, newBusiness } from "../helpers";

/*
 * Payments keep the default one-hour lifetime: with a shared PostgreSQL other test files expire
 * whatever is due within seconds. The function acts at the event's `expiresAt` (Inngest's clock),
 * so the mocked sleep stands for the hour.
 */

/** The sleep is mocked (it would otherwise never resolve in the engine); everything else is real. */
async function run(paymentId: string) {
  const db = await getDb();
  const { expiresAt } = (await paymentStates(db, [paymentId])).get(paymentId)!;
  const t = new InngestTestEngine({ function: expirePayment });
  return t.execute({
    events: [{ name: "payment/created", data: { paymentId, expiresAt: expiresAt.toISOString() } }],
    steps: [{ id: "wait-until-expiry", handler: () => undefined }],
  });
}

async function status(id: string) {
  return (await checkoutView(await getDb(), id))!.status;
}

describe("expire-payment (Inngest function)", () => {
  it("is triggered by payment/created and cancelled by payment/settled of the same payment", () => {
    expect(expirePayment.opts.triggers?.map((x) => x.event)).toEqual(["payment/created"]);
    expect(expirePayment.opts.cancelOn).toEqual([{ event: expect.objectContaining({ name: "payment/settled" }), match: "data.paymentId" }]);
  });

  it("sleeps until expiresAt, then expires a payment still awaiting", async () => {
    const b = await newBusiness();
    const { id } = await createPayment(b);
    const db = await getDb();
    const { expiresAt } = (await paymentStates(db, [id])).get(id)!;
    const { result, error, ctx } = await run(id);
    expect(error).toBeUndefined();
    expect(ctx.step.sleepUntil).toHaveBeenCalledWith("wait-until-expiry", expiresAt.toISOString());
    expect(result).toEqual({ paymentId: id, expired: true });
    expect(await status(id)).toBe("EXPIRED");
  });

  it("leaves a cancelled payment alone", async () => {
    const b = await newBusiness();
    const { id } = await createPayment(b);
    await cancelPayment(await getDb(), id);
    const { result, error } = await run(id);
    expect(error).toBeUndefined();
    expect(result).toEqual({ paymentId: id, expired: false });
    expect(await status(id)).toBe("CANCELLED");
  });

  it("leaves a paid payment alone", async () => {
    const db = await getDb();
    const b = await newBusiness();
    const { id } = await createPayment(b);
    await simulate(db, id, { action: "select", coin: "BITCOIN" });
    await simulate(db, id, { action: "pay" });
    expect(await status(id)).toBe("PENDING");
    const { result } = await run(id);
    expect(result).toEqual({ paymentId: id, expired: false });
    expect(await status(id)).toBe("PENDING");
  });
});
