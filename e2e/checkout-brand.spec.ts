import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { png } from "../test/brand/images";
import { expectAccessible } from "./axe";
import { newUser, signIn } from "./dashboard";
import { adminAuth, apiAuth, createPayment, newBusiness, snap, type Business } from "./helpers";

/**
 * The merchant's brand on the checkout: display name and logo at the top, "Pay <name>" in the
 * tab, the accent colour on the wallet button, the logo served with strict headers, a favicon;
 * and the owner setting it in Settings, where a renamed HTML file and an oversized image are refused.
 */

const FLOW = "checkout-brand";

/** A 160×64 logo: a teal rounded badge with a white ring, drawn pixel by pixel. */
function logoPng(): Buffer {
  return png(160, 64, (x, y) => {
    const d = Math.hypot(x - 32, y - 32);
    if (d > 24 && d < 29) return [255, 255, 255, 255];
    if (d <= 24 || (x > 64 && x < 150 && y > 20 && y < 44)) return [15, 118, 110, 255];
    return [0, 0, 0, 0];
  });
}

async function selectBitcoin(request: APIRequestContext, b: Business, id: string) {
  const res = await request.post(`/v1/businesses/${b.businessId}/payments/${id}/simulate`, { headers: apiAuth(b), data: { action: "select", coin: "BITCOIN" } });
  expect(res.status(), await res.text()).toBe(200);
}

/** The logo has loaded as an image (a blocked or mistyped response has no natural width). */
async function expectLogoShown(page: Page, testId: string) {
  const logo = page.getByTestId(testId);
  await expect(logo).toBeVisible();
  await expect.poll(() => logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(160);
}

test("the checkout shows the merchant's display name and logo, says who is paid in the title, and uses the accent colour", async ({ page, request }) => {
  const b = await newBusiness(request, { name: "ACME Holdings Ltd", displayName: "Corner Coffee", accentColor: "#0F766E", logo: logoPng().toString("base64") });
  const p = await createPayment(request, b, { currency: "USD", amount: 19.99, name: "Coffee beans, 1 kg" });
  await selectBitcoin(request, b, p.id);

  await page.goto(`/pay/${p.id}`);
  await expect(page).toHaveTitle("Pay Corner Coffee · $19.99");
  await expect(page.getByTestId("merchant-name")).toHaveText("Corner Coffee");
  await expect(page.getByRole("heading", { level: 1, name: "Coffee beans, 1 kg" })).toBeVisible();
  await expectLogoShown(page, "merchant-logo");
  const wallet = page.getByRole("link", { name: "Open in wallet" });
  await expect(wallet).toHaveCSS("background-color", "rgb(15, 118, 110)");
  await expect(page.locator("body")).not.toContainText("ACME Holdings");
  await snap(page, FLOW, "01-checkout-desktop");
  await expectAccessible(page, "branded checkout");
  await page.setViewportSize({ width: 390, height: 844 });
  await snap(page, FLOW, "02-checkout-phone");

  // The logo as the browser fetches it: the type found in its bytes, and nothing it could run.
  const src = (await page.getByTestId("merchant-logo").getAttribute("src"))!;
  expect(src).toMatch(/^\/logos\/[0-9a-f]{64}$/);
  const res = await request.get(src);
  expect(res.status()).toBe(200);
  const h = res.headers();
  expect(h["content-type"]).toBe("image/png");
  expect(h["x-content-type-options"]).toBe("nosniff");
  expect(h["content-security-policy"]).toMatch(/^default-src 'none'/);
  expect(h["content-disposition"]).toBe("inline");
  expect(h["cache-control"]).toBe("public, max-age=31536000, immutable");
  expect((await request.get(src, { headers: { "if-none-match": h["etag"] } })).status()).toBe(304);

  // Our favicon, on this page as on every other.
  const icon = page.locator('head link[rel="icon"]');
  await expect(icon).toHaveAttribute("href", /^\/icon\.svg/);
  const favicon = await request.get((await icon.getAttribute("href"))!);
  expect(favicon.status()).toBe(200);
  expect(favicon.headers()["content-type"]).toContain("image/svg+xml");
});

test("without a display name or logo the checkout shows the business's name and its initial", async ({ page, request }) => {
  const b = await newBusiness(request, { name: "Blue Bottle Books" });
  const p = await createPayment(request, b, { currency: "EUR", amount: 12, name: "Paperback" });
  await page.goto(`/pay/${p.id}`);
  await expect(page).toHaveTitle("Pay Blue Bottle Books · €12.00");
  await expect(page.getByTestId("merchant-name")).toHaveText("Blue Bottle Books");
  await expect(page.getByTestId("merchant-logo")).toHaveCount(0);
  await snap(page, FLOW, "03-checkout-no-logo");
});

test("the owner sets the brand in Settings: a renamed HTML file, an oversized image and a pale colour are refused", async ({ page, request }) => {
  test.setTimeout(90_000);
  const b = await newBusiness(request, { name: "Settings brand shop" });
  const owner = await newUser(request, b.businessId, "owner");
  await signIn(page, owner);
  await page.waitForURL((url) => !url.pathname.startsWith("/dashboard/sign-in"));
  await page.goto(`/dashboard/${b.businessId}/settings`);

  const logoInput = page.getByLabel("Logo image");
  const upload = page.getByRole("button", { name: "Upload logo" });
  await logoInput.setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: Buffer.from("<!doctype html><html><body><script>alert(1)</script></body></html>") });
  await upload.click();
  await expect(page.locator("#logo-error")).toContainText("must be a PNG, JPEG or WebP image");
  await expect(logoInput).toHaveAttribute("aria-invalid", "true");
  await snap(page, FLOW, "04-settings-renamed-html-refused");

  await logoInput.setInputFiles({ name: "huge.png", mimeType: "image/png", buffer: Buffer.alloc(300 * 1024, 1) });
  await upload.click();
  await expect(page.locator("#logo-error")).toContainText("a logo may be at most 256 KB");

  await logoInput.setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: logoPng() });
  await upload.click();
  await expect(page.getByText("Logo saved.")).toBeVisible();
  await expectLogoShown(page, "current-logo");

  await page.getByLabel("Checkout display name").fill("Brand Shop");
  await page.getByLabel("Accent colour", { exact: true }).fill("#FFCC00");
  await expect(page.locator("#accentColor-contrast")).toContainText("below the 4.5:1 WCAG AA minimum");
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.locator("#accentColor-error")).toContainText("below the 4.5:1 WCAG AA minimum");
  await page.getByLabel("Accent colour", { exact: true }).fill("#7c2d12");
  await expect(page.getByTestId("accent-sample")).toBeVisible();
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByText("Settings saved.")).toBeVisible();
  await snap(page, FLOW, "05-settings-brand-saved");
  await expectAccessible(page, "settings with a logo");

  const saved = (await (await request.get(`/admin/v1/businesses/${b.businessId}`, { headers: adminAuth })).json()).data;
  expect(saved).toMatchObject({ name: "Settings brand shop", displayName: "Brand Shop", accentColor: "#7c2d12", logoUrl: expect.stringMatching(/\/logos\/[0-9a-f]{64}$/) });
  const p = await createPayment(request, b, { currency: "USD", amount: 5, name: "Sticker" });
  await page.goto(`/pay/${p.id}`);
  await expect(page).toHaveTitle("Pay Brand Shop · $5.00");
  await expectLogoShown(page, "merchant-logo");
});
