import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { expectAccessible } from "./axe";
import { adminAuth, apiAuth, createPayment, fetchPayment, newBusiness, snap, type Business } from "./helpers";
import { newUser, signIn } from "./dashboard";
import { WATCHED_CHAINS } from "@/domain/watched-chains";

/**
 * A business's overview as a merchant sees it: the day's and the month's completed volume, what
 * needs attention (underpaid, money after closing, dropped transfers, undelivered webhooks), the
 * newest payments, the chains and rates; the navigation marking where one is; payments as cards
 * on a phone; and the payments list and a payment's page following a status change made through
 * the API without a reload.
 */

async function simulate(request: APIRequestContext, b: Business, id: string, data: Record<string, unknown>) {
  const res = await request.post(`/v1/businesses/${b.businessId}/payments/${id}/simulate`, { headers: apiAuth(b), data });
  expect(res.status(), await res.text()).toBe(200);
}

/** A webhook endpoint that always answers 500: every delivery to it fails and is retried. */
async function failingEndpoint() {
  const server = http.createServer((req, res) => req.resume().on("end", () => res.writeHead(500).end("down for maintenance")));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

/** Whether the page scrolls sideways. */
const sideways = (page: Page) => page.evaluate(() => document.scrollingElement!.scrollWidth - document.scrollingElement!.clientWidth);

test("the overview shows the volume, what needs attention, recent payments and health, and marks the current section", async ({ page, request }) => {
  test.setTimeout(120_000);
  const endpoint = await failingEndpoint();
  try {
    const b = await newBusiness(request, { name: "Overview shop", webhookUrl: endpoint.url, paymentLifetimeSeconds: 5 });
    // Closed (expired) before its money came: recorded as late.
    const late = await createPayment(request, b, { currency: "USD", amount: 15, name: "Late scarf" });
    await simulate(request, b, late.id, { action: "select", coin: "BITCOIN" });
    const patched = await request.patch(`/admin/v1/businesses/${b.businessId}`, { headers: adminAuth, data: { paymentLifetimeSeconds: 3600 } });
    expect(patched.status(), await patched.text()).toBe(200);
    await expect.poll(async () => (await fetchPayment(request, b, late.id)).status, { timeout: 30_000 }).toBe("EXPIRED");
    await simulate(request, b, late.id, { action: "pay" });

    const paid = await createPayment(request, b, { currency: "USD", amount: 40, name: "Paid mug" });
    for (const step of [{ action: "select", coin: "BITCOIN" }, { action: "pay" }, { action: "confirm" }]) await simulate(request, b, paid.id, step);
    const short = await createPayment(request, b, { currency: "EUR", amount: 50, name: "Short lamp" });
    for (const step of [{ action: "select", coin: "BITCOIN" }, { action: "pay", amount: 0.0001 }, { action: "confirm" }]) await simulate(request, b, short.id, step);
    const gone = await createPayment(request, b, { currency: "USD", amount: 25, name: "Vanished desk" });
    for (const step of [{ action: "select", coin: "BITCOIN" }, { action: "pay" }, { action: "fail" }]) await simulate(request, b, gone.id, step);
    const owner = await newUser(request, b.businessId, "owner");

    await signIn(page, owner);
    await expect(page).toHaveURL(new RegExp(`/dashboard/${b.businessId}$`));
    await expect(page.getByRole("heading", { level: 2, name: "Overview" })).toBeVisible();
    await expect(page.getByTestId("volume-today-usd")).toHaveText("$40.00");
    await expect(page.getByTestId("volume-month-usd")).toHaveText("$40.00");
    await expect(page.getByTestId("attention-underpaid").getByTestId("count")).toHaveText("1");
    await expect(page.getByTestId("attention-underpaid").getByRole("link", { name: "Short lamp" })).toBeVisible();
    await expect(page.getByTestId("attention-late")).toContainText("Late scarf");
    await expect(page.getByTestId("attention-late")).toContainText(/[0-9.]+ BTC seen/);
    await expect(page.getByTestId("attention-dropped")).toContainText("Vanished desk");
    // The server's runner tries each event once at once; the endpoint's 500s leave them retrying.
    await expect(async () => {
      await page.reload();
      await expect(page.getByTestId("attention-webhooks").getByTestId("failed-delivery").first()).toContainText("last HTTP 500", { timeout: 1000 });
    }).toPass({ timeout: 30_000 });
    const recent = page.getByRole("region", { name: "Recent payments table" });
    await expect(recent.getByRole("row")).toHaveCount(5); // the header and four payments
    await expect(recent.getByRole("row").filter({ hasText: "Paid mug" })).toContainText("Completed");
    await expect(page.getByTestId("chain")).toHaveCount(WATCHED_CHAINS.length); // one line per watched chain
    await expect(page.getByTestId("rates")).toContainText("Exchange rates come from");
    await snap(page, "dashboard-overview", "desktop");
    await expectAccessible(page, "dashboard-overview");

    // The current section: aria-current and a visible mark (a bar under it) on it alone.
    const nav = page.getByRole("navigation", { name: "Business sections" });
    const current = () => nav.locator('[aria-current="page"]');
    const bar = (name: string) => nav.getByRole("link", { name, exact: true }).evaluate((el) => getComputedStyle(el).borderBottomColor);
    await expect(current()).toHaveText("Overview");
    expect(await bar("Overview")).not.toBe(await bar("Payments"));
    await nav.getByRole("link", { name: "Payments", exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/dashboard/${b.businessId}/payments$`));
    await expect(current()).toHaveText("Payments");
    const transparent = "rgba(0, 0, 0, 0)";
    expect(await bar("Payments")).not.toBe(transparent);
    expect(await bar("Overview")).toBe(transparent);
    await page.getByRole("region", { name: "Payments table" }).getByRole("link", { name: "Paid mug" }).click();
    await expect(page.getByRole("heading", { level: 2, name: "Paid mug" })).toBeVisible();
    await expect(current()).toHaveText("Payments"); // a payment's page is under Payments
    await expect(page.getByTestId("exchange-rate")).toHaveText(/^\$[0-9]{1,3}(,[0-9]{3})*\.[0-9]{2}$/);
    await nav.getByRole("link", { name: "Developers" }).click();
    await expect(current()).toHaveText("Developers");
    await page.getByRole("link", { name: "Security" }).click();
    await expect(page.getByRole("link", { name: "Security" })).toHaveAttribute("aria-current", "page");
  } finally {
    await endpoint.close();
  }
});

test("on a phone the overview and the payments list show cards and never scroll sideways", async ({ page, request }) => {
  const b = await newBusiness(request, { name: "Phone overview shop with a rather long name" });
  const p = await createPayment(request, b, { currency: "EUR", amount: 1250.5, name: "A framed poster with quite a long name indeed", customerEmail: "a.very.long.address.for.a.customer@shop.example" });
  await simulate(request, b, p.id, { action: "select", coin: "TRX_TETHER" });
  await createPayment(request, b, { currency: "USD", amount: 9, name: "Sticker" });
  const owner = await newUser(request, b.businessId, "owner");
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, owner);
  await expect(page).toHaveURL(new RegExp(`/dashboard/${b.businessId}$`));

  for (const [name, path, list] of [
    ["overview", "", "Recent payments"],
    ["payments", "/payments", "Payments"],
  ] as const) {
    await page.goto(`/dashboard/${b.businessId}${path}`);
    const cards = page.getByRole("list", { name: list, exact: true }).getByRole("listitem");
    await expect(cards).toHaveCount(2);
    await expect(page.getByRole("region", { name: `${list} table` })).toBeHidden();
    const poster = cards.filter({ hasText: "A framed poster" });
    await expect(poster).toContainText("€1,250.50");
    await expect(poster).toContainText("Tether (TRON)");
    expect(await sideways(page), `${path || "overview"} scrolls sideways`).toBeLessThanOrEqual(0);
    await snap(page, "dashboard-overview", `phone-${name}`);
  }
  await expectAccessible(page, "dashboard-payments-phone");
});

test("the payments list and a payment's page follow a status change without a reload, and a hidden tab stops asking", async ({ page, request }) => {
  test.setTimeout(90_000);
  const b = await newBusiness(request, { name: "Live shop" });
  const p = await createPayment(request, b, { currency: "USD", amount: 30, name: "Live lamp" });
  const owner = await newUser(request, b.businessId, "owner");
  await signIn(page, owner);
  await expect(page).toHaveURL(new RegExp(`/dashboard/${b.businessId}$`));

  await page.goto(`/dashboard/${b.businessId}/payments`);
  const row = page.getByRole("region", { name: "Payments table" }).getByRole("row").filter({ hasText: "Live lamp" });
  await expect(row.locator("[data-status]")).toHaveAttribute("data-status", "AWAITING_PAYMENT");
  await expect(page.getByTestId("auto-refresh")).toHaveText("Updates by itself");
  // Anything that survives on the page shows it was not reloaded.
  await page.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));
  await page.getByLabel("Search").fill("typed, not applied");

  for (const step of [{ action: "select", coin: "BITCOIN" }, { action: "pay" }]) await simulate(request, b, p.id, step);
  await expect(row.locator("[data-status]")).toHaveAttribute("data-status", "PENDING", { timeout: 15_000 });
  await expect(row.locator("[data-status]")).toHaveText("Confirming");
  await expect(row).toContainText("Bitcoin");
  expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
  await expect(page.getByLabel("Search")).toHaveValue("typed, not applied");

  // A payment's page follows its payment.
  await row.getByRole("link", { name: "Live lamp" }).click();
  const status = page.getByTestId("payment-status").locator("[data-status]");
  await expect(status).toHaveAttribute("data-status", "PENDING");
  await page.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));
  await simulate(request, b, p.id, { action: "confirm" });
  await expect(status).toHaveAttribute("data-status", "COMPLETED", { timeout: 15_000 });
  await expect(page.getByRole("region", { name: "On-chain transactions" }).getByTestId("transaction")).toHaveCount(1);
  expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
  await snap(page, "dashboard-overview", "payment-refreshed");

  // In a background tab it stops asking, and asks at once when shown again.
  const asked: string[] = [];
  page.on("request", (r) => void (r.url().includes("/changes") && asked.push(r.url())));
  const setHidden = (hidden: boolean) =>
    page.evaluate((h) => {
      Object.defineProperty(document, "hidden", { configurable: true, get: () => h });
      document.dispatchEvent(new Event("visibilitychange"));
    }, hidden);
  await setHidden(true);
  await page.waitForTimeout(500); // a request already under way
  asked.length = 0;
  await page.waitForTimeout(10_000);
  expect(asked, "no polling while hidden").toEqual([]);
  await setHidden(false);
  await expect.poll(() => asked.length, { timeout: 2000 }).toBeGreaterThan(0);
});
