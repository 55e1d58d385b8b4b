import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test, type APIRequestContext, type Browser, type Page } from "@playwright/test";
import { directionOf, LOCALES, type Locale } from "../domain/locales";
import { expectAccessible } from "./axe";
import { apiAuth, createPayment, newBusiness, snap, type Business } from "./helpers";

/**
 * The checkout in the customer's language: chosen from Accept-Language, changed with the switcher
 * (kept in a cookie, with and without JavaScript), `lang` and `dir` set, every string translated
 * (no English left on a translated page), right-to-left mirrored for Arabic, and axe-clean in each
 * state in every locale. Screenshots of three locales (English, German, Arabic) on a desktop and
 * a phone, in the choose-coin, awaiting and completed states, go to e2e/artifacts.
 */

type Messages = { checkout: Record<string, Record<string, unknown>> };
const messages = (locale: Locale): Messages => JSON.parse(readFileSync(path.join("messages", `${locale}.json`), "utf8"));

/** Every English message without arguments or tags and longer than a word or two: none may show on a translated page. */
function englishSentences(): string[] {
  const out: string[] = [];
  const walk = (node: unknown) => {
    if (typeof node === "string") {
      if (node.length > 12 && !/[{<]/.test(node)) out.push(node);
    } else if (node && typeof node === "object") Object.values(node).forEach(walk);
  };
  walk(messages("en"));
  return out;
}

const status = (page: Page) => page.getByTestId("payment-status");

async function simulate(request: APIRequestContext, b: Business, id: string, data: Record<string, unknown>) {
  const res = await request.post(`/v1/businesses/${b.businessId}/payments/${id}/simulate`, { headers: apiAuth(b), data });
  expect(res.status(), await res.text()).toBe(200);
}

/** A payment in each state a customer sees: choosing a coin, awaiting payment, completed. */
async function paymentsInEachState(request: APIRequestContext) {
  const b = await newBusiness(request, { displayName: "Café Lumière" });
  const order = { currency: "EUR", amount: 1234.5, name: "Order 1042" };
  const choose = await createPayment(request, b, order);
  const awaiting = await createPayment(request, b, order);
  await simulate(request, b, awaiting.id, { action: "select", coin: "BITCOIN" });
  const completed = await createPayment(request, b, order);
  await simulate(request, b, completed.id, { action: "select", coin: "BITCOIN" });
  await simulate(request, b, completed.id, { action: "pay" });
  await simulate(request, b, completed.id, { action: "confirm" });
  return [
    { state: "choose", url: choose.url, status: "AWAITING_PAYMENT" },
    { state: "awaiting", url: awaiting.url, status: "AWAITING_PAYMENT" },
    { state: "completed", url: completed.url, status: "COMPLETED" },
  ] as const;
}

/** A browser whose language is `acceptLanguage`, as a phone or a desktop. */
async function browserIn(browser: Browser, acceptLanguage: string, phone = false) {
  return browser.newContext({
    locale: acceptLanguage.split(",")[0],
    extraHTTPHeaders: { "accept-language": acceptLanguage },
    ...(phone ? { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 } : {}),
  });
}

async function open(page: Page, url: string, value: string) {
  await page.goto(url);
  await expect(status(page)).toHaveAttribute("data-status", value, { timeout: 20_000 });
  await page.waitForLoadState("networkidle");
}

test("a browser asking for German gets the checkout in German, with German numbers and no English left", async ({ browser, request }) => {
  const [choose, awaiting] = await paymentsInEachState(request);
  const context = await browserIn(browser, "de-DE,de;q=0.9,en;q=0.8");
  const page = await context.newPage();
  const de = messages("de").checkout as Record<string, Record<string, string>>;

  await open(page, choose.url, choose.status);
  await expect(page.locator("html")).toHaveAttribute("lang", "de");
  await expect(page.locator("html")).toHaveAttribute("dir", "ltr");
  await expect(page.getByRole("heading", { name: de.choose.heading })).toBeVisible();
  await expect(page.getByTestId("fiat-amount")).toContainText("1.234,50 €");
  await expect(page).toHaveTitle(/Café Lumière/);

  await open(page, awaiting.url, awaiting.status);
  await expect(page.getByTestId("payment-status")).toContainText(de.status.awaitingTitle);
  const text = await page.locator("body").innerText();
  for (const sentence of englishSentences()) expect(text, `English left on the German page: "${sentence}"`).not.toContain(sentence);
  await context.close();
});

test("the switcher changes the language and keeps it, with and without JavaScript", async ({ browser, request }) => {
  const [choose, awaiting] = await paymentsInEachState(request);
  const ar = messages("ar").checkout as Record<string, Record<string, string>>;
  const fr = messages("fr").checkout as Record<string, Record<string, string>>;

  for (const javaScriptEnabled of [true, false]) {
    const context = await browser.newContext({ locale: "en-US", javaScriptEnabled });
    const page = await context.newPage();
    await page.goto(choose.url);
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
    await page.getByLabel("Language").selectOption("ar");
    await page.getByRole("button", { name: "Change" }).click();
    await expect(page.locator("html")).toHaveAttribute("lang", "ar");
    await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
    await expect(page.getByRole("heading", { name: ar.choose.heading })).toBeVisible();

    // The choice outlives the page: another checkout opens in Arabic although the browser asks for English.
    await page.goto(awaiting.url);
    await expect(page.locator("html")).toHaveAttribute("lang", "ar");
    await expect(status(page)).toContainText(ar.status.awaitingTitle);

    await page.getByLabel(ar.language.label).selectOption("fr");
    await page.getByRole("button", { name: ar.language.change }).click();
    await expect(page.locator("html")).toHaveAttribute("lang", "fr");
    await expect(status(page)).toContainText(fr.status.awaitingTitle);
    await context.close();
  }
});

test("right to left: the Arabic checkout is mirrored", async ({ browser, request }) => {
  const [, awaiting] = await paymentsInEachState(request);
  const context = await browserIn(browser, "ar-EG,ar;q=0.9");
  const page = await context.newPage();
  await open(page, awaiting.url, awaiting.status);
  await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
  // The amount reads from the right; its copy button sits at the left, and the amount itself stays as a wallet takes it.
  const amount = await page.getByTestId("coin-amount").boundingBox();
  const copy = await page.getByRole("button", { name: /نسخ/ }).first().boundingBox();
  expect(copy!.x).toBeLessThan(amount!.x);
  await expect(page.getByTestId("coin-amount")).toHaveText(/^\d+\.\d+ BTC$/);
  await context.close();
});

test("every locale: each state passes axe, and German, Arabic and English are photographed on a desktop and a phone", async ({ browser, request }) => {
  test.setTimeout(600_000);
  const states = await paymentsInEachState(request);
  const photographed = new Set<Locale>(["en", "de", "ar"]);
  for (const locale of LOCALES) {
    for (const phone of photographed.has(locale) ? [false, true] : [false]) {
      const context = await browserIn(browser, locale, phone);
      const page = await context.newPage();
      for (const s of states) {
        await open(page, s.url, s.status);
        await expect(page.locator("html")).toHaveAttribute("lang", locale);
        await expect(page.locator("html")).toHaveAttribute("dir", directionOf(locale));
        if (!phone) await expectAccessible(page, `checkout-${locale}-${s.state}`);
        if (photographed.has(locale)) await snap(page, "checkout-locales", `${locale}-${s.state}-${phone ? "phone" : "desktop"}`);
      }
      await context.close();
    }
  }
});
