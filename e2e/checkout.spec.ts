import { randomUUID } from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import type { CheckoutView } from "../lib/checkout/view";
import { createPayment, fetchPayment, newBusiness, setNote, snap } from "./helpers";

/**
 * The hosted checkout page as a customer uses it: choosing a coin, paying on the simulated
 * chain through the test-mode panel, live status updates, redirect, cancel, expiry, phone
 * layout, the 404 page, and that nothing internal reaches the browser.
 */

test.use({ permissions: ["clipboard-read", "clipboard-write"] });

const status = (page: Page) => page.getByTestId("payment-status");
const panel = (page: Page) => page.getByTestId("test-mode-panel");

async function expectStatus(page: Page, value: string, timeout = 10_000) {
  await expect(status(page)).toHaveAttribute("data-status", value, { timeout });
}

async function chooseBitcoin(page: Page) {
  await page.getByRole("button", { name: /^Bitcoin BTC/ }).click();
  await expect(page.getByTestId("deposit-address")).toBeVisible();
}

async function simulate(page: Page, action: "Pay in full" | "Add confirmations" | "Fail — drop the transfers") {
  await panel(page).getByRole("button", { name: new RegExp(`^${action}`) }).click();
}

async function payPart(page: Page, amount: string) {
  await panel(page).getByLabel(/^Amount in/).fill(amount);
  await panel(page).getByRole("button", { name: "Pay part" }).click();
}

async function state(page: Page, id: string): Promise<CheckoutView> {
  const res = await page.request.get(`/pay/${id}/state`);
  expect(res.status()).toBe(200);
  expect(res.headers()["cache-control"]).toContain("no-store");
  return (await res.json()) as CheckoutView;
}

async function expectNoHorizontalScroll(page: Page) {
  const { scroll, client } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }));
  expect(scroll, "the page must not scroll sideways").toBeLessThanOrEqual(client);
}

test("pay in full with Bitcoin, confirm, complete and return to the merchant", async ({ page, request, baseURL }) => {
  const b = await newBusiness(request);
  const p = await createPayment(request, b, {
    currency: "USD",
    amount: 19.99,
    name: "Blue T-shirt",
    redirectUrl: `${baseURL}/?returned=1`,
  });

  await page.goto(p.url);
  await expect(page.getByRole("heading", { level: 1, name: "Blue T-shirt" })).toBeVisible();
  await expect(page.getByTestId("fiat-amount")).toContainText("$19.99");
  await expect(page.getByTestId("fiat-amount")).toContainText("USD");
  await expect(page.getByTestId("countdown")).toContainText(/Expires in \d+:\d\d/);
  await expect(panel(page)).toContainText("Test mode — simulated chain");
  await expectStatus(page, "AWAITING_PAYMENT");
  await snap(page, "pay-in-full", "choose-coin");
  const visited = await fetchPayment(request, b, p.id);
  expect(visited.customer.ipAddresses?.[0]?.ip, "the first visit records the customer's IP").toMatch(/[0-9a-f:.]+/);

  await chooseBitcoin(page);
  const view = await state(page, p.id);
  expect(view.charge?.coin).toBe("BITCOIN");
  await expect(page.getByTestId("coin-amount")).toContainText(`${view.charge!.amount} BTC`);
  await expect(page.getByTestId("exchange-rate")).toHaveText(/^1 BTC = [\d,]+\.\d\d USD$/);
  await expect(page.getByTestId("deposit-address")).toHaveText(view.charge!.address);
  await expect(page.getByTestId("payment-qr")).toBeVisible();
  await expect(page.getByRole("link", { name: "Open in wallet" })).toHaveAttribute("href", view.charge!.uri);

  await page.getByRole("button", { name: /^Copy address/ }).click();
  await expect(page.getByRole("button", { name: /^Copied address/ })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(view.charge!.address);
  await page.getByRole("button", { name: /^Copy amount/ }).click();
  await expect(page.getByRole("button", { name: /^Copied amount/ })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(view.charge!.amount);
  await snap(page, "pay-in-full", "awaiting-payment");

  await simulate(page, "Pay in full");
  await expectStatus(page, "PENDING");
  await expect(status(page)).toContainText("0 of 1 confirmation");
  await expect(page.getByTestId("confirmations")).toHaveText("0 of 1");
  await snap(page, "pay-in-full", "pending");

  await simulate(page, "Add confirmations");
  await expectStatus(page, "COMPLETED");
  await expect(page.getByRole("heading", { name: "Payment complete" })).toBeVisible();
  await expect(page.getByText("Returning you to the merchant…")).toBeVisible();
  await snap(page, "pay-in-full", "completed");

  await page.waitForURL(/\/\?returned=1$/, { timeout: 10_000 });
  expect((await fetchPayment(request, b, p.id)).status).toBe("COMPLETED");
});

test("underpaid, then topped up to completion", async ({ page, request }) => {
  const b = await newBusiness(request);
  const p = await createPayment(request, b, { currency: "EUR", amount: 50, name: "Concert ticket" });
  await page.goto(p.url);
  await chooseBitcoin(page);
  const quoted = (await state(page, p.id)).charge!.amount;

  await payPart(page, "0.0001");
  await expectStatus(page, "PENDING");
  await simulate(page, "Add confirmations");
  await expectStatus(page, "UNDERPAID");
  const due = (await state(page, p.id)).charge!.due;
  expect(Number(due)).toBeCloseTo(Number(quoted) - 0.0001, 8);
  await expect(status(page)).toContainText(`${due} BTC is still due`);
  await expect(page.getByTestId("amount-due")).toHaveText(`${due} BTC`);
  await expect(page.getByTestId("coin-amount")).toContainText(`${due} BTC`);
  await expect(page.getByTestId("countdown")).toBeVisible();
  await snap(page, "underpaid", "underpaid");

  await simulate(page, "Pay in full");
  await expectStatus(page, "PENDING");
  await simulate(page, "Add confirmations");
  await expectStatus(page, "COMPLETED");
  await expect(page.getByText("Returning you to the merchant…")).toHaveCount(0);
  await snap(page, "underpaid", "completed");
  await page.waitForTimeout(4000); // no redirectUrl: the customer stays on the page
  expect(new URL(page.url()).pathname).toBe(`/pay/${p.id}`);
});

test("the customer cancels after confirming", async ({ page, request }) => {
  const b = await newBusiness(request);
  const p = await createPayment(request, b, { currency: "USD", amount: 5, name: "Coffee beans" });
  await page.goto(p.url);
  // keyboard only: tab to the first coin and press Enter
  const bitcoin = page.getByRole("button", { name: /^Bitcoin BTC/ });
  for (let i = 0; i < 10 && !(await bitcoin.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press("Tab");
  await expect(bitcoin).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("deposit-address")).toBeVisible();

  await page.getByRole("button", { name: "Cancel payment" }).click();
  await expect(page.getByText("Cancel this payment?")).toBeVisible();
  await expect(page.getByRole("button", { name: "No, keep paying" })).toBeFocused();
  await snap(page, "cancel", "confirm-step");
  await page.getByRole("button", { name: "No, keep paying" }).click();
  await expect(page.getByText("Cancel this payment?")).toHaveCount(0);

  await page.getByRole("button", { name: "Cancel payment" }).click();
  await page.getByRole("button", { name: "Yes, cancel payment" }).click();
  await expectStatus(page, "CANCELLED");
  await expect(page.getByRole("heading", { name: "Payment cancelled" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Cancel payment" })).toHaveCount(0);
  await expect(page.getByTestId("countdown")).toHaveCount(0);
  await snap(page, "cancel", "cancelled");
  expect((await fetchPayment(request, b, p.id)).status).toBe("CANCELLED");
});

test("dropped transfers fail the payment", async ({ page, request }) => {
  const b = await newBusiness(request);
  const p = await createPayment(request, b, { currency: "USD", amount: 40, name: "Desk lamp" });
  await page.goto(p.url);
  await chooseBitcoin(page);
  await simulate(page, "Pay in full");
  await expectStatus(page, "PENDING");
  await expect(page.getByRole("button", { name: "Cancel payment" })).toHaveCount(0);
  await simulate(page, "Fail — drop the transfers");
  await expectStatus(page, "FAILED");
  await expect(page.getByRole("heading", { name: "Payment failed" })).toBeVisible();
  await snap(page, "fail", "failed");

  await simulate(page, "Add confirmations"); // nothing left to confirm: the error is shown inline
  await expect(panel(page).getByRole("alert")).toContainText("nothing to act on");
});

test("the email field validates and saves", async ({ page, request }) => {
  const b = await newBusiness(request);
  const p = await createPayment(request, b, { currency: "USD", amount: 12, name: "Book" });
  await page.goto(p.url);
  const email = page.getByLabel(/Email for your receipt/);
  await email.fill("not-an-email");
  await page.getByRole("button", { name: "Save email" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "valid email" })).toBeVisible();
  await expect(email).toHaveAttribute("aria-invalid", "true");
  await snap(page, "email", "invalid");
  await email.fill("buyer@example.com");
  await page.getByRole("button", { name: "Save email" }).click();
  await expect(page.getByLabel(/Email for your receipt/)).toHaveCount(0);
  expect((await fetchPayment(request, b, p.id)).customer.email).toBe("buyer@example.com");
});

test("the countdown runs out and the payment expires", async ({ page, request }) => {
  const b = await newBusiness(request, { paymentLifetimeSeconds: 5 });
  const p = await createPayment(request, b, { currency: "USD", amount: 9.5, name: "Short-lived order" });
  await page.goto(p.url);
  await expect(page.getByTestId("countdown")).toContainText(/Expires in 0:0[0-5]/);
  await snap(page, "expiry", "counting-down");
  await expectStatus(page, "EXPIRED", 20_000);
  await expect(page.getByRole("heading", { name: "Payment expired" })).toBeVisible();
  await expect(page.getByTestId("countdown")).toHaveCount(0);
  await expect(page.getByRole("button", { name: /^Bitcoin BTC/ })).toHaveCount(0);
  await snap(page, "expiry", "expired");
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 375, height: 667 }, isMobile: true, hasTouch: true });

  test("the main flow fits a 375 px screen without sideways scrolling", async ({ page, request }) => {
    const b = await newBusiness(request);
    const p = await createPayment(request, b, { currency: "USD", amount: 249.99, name: "Wireless headphones, noise cancelling" });
    await page.goto(p.url);
    await expectNoHorizontalScroll(page);
    await snap(page, "phone", "choose-coin");

    await chooseBitcoin(page);
    await expectNoHorizontalScroll(page);
    await snap(page, "phone", "awaiting-payment");

    await simulate(page, "Pay in full");
    await expectStatus(page, "PENDING");
    await expectNoHorizontalScroll(page);
    await snap(page, "phone", "pending");

    await simulate(page, "Add confirmations");
    await expectStatus(page, "COMPLETED");
    await expectNoHorizontalScroll(page);
    await snap(page, "phone", "completed");
  });
});

test("an unknown or malformed payment id gets the 404 page", async ({ page }) => {
  const unknown = await page.goto(`/pay/${randomUUID()}`);
  expect(unknown?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Payment not found" })).toBeVisible();
  await snap(page, "not-found", "unknown-id");

  const malformed = await page.goto("/pay/not-a-payment-id");
  expect(malformed?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Payment not found" })).toBeVisible();

  const polled = await page.request.get(`/pay/${randomUUID()}/state`);
  expect(polled.status()).toBe(404);
  expect((await polled.json()).status).toBe(404);
  expect((await page.request.get("/pay/nope/state")).status()).toBe(404);
});

test("nothing internal reaches the browser: no description, metadata, note or key", async ({ page, request }) => {
  const secret = randomUUID().slice(0, 8);
  const b = await newBusiness(request);
  const p = await createPayment(request, b, {
    currency: "USD",
    amount: 30,
    name: "Gift card",
    description: `internal-description-${secret}`,
    metadata: { [`metakey${secret}`]: `metavalue-${secret}` },
  });
  await setNote(request, b, p.id, `internal-note-${secret}`);
  const forbidden = [`internal-description-${secret}`, `metakey${secret}`, `metavalue-${secret}`, `internal-note-${secret}`, b.apiKey];

  const reads: Promise<string>[] = [];
  page.on("response", (res) => {
    if (new URL(res.url()).pathname.startsWith("/pay/")) reads.push(res.text().catch(() => ""));
  });

  const html = await (await request.get(p.url)).text();
  expect(html).toContain("Gift card");
  await page.goto(p.url);
  await chooseBitcoin(page); // a server action round trip: its payload must be clean too
  await simulate(page, "Pay in full");
  await expectStatus(page, "PENDING");
  const bodies = [...(await Promise.all(reads)), html, await page.content(), JSON.stringify(await state(page, p.id))];

  for (const body of bodies) {
    for (const word of forbidden) expect(body).not.toContain(word);
  }
  expect(bodies.length).toBeGreaterThan(3);
});
