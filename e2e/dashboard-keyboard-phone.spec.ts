import { expect, test, type Locator, type Page } from "@playwright/test";
import { createPayment, newBusiness, snap } from "./helpers";
import { newUser } from "./dashboard";

/**
 * The dashboard without a mouse, and on a phone: a merchant signs in, opens a payment, saves a
 * note and creates an API key with the keyboard alone, every control showing where the focus
 * is; and every dashboard page fits a phone's width without scrolling the page sideways.
 */

/** Presses Tab until `target` has the focus (at most `max` times), and checks the focus is drawn. */
async function tabTo(page: Page, target: Locator, max = 60) {
  const handle = await target.elementHandle();
  for (let i = 0; i < max; i++) {
    await page.keyboard.press("Tab");
    if (await page.evaluate((el) => document.activeElement === el, handle)) {
      const outline = await target.evaluate((el) => getComputedStyle(el).outlineStyle);
      expect(outline, "the focused control shows a focus outline").not.toBe("none");
      return;
    }
  }
  throw new Error(`Tab never reached ${target}`);
}

test("a merchant works the dashboard from the keyboard alone", async ({ page, request }) => {
  const b = await newBusiness(request, { name: "Keyboard shop" });
  await createPayment(request, b, { currency: "USD", amount: 15, name: "Keyboard mug" });
  const owner = await newUser(request, b.businessId, "owner");

  await page.goto("/dashboard/sign-in");
  await tabTo(page, page.getByLabel("Email"));
  await page.keyboard.type(owner.email);
  await tabTo(page, page.getByLabel("Password"));
  await page.keyboard.type(owner.password);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/dashboard/${b.businessId}$`));

  await tabTo(page, page.getByRole("region", { name: "Recent payments table" }).getByRole("link", { name: "Keyboard mug" }));
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { level: 2, name: "Keyboard mug" })).toBeVisible();
  const note = page.getByLabel("Internal note (visible to your team only)");
  await tabTo(page, note);
  await page.keyboard.type("Packed by keyboard");
  await tabTo(page, page.getByRole("button", { name: "Save note" }));
  await page.keyboard.press("Enter");
  await expect(page.getByText("Note saved.")).toBeVisible();

  await page.goto(`/dashboard/${b.businessId}/payments`);
  await tabTo(page, page.getByRole("link", { name: "Developers" }));
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { name: "Developers" })).toBeVisible();
  await tabTo(page, page.getByRole("button", { name: "Create API key" }));
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("new-api-key")).toContainText("shown only once");
  await snap(page, "dashboard-keyboard", "key-created");
});

test("every dashboard page fits a phone's width", async ({ page, request }) => {
  const b = await newBusiness(request, { name: "Phone shop with a rather long name" });
  const p = await createPayment(request, b, { currency: "EUR", amount: 12.5, name: "A poster with a long name", customerEmail: "ann@shop.example" });
  const owner = await newUser(request, b.businessId, "owner");
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/dashboard/sign-in");
  await page.getByLabel("Email").fill(owner.email);
  await page.getByLabel("Password").fill(owner.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/${b.businessId}$`));

  const base = `/dashboard/${b.businessId}`;
  const pages = {
    overview: base,
    payments: `${base}/payments`,
    payment: `${base}/payments/${p.id}`,
    developers: `${base}/developers`,
    settings: `${base}/settings`,
    members: `${base}/members`,
    security: "/dashboard/security",
  };
  for (const [name, path] of Object.entries(pages)) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `${path} scrolls sideways by ${overflow}px`).toBeLessThanOrEqual(0);
    await snap(page, "dashboard-phone", name);
  }
});
