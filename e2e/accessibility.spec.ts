import { randomUUID } from "node:crypto";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import type { CheckoutView } from "../lib/checkout/view";
import { marketMockControl } from "../test/rates/market-mock";
import { expectAccessible } from "./axe";
import { apiAuth, createPayment, newBusiness, type Business } from "./helpers";
import { e2eMarketMock, E2E_RATE_MAX_AGE_SECONDS } from "./market-mock-env";

/**
 * Every page the service serves passes axe-core's WCAG 2.1 A + AA audit with no serious or
 * critical violation (e2e/axe.ts): the home and 404 pages, the API reference, and the hosted
 * checkout in each state a customer can see. States are reached through the test-mode simulator
 * (/v1/…/simulate) and the page itself, as the checkout spec does. The scrollable tables of /docs
 * must also be reachable and scrollable from the keyboard.
 */

const status = (page: Page) => page.getByTestId("payment-status");
const bitcoin = (page: Page) => page.getByRole("button", { name: /^Bitcoin BTC/ });

async function simulate(request: APIRequestContext, b: Business, id: string, data: Record<string, unknown>) {
  const res = await request.post(`/v1/businesses/${b.businessId}/payments/${id}/simulate`, { headers: apiAuth(b), data });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()).data as { status: string };
}

/** Opens the checkout and waits until it shows `value` (and is hydrated: the live-update line or the outcome). */
async function openCheckout(page: Page, url: string, value: string) {
  await page.goto(url);
  await expect(status(page)).toHaveAttribute("data-status", value, { timeout: 20_000 });
  await page.waitForLoadState("networkidle");
}

test.describe("pages outside the checkout", () => {
  test("the home page", async ({ page }) => {
    await page.goto("/");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expectAccessible(page, "home");
  });

  test("the not-found pages: an unknown path and an unknown payment", async ({ page }) => {
    expect((await page.goto("/no-such-page"))?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
    await expectAccessible(page, "not-found");

    expect((await page.goto(`/pay/${randomUUID()}`))?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Payment not found" })).toBeVisible();
    await expectAccessible(page, "payment-not-found");
  });

  test("the API reference, on a desktop and on a phone", async ({ page }) => {
    test.setTimeout(180_000); // a long page: each audit takes a while
    await page.goto("/docs");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expectAccessible(page, "docs");

    // On a phone the tables and code samples scroll sideways: each must be reachable.
    await page.setViewportSize({ width: 375, height: 667 });
    await expectAccessible(page, "docs-phone");
  });

  test("the API reference's scrollable tables are reachable and scrollable by keyboard", async ({ page }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width: 375, height: 667 });
    await page.goto("/docs");
    const region = page.getByRole("region", { name: /^Parameters/ }).first();
    await expect(region).toBeVisible();
    const name = await region.getAttribute("aria-label");
    expect(name, "the scroll container has an accessible name").toBeTruthy();
    expect(await region.evaluate((el) => el.scrollWidth > el.clientWidth), "the table overflows a phone screen").toBe(true);

    // Tab from the start of the page until the table's container has the focus.
    await page.locator("body").focus();
    let reached = false;
    for (let i = 0; i < 600 && !reached; i++) {
      await page.keyboard.press("Tab");
      reached = await region.evaluate((el) => el === document.activeElement);
    }
    expect(reached, `Tab reaches the region "${name}"`).toBe(true);
    await expect(region).toBeFocused();

    // The focus is visible, and the arrow keys scroll the table.
    const outline = await region.evaluate((el) => getComputedStyle(el));
    expect(outline.outlineStyle, "a visible focus outline").not.toBe("none");
    expect(parseFloat(outline.outlineWidth)).toBeGreaterThan(0);
    expect(await region.evaluate((el) => el.scrollLeft)).toBe(0);
    await page.keyboard.press("ArrowRight");
    await expect.poll(() => region.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);

    // Every sideways-scrolling container on the page is a named, focusable region.
    const unreachable = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>("main *")]
        .filter((el) => el.scrollWidth > el.clientWidth && ["auto", "scroll"].includes(getComputedStyle(el).overflowX))
        .filter((el) => el.tabIndex < 0 || el.getAttribute("role") !== "region" || !el.getAttribute("aria-label"))
        .map((el) => el.outerHTML.slice(0, 120)),
    );
    expect(unreachable, "scrollable containers without tabIndex=0, role=region and aria-label").toEqual([]);
  });
});

test.describe("the checkout", () => {
  test("choosing a coin: the picker, the email form, its error, then the address, QR and quote", async ({ page, request }) => {
    test.setTimeout(120_000); // five audits
    const b = await newBusiness(request);
    const p = await createPayment(request, b, { currency: "USD", amount: 19.99, name: "Accessible mug" });
    await openCheckout(page, p.url, "AWAITING_PAYMENT");
    await expect(bitcoin(page)).toBeVisible();
    await expect(page.getByLabel(/Email for your receipt/)).toBeVisible();
    await expectAccessible(page, "checkout-choose-coin");

    await page.getByLabel(/Email for your receipt/).fill("not-an-email");
    await page.getByRole("button", { name: "Save email" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "valid email" })).toBeVisible();
    await expectAccessible(page, "checkout-email-invalid");

    await bitcoin(page).click();
    await expect(page.getByTestId("deposit-address")).toBeVisible();
    await expect(page.getByTestId("payment-qr")).toBeVisible();
    await expect(page.getByTestId("exchange-rate")).toBeVisible();
    await expectAccessible(page, "checkout-coin-chosen");

    // The other coins, under "Pay with a different coin", with the current one pressed.
    await page.getByText("Pay with a different coin").click();
    await expect(page.getByRole("button", { name: /^Bitcoin BTC/, pressed: true })).toBeVisible();
    await expectAccessible(page, "checkout-change-coin");

    // "Cancel payment" asks first.
    await page.getByRole("button", { name: "Cancel payment" }).click();
    await expect(page.getByText("Cancel this payment?")).toBeVisible();
    await expectAccessible(page, "checkout-cancel-confirm");
  });

  test("PENDING: paid, waiting for confirmations", async ({ page, request }) => {
    const b = await newBusiness(request);
    const p = await createPayment(request, b, { currency: "USD", amount: 40, name: "Desk lamp" });
    await simulate(request, b, p.id, { action: "select", coin: "BITCOIN" });
    expect((await simulate(request, b, p.id, { action: "pay" })).status).toBe("PENDING");
    await openCheckout(page, p.url, "PENDING");
    await expect(page.getByTestId("confirmations")).toHaveText("0 of 1");
    await expectAccessible(page, "checkout-pending");
  });

  test("UNDERPAID: part paid and confirmed, the rest due", async ({ page, request }) => {
    const b = await newBusiness(request);
    const p = await createPayment(request, b, { currency: "EUR", amount: 50, name: "Concert ticket" });
    await simulate(request, b, p.id, { action: "select", coin: "BITCOIN" });
    await simulate(request, b, p.id, { action: "pay", amount: 0.0001 });
    expect((await simulate(request, b, p.id, { action: "confirm" })).status).toBe("UNDERPAID");
    await openCheckout(page, p.url, "UNDERPAID");
    await expect(page.getByTestId("amount-due")).toBeVisible();
    await expectAccessible(page, "checkout-underpaid");
  });

  test("COMPLETED, with and without the return to the merchant", async ({ page, request, baseURL }) => {
    const b = await newBusiness(request);
    const p = await createPayment(request, b, { currency: "USD", amount: 19.99, name: "Blue T-shirt" });
    await simulate(request, b, p.id, { action: "select", coin: "BITCOIN" });
    await simulate(request, b, p.id, { action: "pay" });
    expect((await simulate(request, b, p.id, { action: "confirm" })).status).toBe("COMPLETED");
    await openCheckout(page, p.url, "COMPLETED");
    await expect(page.getByRole("heading", { name: "Payment complete" })).toBeVisible();
    await expectAccessible(page, "checkout-completed");

    // With a redirect URL the page says it returns the customer, and leaves after ~3 s: the
    // merchant answers 204 No Content, which cancels the navigation, so the checkout stays in
    // place for the whole audit.
    const merchant = `${baseURL}/?returned=stay`;
    await page.route((url) => url.searchParams.get("returned") === "stay", (route) => route.fulfill({ status: 204 }));
    const r = await createPayment(request, b, { currency: "USD", amount: 5, name: "Sticker", redirectUrl: merchant });
    await simulate(request, b, r.id, { action: "select", coin: "BITCOIN" });
    await simulate(request, b, r.id, { action: "pay" });
    await simulate(request, b, r.id, { action: "confirm" });
    await page.goto(r.url);
    await expect(page.getByText("Returning you to the merchant…")).toBeVisible();
    await expectAccessible(page, "checkout-completed-redirect");
    await page.unrouteAll({ behavior: "ignoreErrors" });
  });

  test("EXPIRED: the time to pay ran out", async ({ page, request }) => {
    const b = await newBusiness(request, { paymentLifetimeSeconds: 5 });
    const p = await createPayment(request, b, { currency: "USD", amount: 9.5, name: "Short-lived order" });
    await page.goto(p.url);
    await expect(status(page)).toHaveAttribute("data-status", "EXPIRED", { timeout: 20_000 });
    await expect(page.getByRole("heading", { name: "Payment expired" })).toBeVisible();
    await expectAccessible(page, "checkout-expired");
  });

  test("CANCELLED on the page, then a late transfer, with the link back to the merchant", async ({ page, request, baseURL }) => {
    const b = await newBusiness(request);
    const p = await createPayment(request, b, { currency: "USD", amount: 5, name: "Coffee beans", redirectUrl: `${baseURL}/` });
    await simulate(request, b, p.id, { action: "select", coin: "BITCOIN" });
    await openCheckout(page, p.url, "AWAITING_PAYMENT");
    await page.getByRole("button", { name: "Cancel payment" }).click();
    await page.getByRole("button", { name: "Yes, cancel payment" }).click();
    await expect(status(page)).toHaveAttribute("data-status", "CANCELLED");
    await expect(page.getByRole("heading", { name: "Payment cancelled" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Return to the merchant" })).toBeVisible();
    await expectAccessible(page, "checkout-cancelled");

    await simulate(request, b, p.id, { action: "pay" });
    await page.reload();
    await expect(page.getByRole("note")).toContainText("received after this payment closed");
    await expectAccessible(page, "checkout-cancelled-late");
  });

  test("FAILED: the transfers were dropped", async ({ page, request }) => {
    const b = await newBusiness(request);
    const p = await createPayment(request, b, { currency: "USD", amount: 40, name: "Desk lamp" });
    await simulate(request, b, p.id, { action: "select", coin: "BITCOIN" });
    await simulate(request, b, p.id, { action: "pay" });
    expect((await simulate(request, b, p.id, { action: "fail" })).status).toBe("FAILED");
    await openCheckout(page, p.url, "FAILED");
    await expect(page.getByRole("heading", { name: "Payment failed" })).toBeVisible();
    await expectAccessible(page, "checkout-failed");
  });

  test.describe("with stale market rates", () => {
    const mock = marketMockControl(e2eMarketMock().baseUrl);
    test.afterAll(async () => {
      await mock.reset(); // answering again, whatever a failed test left
    });

    test("coins temporarily unavailable", async ({ page, request }) => {
      test.setTimeout(120_000);
      const b = await newBusiness(request);
      const p = await createPayment(request, b, { currency: "USD", amount: 12, name: "Stale-rate scarf" });
      await mock.silence(true);
      try {
        await expect
          .poll(
            async () => {
              const res = await request.get(`/pay/${p.id}/state`);
              return ((await res.json()) as CheckoutView).coins.every((c) => !c.available);
            },
            { timeout: (E2E_RATE_MAX_AGE_SECONDS + 20) * 1000, intervals: [1000] },
          )
          .toBe(true);
        await page.goto(p.url);
        await expect(bitcoin(page)).toHaveAttribute("aria-disabled", "true");
        await expect(page.getByTestId("rates-unavailable")).toBeVisible();
        await expectAccessible(page, "checkout-coins-unavailable");

        // Choosing anyway: the server says why, in an alert.
        await bitcoin(page).click({ force: true });
        await expect(page.getByRole("alert").filter({ hasText: "can't be priced right now" })).toBeVisible();
        await expectAccessible(page, "checkout-coin-refused");
      } finally {
        await mock.reset();
      }
      // Leave the server quoting again for the specs that follow.
      await expect(bitcoin(page)).not.toHaveAttribute("aria-disabled", "true", { timeout: 30_000 });
    });
  });
});
