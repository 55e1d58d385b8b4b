import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { newUser, signIn } from "./dashboard";
import { adminAuth, apiAuth, createPayment, newBusiness, snap, type Business } from "./helpers";
import { expectVerified, startReceiver } from "./webhook-receiver";

/**
 * Several webhook endpoints in the production build: the owner adds a second endpoint in the
 * dashboard that takes only PAYMENT_COMPLETED, a test payment is paid through the simulator, and
 * each receiver gets exactly its events, every one verified with svix against its endpoint's
 * own secret. Then the owner disables the second endpoint, a payment completes meanwhile, and
 * re-enabling it with "resend what it missed" delivers that event.
 */

const FLOW = "webhook-endpoints";
const PAID = ["PAYMENT_CREATED", "PAYMENT_METHOD_SELECTED", "PAYMENT_PENDING", "PAYMENT_PROCESSING", "PAYMENT_COMPLETED"];

let primary: Awaited<ReturnType<typeof startReceiver>>;
let fulfilment: Awaited<ReturnType<typeof startReceiver>>;
test.beforeAll(async () => {
  [primary, fulfilment] = await Promise.all([startReceiver(), startReceiver()]);
});
test.afterAll(async () => {
  await Promise.all([primary.close(), fulfilment.close()]);
});

async function payInFull(request: APIRequestContext, b: Business, metadata: Record<string, string>) {
  const { id } = await createPayment(request, b, { currency: "USD", amount: 12, metadata });
  for (const action of [{ action: "select", coin: "BITCOIN" }, { action: "pay" }, { action: "confirm" }]) {
    const res = await request.post(`/v1/businesses/${b.businessId}/payments/${id}/simulate`, { headers: apiAuth(b), data: action });
    expect(res.status(), await res.text()).toBe(200);
  }
  return id;
}

async function revealSecret(page: Page): Promise<string> {
  await page.getByRole("button", { name: "Reveal signing secret" }).click();
  return (await page.getByTestId("endpoint-secret").textContent())!.trim();
}

test("a second endpoint with a filter gets only its events; both verify with svix; a disabled one recovers what it missed", async ({ page, request }) => {
  test.setTimeout(120_000);
  const b = await newBusiness(request, { name: "Two endpoints shop", webhookUrl: primary.url });
  const owner = await newUser(request, b.businessId, "owner");
  await signIn(page, owner);
  await page.waitForURL((url) => !url.pathname.startsWith("/dashboard/sign-in"));
  const developers = `/dashboard/${b.businessId}/developers`;
  await page.goto(developers);

  // The migrated-style primary endpoint is listed; add the second with a filter.
  await expect(page.getByTestId("endpoint-row")).toHaveCount(1);
  await page.getByText("Add an endpoint").click();
  const form = page.getByRole("form", { name: "Add an endpoint" });
  await form.getByLabel("URL").fill(fulfilment.url);
  await form.getByLabel("Description (optional)").fill("Fulfilment");
  await form.getByRole("checkbox", { name: /PAYMENT_COMPLETED/ }).check();
  await form.getByRole("button", { name: "Add endpoint" }).click();
  await expect(form.getByText("Endpoint added.")).toBeVisible();
  const secret = (await form.getByTestId("new-endpoint-secret").textContent())!.trim();
  expect(secret).toMatch(/^whsec_/);
  await expect(page.getByTestId("endpoint-row")).toHaveCount(2);
  await expect(page.getByTestId("endpoint-row").nth(1)).toContainText("Events: Payment completed");
  await snap(page, FLOW, "01-two-endpoints");

  // One test payment paid in full: five events at the primary, only COMPLETED at the second.
  const paid = await payInFull(request, b, { orderId: "E2E-ENDPOINTS-1" });
  await expect.poll(() => primary.forPayment(paid).map((r) => r.event.EventType), { timeout: 15_000 }).toEqual(PAID);
  await expect.poll(() => fulfilment.forPayment(paid).map((r) => r.event.EventType), { timeout: 15_000 }).toEqual(["PAYMENT_COMPLETED"]);
  for (const r of primary.forPayment(paid)) expectVerified(b.webhookSecret, r);
  const [completed] = fulfilment.forPayment(paid);
  expectVerified(secret, completed);
  expect(() => expectVerified(b.webhookSecret, completed)).toThrow();
  expect(completed.event.ForPaymentEvents.Metadata).toEqual({ orderId: "E2E-ENDPOINTS-1" });
  const primaryCompleted = primary.forPayment(paid)[4];
  expect(completed.body).toBe(primaryCompleted.body);
  expect(completed.headers["webhook-id"]).not.toBe(primaryCompleted.headers["webhook-id"]);

  // The endpoint's page: its own log, its secret; disable it.
  await page.getByTestId("endpoint-row").nth(1).getByRole("link").click();
  await expect(page.getByRole("heading", { name: fulfilment.url })).toBeVisible();
  expect(await revealSecret(page)).toBe(secret);
  await expect(page.getByTestId("delivery-row")).toHaveCount(1);
  await expect(page.getByTestId("delivery-row").first()).toHaveAttribute("data-event-type", "PAYMENT_COMPLETED");
  await page.getByRole("button", { name: "Disable endpoint" }).click();
  await expect(page.getByTestId("endpoint-state")).toContainText("Disabled by a team member");

  // A payment completes while it is disabled: logged for it, not sent.
  const missed = await payInFull(request, b, { orderId: "E2E-ENDPOINTS-2" });
  await expect.poll(() => primary.forPayment(missed).length, { timeout: 15_000 }).toBe(5);
  expect(fulfilment.forPayment(missed)).toHaveLength(0);
  await page.reload();
  await expect(page.getByTestId("delivery-row").first()).toHaveAttribute("data-status", "failed");

  // Enable it, resending what it missed since it was disabled (the form's default).
  await page.getByRole("button", { name: "Enable endpoint" }).click();
  await expect(page.getByText(/Endpoint enabled; 1 missed message is being resent/)).toBeVisible();
  await expect.poll(() => fulfilment.forPayment(missed).map((r) => r.event.EventType), { timeout: 15_000 }).toEqual(["PAYMENT_COMPLETED"]);
  expectVerified(secret, fulfilment.forPayment(missed)[0]);
  await snap(page, FLOW, "02-endpoint-recovered");

  // The admin API's log of that endpoint agrees.
  const endpoints = (await (await request.get(`/admin/v1/businesses/${b.businessId}/webhook-endpoints`, { headers: adminAuth })).json()).data;
  const log = await request.get(`/admin/v1/businesses/${b.businessId}/webhook-deliveries?endpointId=${endpoints[1].endpointId}`, { headers: adminAuth });
  const items = (await log.json()).data.items as { paymentId: string; status: string }[];
  expect(items.map((d) => [d.paymentId, d.status])).toEqual([
    [missed, "succeeded"],
    [paid, "succeeded"],
  ]);
});
