import { expect, test, type APIRequestContext } from "@playwright/test";
import { adminAuth, apiAuth, createPayment, newBusiness, type Business } from "./helpers";
import { expectVerified, startReceiver } from "./webhook-receiver";

/**
 * Webhooks from the production server: a real receiver on 127.0.0.1 inside the test, a test
 * business pointing at it, payments driven through the /v1 simulator, and the server's own
 * embedded runner (every 250 ms) doing the delivering. Every body is verified with svix.
 */

async function simulate(request: APIRequestContext, b: Business, id: string, data: Record<string, unknown>) {
  const res = await request.post(`/v1/businesses/${b.businessId}/payments/${id}/simulate`, { headers: apiAuth(b), data });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()).data;
}

let receiver: Awaited<ReturnType<typeof startReceiver>>;
test.beforeEach(async () => {
  receiver = await startReceiver();
});
test.afterEach(async () => {
  await receiver.close();
});

test("a paid payment delivers CREATED → METHOD_SELECTED → PENDING → PROCESSING → COMPLETED, each signed", async ({ request }) => {
  const b = await newBusiness(request, { name: "Webhook shop", webhookUrl: receiver.url });
  const { id } = await createPayment(request, b, { currency: "USD", amount: 25, metadata: { orderId: "E2E-1" } });
  await simulate(request, b, id, { action: "select", coin: "BITCOIN" });
  expect((await simulate(request, b, id, { action: "pay" })).status).toBe("PENDING");
  expect((await simulate(request, b, id, { action: "confirm" })).status).toBe("COMPLETED");

  const sequence = ["PAYMENT_CREATED", "PAYMENT_METHOD_SELECTED", "PAYMENT_PENDING", "PAYMENT_PROCESSING", "PAYMENT_COMPLETED"];
  await expect
    .poll(() => receiver.forPayment(id).map((r) => r.event.EventType), { timeout: 10_000, intervals: [100] })
    .toEqual(sequence);

  const got = receiver.forPayment(id);
  for (const r of got) {
    expectVerified(b.webhookSecret, r);
    expect(r.event.ForPaymentEvents.BusinessId).toBe(b.businessId);
    expect(r.event.ForPaymentEvents.Metadata).toEqual({ orderId: "E2E-1" });
  }
  expect(new Set(got.map((r) => r.headers["hook-id"])).size).toBe(5);
  expect(got.map((r) => r.event.ForPaymentEvents.Status)).toEqual(["AWAITING_PAYMENT", "AWAITING_PAYMENT", "PENDING", "PROCESSING", "COMPLETED"]);
  const completed = got[4].event.ForPaymentEvents;
  expect(completed.PlatformCryptoCharge).toMatchObject({ CoinName: "BITCOIN", IsUnderpaid: false });
  expect(completed.PlatformCryptoCharge.Transaction.Network).toBe("BTC");

  // The operator's delivery log shows the five, each delivered on its first attempt.
  const log = await request.get(`/admin/v1/businesses/${b.businessId}/webhook-deliveries?paymentId=${id}`, { headers: adminAuth });
  expect(log.status()).toBe(200);
  const items = (await log.json()).data.items as any[];
  expect(items.map((d) => [d.eventType, d.status, d.attemptCount]).reverse()).toEqual(sequence.map((s) => [s, "succeeded", 1]));
  expect(items.map((d) => d.messageId).sort()).toEqual(got.map((r) => r.headers["hook-id"]).sort());

  // Redelivery from the admin API: the same message again, freshly signed.
  const last = items[0];
  const again = await request.post(`/admin/v1/businesses/${b.businessId}/webhook-deliveries/${last.deliveryId}/redeliver`, {
    headers: adminAuth,
  });
  expect(again.status()).toBe(200);
  expect((await again.json()).data).toMatchObject({ status: "succeeded", attemptCount: 2 });
  const copies = receiver.received.filter((r) => r.headers["hook-id"] === last.messageId);
  expect(copies).toHaveLength(2);
  expect(copies[1].body).toBe(copies[0].body);
  expectVerified(b.webhookSecret, copies[1]);
});

test("a customer paying on the checkout page: the receiver gets every event, each verified", async ({ page, request }) => {
  const b = await newBusiness(request, { name: "Checkout webhook shop", webhookUrl: receiver.url });
  const { id, url } = await createPayment(request, b, { currency: "EUR", amount: 42, name: "Poster" });

  await page.goto(url);
  await page.getByRole("button", { name: /^Bitcoin BTC/ }).click();
  await expect(page.getByTestId("deposit-address")).toBeVisible();
  const panel = page.getByTestId("test-mode-panel");
  await panel.getByRole("button", { name: /^Pay in full/ }).click();
  await expect(page.getByTestId("payment-status")).toHaveAttribute("data-status", "PENDING", { timeout: 10_000 });
  await panel.getByRole("button", { name: /^Add confirmations/ }).click();
  await expect(page.getByTestId("payment-status")).toHaveAttribute("data-status", "COMPLETED", { timeout: 10_000 });

  await expect
    .poll(() => receiver.forPayment(id).map((r) => r.event.EventType), { timeout: 10_000, intervals: [100] })
    .toEqual(["PAYMENT_CREATED", "PAYMENT_METHOD_SELECTED", "PAYMENT_PENDING", "PAYMENT_PROCESSING", "PAYMENT_COMPLETED"]);
  for (const r of receiver.forPayment(id)) expectVerified(b.webhookSecret, r);
  const completed = receiver.forPayment(id).at(-1)!.event.ForPaymentEvents;
  expect(completed.Status).toBe("COMPLETED");
  expect(completed.Customer.IpAddresses[0].Ip).toBeTruthy(); // captured on the checkout visit
});

test("a payment nobody pays delivers PAYMENT_EXPIRED", async ({ request }) => {
  const b = await newBusiness(request, { name: "Expiring shop", webhookUrl: receiver.url, paymentLifetimeSeconds: 5 });
  const { id } = await createPayment(request, b, { currency: "EUR", amount: 3 });
  await simulate(request, b, id, { action: "select", coin: "LITECOIN" });
  // 5 s of lifetime, then the runner's next pass expires it and delivers the event.
  await expect
    .poll(() => receiver.forPayment(id).map((r) => r.event.EventType), { timeout: 15_000, intervals: [250] })
    .toEqual(["PAYMENT_CREATED", "PAYMENT_METHOD_SELECTED", "PAYMENT_EXPIRED"]);
  const expired = receiver.forPayment(id)[2];
  expectVerified(b.webhookSecret, expired);
  expect(expired.event.ForPaymentEvents.Status).toBe("EXPIRED");
  expect(expired.event.ForPaymentEvents.Timeline.map((t: { PaymentStatus: string }) => t.PaymentStatus)).toEqual([
    "AWAITING_PAYMENT",
    "EXPIRED",
  ]);
});

test("notifyUrl overrides the business's webhook URL", async ({ request }) => {
  const other = await startReceiver();
  try {
    const b = await newBusiness(request, { name: "Override shop", webhookUrl: receiver.url });
    const { id } = await createPayment(request, b, { currency: "USD", amount: 4, notifyUrl: other.url });
    await expect.poll(() => other.forPayment(id).length, { timeout: 10_000, intervals: [100] }).toBe(1);
    expectVerified(b.webhookSecret, other.forPayment(id)[0]);
    expect(receiver.forPayment(id)).toHaveLength(0);
  } finally {
    await other.close();
  }
});
