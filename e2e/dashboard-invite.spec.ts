import { expect, test, type Browser, type Page } from "@playwright/test";
import { expectAccessible } from "./axe";
import { newBusiness } from "./helpers";
import { newUser, signIn, type DashboardUser } from "./dashboard";

/**
 * Invitation links: only the invited person accepts (signed in as the invited address, or by
 * making its account), and the page shows the same to everyone, whether or not the invited
 * address has an account.
 */

async function invite(page: Page, businessId: number, email: string): Promise<string> {
  await page.goto(`/dashboard/${businessId}/members`);
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Role", { exact: true }).selectOption("developer");
  await page.getByRole("button", { name: "Create invitation" }).click();
  const url = (await page.getByTestId("invite-url").textContent())!.trim();
  return url;
}

/** The invitation page's text as an anonymous visitor sees it, with the invited address written as EMAIL. */
async function anonymousView(browser: Browser, url: string, email: string): Promise<string> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(url);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  const text = (await page.locator("main").innerText()).replaceAll(email, "EMAIL");
  await context.close();
  return text;
}

test("an invitation is accepted only by the invited person, and reads alike whether or not the address has an account", async ({ page, browser, request }) => {
  test.setTimeout(120_000);
  const b = await newBusiness(request, { name: "Invite shop" });
  const elsewhere = await newBusiness(request, { name: "Other shop" });
  const owner = await newUser(request, b.businessId, "owner");
  const existing: DashboardUser = await newUser(request, elsewhere.businessId, "viewer");
  const nobody = `nobody-${Date.now()}@shop.example`;

  await signIn(page, owner);
  await expect(page).toHaveURL(new RegExp(`/dashboard/${b.businessId}$`));
  const existingUrl = await invite(page, b.businessId, existing.email);
  const nobodyUrl = await invite(page, b.businessId, nobody);

  // Opened by anyone, the two pages say the same thing.
  const [withAccount, withoutAccount] = [await anonymousView(browser, existingUrl, existing.email), await anonymousView(browser, nobodyUrl, nobody)];
  expect(withAccount).toBe(withoutAccount);
  expect(withAccount).toContain("Already have an account for EMAIL?");
  expect(withAccount).toContain("New here? Create your account");

  // The inviting owner, signed in as themself, cannot accept it for the existing account.
  await page.goto(existingUrl);
  await expect(page.getByText(`You are signed in as ${owner.email}`)).toBeVisible();
  await expect(page.getByRole("button", { name: "Accept invitation" })).toHaveCount(0);
  await expectAccessible(page, "dashboard-invite-signed-in-as-someone-else");

  // Nor, signed out, by making an account for the address: it has one, and nothing is added.
  const context = await browser.newContext();
  const stranger = await context.newPage();
  await stranger.goto(existingUrl);
  await stranger.getByLabel("Your name").fill("Mallory");
  await stranger.getByLabel("Password (at least 10 characters)").fill("owner chose this");
  await stranger.getByLabel("Password again").fill("owner chose this");
  await stranger.getByRole("button", { name: "Create my account" }).click();
  await expect(stranger.getByText(`No account was made: ${existing.email} has one already.`)).toBeVisible();
  await page.goto(`/dashboard/${b.businessId}/members`);
  await expect(page.locator(`[data-testid="member-row"][data-email="${existing.email}"]`)).toHaveCount(0);

  // The invited person signs in from the invitation, comes back to it, and accepts.
  await stranger.goto(existingUrl);
  await stranger.getByRole("link", { name: "Sign in to accept" }).click();
  await stranger.waitForURL(/\/dashboard\/sign-in\?next=/);
  await stranger.getByLabel("Email").fill(existing.email);
  await stranger.getByLabel("Password").fill(existing.password);
  await stranger.getByRole("button", { name: "Sign in" }).click();
  await stranger.waitForURL(existingUrl);
  await expect(stranger.getByText(`You are signed in as ${existing.email}`)).toBeVisible();
  await expectAccessible(stranger, "dashboard-invite-signed-in-as-invitee");
  await stranger.getByRole("button", { name: "Accept invitation" }).click();
  await expect(stranger.getByTestId("invite-accepted")).toContainText("The business is added to your account.");
  await context.close();

  await page.reload();
  await expect(page.getByLabel(`Role of ${existing.email}`)).toHaveValue("developer");
});
