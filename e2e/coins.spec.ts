import { expect, test, type Page } from "@playwright/test";
import type { CheckoutView } from "../lib/checkout/view";
import { expectAccessible } from "./axe";
import { createPayment, newBusiness, snap } from "./helpers";

/**
 * Choosing a coin as a customer recognises it: the assets with their logos, then the network
 * for an asset offered on several; one choice per asset and network (no contract twins); each
 * coin on its own network by name; and amounts that fit a phone on one line, copied as shown.
 */

test.use({ permissions: ["clipboard-read", "clipboard-write"] });

const assetList = (page: Page) => page.getByRole("list", { name: "Cryptocurrencies you can pay with" });

async function state(page: Page, id: string): Promise<CheckoutView> {
  const res = await page.request.get(`/pay/${id}/state`);
  expect(res.status()).toBe(200);
  return (await res.json()) as CheckoutView;
}

/** The amount is on one line and whole: no wrap, nothing cut, and the page does not scroll sideways. */
async function expectAmountOnOneLine(page: Page) {
  const amount = page.getByTestId("coin-amount");
  const m = await amount.evaluate((el) => ({
    height: el.getBoundingClientRect().height,
    line: parseFloat(getComputedStyle(el).lineHeight),
    scroll: el.scrollWidth,
    client: el.clientWidth,
    page: document.documentElement.scrollWidth,
    viewport: document.documentElement.clientWidth,
  }));
  expect(m.height, "the amount on one line").toBeLessThan(m.line * 1.5);
  expect(m.scroll, "the amount is not cut").toBeLessThanOrEqual(m.client);
  expect(m.page, "the page must not scroll sideways").toBeLessThanOrEqual(m.viewport);
}

test("a new test business offers five assets; the customer chooses USDT, then TRON", async ({ page, request }) => {
  const b = await newBusiness(request);
  const p = await createPayment(request, b, { currency: "USD", amount: 42, name: "Trail shoes" });
  await page.goto(p.url);
  const assets = assetList(page).getByRole("button");
  await expect(assets).toHaveCount(5);
  await expect(assets.nth(0)).toHaveAccessibleName(/^Bitcoin BTC/);
  await expect(assets.nth(1)).toHaveAccessibleName(/^Ethereum ETH/);
  await expect(assets.nth(2)).toHaveAccessibleName(/^Tether USDT, 2 networks/);
  await expect(assets.nth(3)).toHaveAccessibleName(/^USD Coin USDC, 2 networks/);
  await expect(assets.nth(4)).toHaveAccessibleName(/^Litecoin LTC/);
  // A logo beside each name, hidden from screen readers.
  await expect(assetList(page).locator("svg[aria-hidden=true]")).toHaveCount(5 + 2); // five logos, two chevrons
  await snap(page, "coins", "choose-asset");

  await page.getByRole("button", { name: /^Tether USDT/ }).click();
  const heading = page.getByRole("heading", { name: "Choose the network for Tether (USDT)" });
  await expect(heading).toBeFocused();
  const networks = page.getByRole("list", { name: "Networks for Tether" }).getByRole("button");
  await expect(networks).toHaveCount(2);
  await expect(networks.nth(0)).toHaveAccessibleName(/^Ethereum USDT · ERC-20/);
  await expect(networks.nth(1)).toHaveAccessibleName(/^TRON USDT · TRC-20/);
  await snap(page, "coins", "choose-network");
  await expectAccessible(page, "checkout-choose-network");

  // Back to the assets, to the one left; then on again.
  await page.getByRole("button", { name: "All coins" }).click();
  await expect(page.getByRole("button", { name: /^Tether USDT/ })).toBeFocused();
  await page.getByRole("button", { name: /^Tether USDT/ }).click();
  await page.getByRole("button", { name: /^TRON USDT/ }).click();
  await expect(page.getByTestId("deposit-address")).toBeVisible();
  const view = await state(page, p.id);
  expect(view.charge).toMatchObject({ coin: "TRX_TETHER", name: "Tether", symbol: "USDT", networkName: "TRON", standard: "TRC-20" });
  await expect(page.getByTestId("network")).toHaveText("on the TRON network (TRC-20)");
  await expect(page.getByTestId("coin-amount")).toHaveText(`${view.charge!.amount} USDT`);
  await snap(page, "coins", "usdt-on-tron");
  await expectAccessible(page, "checkout-usdt-on-tron");
});

test("Bitcoin Cash is sent on the Bitcoin Cash network, and the page never says Bitcoin network", async ({ page, request }) => {
  const b = await newBusiness(request, { enabledCoins: ["BITCOIN", "BITCOIN_CASH"] });
  const p = await createPayment(request, b, { currency: "USD", amount: 15, name: "Cash only" });
  await page.goto(p.url);
  await page.getByRole("button", { name: /^Bitcoin Cash BCH/ }).click();
  await expect(page.getByTestId("network")).toHaveText("on the Bitcoin Cash network");
  await expect(page.locator("body")).not.toContainText("Bitcoin network");
  await snap(page, "coins", "bitcoin-cash");
});

test("a coin and its contract twin are one choice; Ether amounts have at most 8 decimals and copy as shown", async ({ page, request }) => {
  const b = await newBusiness(request, { enabledCoins: ["ETHEREUM", "CONTRACT_ERC20_ETH", "ETH_TETHER", "CONTRACT_ERC20_USDT"] });
  const p = await createPayment(request, b, { currency: "EUR", amount: 77.77, name: "Twins" });
  await page.goto(p.url);
  await expect(assetList(page).getByRole("button")).toHaveCount(2);
  await expect(page.locator("body")).not.toContainText("contract");

  await page.getByRole("button", { name: /^Ethereum ETH/ }).click();
  const view = await state(page, p.id);
  expect(view.charge!.coin).toBe("ETHEREUM");
  expect(view.charge!.amount).toMatch(/^\d+(\.\d{1,8})?$/);
  await page.getByRole("button", { name: /^Copy amount/ }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(view.charge!.amount);
  await expect(page.getByTestId("coin-amount")).toHaveText(`${view.charge!.amount} ETH`);
});

test.describe("on a 390 px phone", () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test("Ether, a ten-digit and the largest possible Shiba Inu amounts each stay on one line", async ({ page, request }) => {
    const b = await newBusiness(request, { enabledCoins: ["ETHEREUM", "ETH_SHIBA_INU"] });
    // [name, amount, currency, coin button, the shown amount's shape]
    const cases: [string, number, string, RegExp, RegExp][] = [
      ["ether", 12345.67, "USD", /^Ethereum ETH/, /^\d\.\d{8}$/],
      ["shiba-inu", 33333.33, "EUR", /^Shiba Inu SHIB/, /^\d{10}/],
      // Nearly a billion yen (the largest payment) in the lowest-priced coin: a twelve-digit amount.
      ["shiba-inu-largest", 999_999_999, "JPY", /^Shiba Inu SHIB/, /^\d{12}/],
    ];
    for (const [name, amount, currency, coin, shape] of cases) {
      const p = await createPayment(request, b, { currency, amount, name: `Phone, ${name}` });
      await page.goto(p.url);
      await page.getByRole("button", { name: coin }).click();
      await expect(page.getByTestId("deposit-address")).toBeVisible();
      const shown = (await state(page, p.id)).charge!.amount;
      expect(shown).toMatch(shape);
      await expectAmountOnOneLine(page);
      await snap(page, "coins", `phone-390-${name}`);
    }
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the customer still chooses USDT, then TRON: each step is a form the server answers", async ({ page, request }) => {
    const b = await newBusiness(request);
    const p = await createPayment(request, b, { currency: "USD", amount: 8, name: "No script" });
    await page.goto(p.url);
    await page.getByRole("button", { name: /^Tether USDT/ }).click();
    await expect(page.getByRole("heading", { name: "Choose the network for Tether (USDT)" })).toBeVisible();
    await page.getByRole("button", { name: "All coins" }).click();
    await expect(assetList(page).getByRole("button")).toHaveCount(5);
    await page.getByRole("button", { name: /^Tether USDT/ }).click();
    await page.getByRole("button", { name: /^TRON USDT/ }).click();
    await expect(page.getByTestId("deposit-address")).toBeVisible();
    expect((await state(page, p.id)).charge!.coin).toBe("TRX_TETHER");
  });
});
