import { describe, expect, it } from "vitest";
import { createPayment, json, newBusiness, request } from "./helpers";

describe("smoke", () => {
  it("creates and fetches a payment", async () => {
    const b = await newBusiness();
    const { id, url } = await createPayment(b, { currency: "EUR", amount: 12.5 });
    expect(url).toBe(`http://pay.test/pay/${id}`);
    const res = await request("GET", `/v1/businesses/${b.businessId}/payments/${id}`, { key: b.apiKey });
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body.data.prePaymentAmount).toBe(12.5);
  });
});
