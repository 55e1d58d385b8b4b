import Big from "big.js";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { quoteBaseUnits, unitsToDecimal } from "@/domain/amounts";
import { DEFAULT_RATE_TABLE } from "@/lib/rates/default-rates";
import { tableRate } from "@/lib/rates/rate-source";
import type { CheckoutView } from "../lib/checkout/view";
import { marketMockControl } from "../test/rates/market-mock";
import { apiAuth, createPayment, newBusiness, snap, type Business } from "./helpers";
import { e2eMarketMock, E2E_RATE_MAX_AGE_SECONDS } from "./market-mock-env";

/**
 * Live exchange rates end to end: the server refreshes Kraken, Coinbase and CoinGecko from the
 * market mock every 5 s (playwright.config.ts), quotes from their medians, and refuses quotes
 * once the rates are older than 15 s. The mock is silenced through its control endpoint to make
 * the rates go stale, then answers again.
 */

const mock = marketMockControl(e2eMarketMock().baseUrl);

async function state(request: APIRequestContext, id: string): Promise<CheckoutView> {
  const res = await request.get(`/pay/${id}/state`);
  expect(res.status()).toBe(200);
  return (await res.json()) as CheckoutView;
}

function simulateSelect(request: APIRequestContext, b: Business, id: string, coin = "BITCOIN") {
  return request.post(`/v1/businesses/${b.businessId}/payments/${id}/simulate`, { headers: apiAuth(b), data: { action: "select", coin } });
}

const bitcoin = (page: Page) => page.getByRole("button", { name: /^Bitcoin BTC/ });

/** The checkout's "Quoted at hh:mm:ss UTC" line, matching the charge's quotedAt. */
async function expectQuotedAt(page: Page, view: CheckoutView) {
  const quoted = page.getByTestId("quoted-at");
  await expect(quoted).toHaveText(/^Quoted at \d\d:\d\d:\d\d UTC$/);
  await expect(quoted.locator("time").first()).toHaveAttribute("dateTime", view.charge!.quotedAt);
  await expect(quoted).toContainText(`Quoted at ${view.charge!.quotedAt.slice(11, 19)} UTC`);
}

test.afterAll(async () => {
  await mock.reset(); // answering again, whatever a failed test left
});

test("a USD and a EUR payment are quoted from the market mock, with the quote's time", async ({ page, request }) => {
  const b = await newBusiness(request);
  const usd = await createPayment(request, b, { currency: "USD", amount: 19.99, name: "Live-rate mug" });
  await page.goto(usd.url);
  await expect(bitcoin(page)).not.toHaveAttribute("aria-disabled", "true");
  await bitcoin(page).click();
  await expect(page.getByTestId("deposit-address")).toBeVisible();
  const view = await state(request, usd.id);
  // The mock's default prices are the static table's: the median is 65,000 USD exactly.
  expect(view.charge!.exchangeRate).toBe("65000");
  expect(view.charge!.amount).toBe(unitsToDecimal(quoteBaseUnits("19.99", "65000", 8), 8));
  await expect(page.getByTestId("exchange-rate")).toHaveText("1 BTC = 65,000.00 USD");
  await expectQuotedAt(page, view);
  const age = Date.parse(view.charge!.quotedAt) - Date.parse(view.charge!.rateAt!);
  expect(age, "the rate was read before the quote, within the max age").toBeGreaterThanOrEqual(0);
  expect(age).toBeLessThanOrEqual(E2E_RATE_MAX_AGE_SECONDS * 1000);

  // EUR: the coin's USD median × the USD→EUR median (Kraken's EUR/USD book, Coinbase, CoinGecko).
  const eur = await createPayment(request, b, { currency: "EUR", amount: 50, name: "Live-rate poster" });
  const res = await simulateSelect(request, b, eur.id);
  expect(res.status(), await res.text()).toBe(200);
  const eurView = await state(request, eur.id);
  const staticRate = tableRate(DEFAULT_RATE_TABLE, "BITCOIN", "EUR"); // 65000 / 1.08
  // Equal to the 18 places the charge stores.
  expect(new Big(eurView.charge!.exchangeRate).minus(staticRate).abs().lt("1e-17"), eurView.charge!.exchangeRate).toBe(true);
  expect(eurView.charge!.amount).toBe(unitsToDecimal(quoteBaseUnits("50", staticRate, 8), 8));
  await page.goto(eur.url);
  await expect(page.getByTestId("exchange-rate")).toHaveText("1 BTC = 60,185.19 EUR");
  await expectQuotedAt(page, eurView);
});

test("stale rates: coins are temporarily unavailable and selecting answers 503, until the rates are fresh again", async ({ page, request }) => {
  test.setTimeout(120_000);
  const b = await newBusiness(request);
  await mock.silence(true);

  // The rates age out RATE_MAX_AGE_SECONDS after the last answered refresh.
  const stale = await createPayment(request, b, { currency: "USD", amount: 12, name: "Stale-rate scarf" });
  await expect
    .poll(async () => (await state(request, stale.id)).coins.every((c) => !c.available), {
      message: "every coin unavailable once the rates are older than the max age",
      timeout: (E2E_RATE_MAX_AGE_SECONDS + 20) * 1000,
      intervals: [1000],
    })
    .toBe(true);

  await page.goto(stale.url);
  await expect(bitcoin(page)).toHaveAttribute("aria-disabled", "true");
  await expect(bitcoin(page)).toContainText("Temporarily unavailable");
  await expect(page.getByTestId("coin-unavailable").first()).toBeVisible();
  await expect(page.getByTestId("rates-unavailable")).toContainText("Exchange rates are temporarily unavailable");
  await snap(page, "live-rates", "unavailable");

  // Choosing anyway asks the server, which says which coin cannot be priced, in the customer's
  // language (the API's 503 below gives the reason). (The button is aria-disabled, not disabled: a
  // person can press it, Playwright's actionability check would not, hence force.)
  await bitcoin(page).click({ force: true });
  await expect(page.getByRole("alert").filter({ hasText: "priced" })).toHaveText("Bitcoin can't be priced right now. Choose another coin or try again later.");
  await expect(page.getByTestId("deposit-address")).toHaveCount(0);

  const refused = await simulateSelect(request, b, stale.id);
  expect(refused.status()).toBe(503);
  expect(refused.headers()["content-type"]).toContain("application/problem+json");
  const problem = await refused.json();
  expect(problem.type).toMatch(/#problem-rate-unavailable$/);
  expect(problem.detail).toContain("Bitcoin is temporarily unavailable");

  // Answering again: the next refresh stores fresh rates, and the open page becomes selectable by itself.
  await mock.silence(false);
  await expect(bitcoin(page)).not.toHaveAttribute("aria-disabled", "true", { timeout: 30_000 });
  await expect(page.getByTestId("coin-unavailable")).toHaveCount(0);
  await expect(page.getByTestId("rates-unavailable")).toHaveCount(0);
  await bitcoin(page).click();
  await expect(page.getByTestId("deposit-address")).toBeVisible();
  await expectQuotedAt(page, await state(request, stale.id));

  const again = await createPayment(request, b, { currency: "USD", amount: 7 });
  const res = await simulateSelect(request, b, again.id);
  expect(res.status(), await res.text()).toBe(200);
});
