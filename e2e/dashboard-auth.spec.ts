import { expect, test } from "@playwright/test";
import { expectAccessible } from "./axe";
import { adminAuth, createPayment, newBusiness, snap } from "./helpers";
import { newUser, signIn, totp } from "./dashboard";

/**
 * The merchant dashboard's doors: sign-in with the password the operator's admin API handed out,
 * a wrong password told apart from nothing, two-factor set-up and sign-in with it, sign-out, and
 * nothing of another merchant's business.
 */

test("an owner signs in, turns on two-factor sign-in, signs out and back in with a code", async ({ page, request }) => {
  test.setTimeout(120_000);
  const b = await newBusiness(request, { name: "Dashboard shop" });
  const owner = await newUser(request, b.businessId, "owner");

  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/dashboard\/sign-in$/);
  await snap(page, "dashboard", "sign-in");
  await signIn(page, { email: owner.email, password: "not the password" });
  await expect(page.locator("#sign-in-error")).toHaveText("The email or password is incorrect.");
  await signIn(page, { email: `nobody-${Date.now()}@shop.example`, password: "not the password" });
  await expect(page.locator("#sign-in-error")).toHaveText("The email or password is incorrect.");

  await signIn(page, owner);
  await expect(page).toHaveURL(new RegExp(`/dashboard/${b.businessId}$`));
  await expect(page.getByRole("heading", { level: 1, name: "Dashboard shop" })).toBeVisible();
  await expect(page.getByText("Test mode", { exact: true })).toBeVisible();

  await page.getByRole("link", { name: "Security" }).click();
  await expect(page.getByTestId("two-factor-status")).toContainText("off");
  await page.getByLabel("Password, to set it up").fill(owner.password);
  await page.getByRole("button", { name: "Set up two-factor sign-in" }).click();
  const secret = (await page.getByTestId("totp-secret").textContent())!.trim();
  await expect(page.getByTestId("backup-codes").locator("li")).toHaveCount(10);
  await snap(page, "dashboard", "two-factor-setup");
  await page.getByLabel("The 6-digit code from the app").fill(await totp(secret));
  await page.getByRole("button", { name: "Turn on" }).click();
  await expect(page.getByTestId("two-factor-status")).toContainText("on");

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/dashboard\/sign-in$/);
  await page.goto(`/dashboard/${b.businessId}/payments`);
  await expect(page).toHaveURL(/\/dashboard\/sign-in$/);

  await signIn(page, owner);
  await expect(page.getByLabel("Code")).toBeVisible();
  await page.getByLabel("Code").fill("000000");
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "That code is not valid" })).toBeVisible();
  await snap(page, "dashboard", "two-factor-code");
  await page.getByLabel("Code").fill(await totp(secret, { next: true }));
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/${b.businessId}$`));
});

test("repeated wrong passwords lock an email address's sign-in, alike for a user and for nobody", async ({ page, request, baseURL }) => {
  const b = await newBusiness(request, { name: "Lockout shop" });
  const owner = await newUser(request, b.businessId, "owner");
  const nobody = `nobody-${Date.now()}@shop.example`;
  // The guesses go straight to the sign-in endpoint, as a script would; the last try is a person's, on the page.
  for (const email of [owner.email, nobody]) {
    for (let i = 0; i < 10; i++) {
      const res = await request.post("/api/auth/sign-in/email", { headers: { origin: baseURL! }, data: { email, password: `guess number ${i}` } });
      expect(res.status()).toBe(401);
    }
  }
  const locked = "Too many failed sign-ins with this email address. Sign-in for it is locked; try again in 15 minutes.";
  await signIn(page, owner);
  await expect(page.locator("#sign-in-error")).toHaveText(locked);
  await snap(page, "dashboard", "sign-in-locked");
  await signIn(page, { email: nobody, password: "another guess" });
  await expect(page.locator("#sign-in-error")).toHaveText(locked);
  await expect(page).toHaveURL(/\/dashboard\/sign-in$/);
});

test("a user changes the password they were given: field errors, then the old one and other sessions stop working", async ({ page, request, browser }) => {
  const b = await newBusiness(request, { name: "Password shop" });
  const owner = await newUser(request, b.businessId, "owner");
  const other = await browser.newContext();
  const elsewhere = await other.newPage();
  await signIn(elsewhere, owner);
  await expect(elsewhere).toHaveURL(new RegExp(`/dashboard/${b.businessId}$`));

  await signIn(page, owner);
  await expect(page).toHaveURL(new RegExp(`/dashboard/${b.businessId}$`));
  await page.getByRole("link", { name: "Security" }).click();
  await page.getByLabel("Current password").fill("not my password");
  await page.getByLabel("New password (at least 10 characters)").fill("too short");
  await page.getByLabel("New password again").fill("too short");
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.locator("#new-password-error")).toHaveText("must be at least 10 characters");
  await page.getByLabel("New password (at least 10 characters)").fill("a much better password");
  await page.getByLabel("New password again").fill("a much better password");
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.locator("#current-password-error")).toHaveText("is not correct");
  await page.getByLabel("Current password").fill(owner.password);
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByText("Password changed. Your other sessions have been signed out.")).toBeVisible();
  await snap(page, "dashboard", "password-changed");

  // This browser stays signed in; the other one is signed out; only the new password opens.
  await page.goto(`/dashboard/${b.businessId}/payments`);
  await expect(page.getByRole("heading", { level: 1, name: "Password shop" })).toBeVisible();
  await elsewhere.goto(`/dashboard/${b.businessId}/payments`);
  await expect(elsewhere).toHaveURL(/\/dashboard\/sign-in$/);
  await signIn(elsewhere, owner);
  await expect(elsewhere.locator("#sign-in-error")).toHaveText("The email or password is incorrect.");
  await signIn(elsewhere, { email: owner.email, password: "a much better password" });
  await expect(elsewhere).toHaveURL(new RegExp(`/dashboard/${b.businessId}$`));
  await other.close();
});

test("a user sees only their businesses: another merchant's id is a 404, and a viewer has no settings", async ({ page, request }) => {
  const mine = await newBusiness(request, { name: "Mine" });
  const theirs = await newBusiness(request, { name: "Theirs" });
  const viewer = await newUser(request, mine.businessId, "viewer");
  await signIn(page, viewer);
  await expect(page).toHaveURL(new RegExp(`/dashboard/${mine.businessId}$`));
  const nav = page.getByRole("navigation", { name: "Business sections" });
  await expect(nav.getByRole("link", { name: "Payments" })).toBeVisible();
  await expect(nav.getByRole("link", { name: "Settings" })).toHaveCount(0);
  await expect(nav.getByRole("link", { name: "Members" })).toHaveCount(0);
  for (const path of ["", "/payments", "/developers", "/settings", "/members"]) {
    const res = await page.goto(`/dashboard/${theirs.businessId}${path}`);
    expect(res?.status(), path).toBe(404);
  }
  const res = await page.goto(`/dashboard/${mine.businessId}/settings`);
  expect(res?.status()).toBe(404);
});

test("every dashboard page passes the accessibility audit", async ({ page, request, browser }) => {
  test.setTimeout(120_000);
  const b = await newBusiness(request, { name: "Audited shop" });
  const second = await newBusiness(request, { name: "Second audited shop" });
  // A customer address the bundled databases place: the payment page shows its location table and their credit.
  const payment = await createPayment(request, b, { currency: "USD", amount: 12, name: "Audited mug", customerIp: "8.8.8.8" });
  const owner = await newUser(request, b.businessId, "owner");
  const added = await request.post("/admin/v1/users", { headers: adminAuth, data: { email: owner.email, businessId: second.businessId, role: "viewer" } });
  expect(added.status()).toBe(200);
  await page.goto("/dashboard/sign-in");
  await expectAccessible(page, "dashboard-sign-in");
  await signIn(page, { email: owner.email, password: "not the password" });
  await expect(page.locator("#sign-in-error")).toBeVisible();
  await expectAccessible(page, "dashboard-sign-in-error");
  await signIn(page, owner);
  // Two businesses: the home page lists them.
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole("link", { name: /Second audited shop/ })).toBeVisible();
  await expectAccessible(page, "dashboard-home");
  for (const path of ["", "/payments", `/payments/${payment.id}`, "/developers", "/settings", "/members"]) {
    await page.goto(`/dashboard/${b.businessId}${path}`);
    await expect(page.getByRole("heading", { level: 1, name: "Audited shop" })).toBeVisible();
    await expectAccessible(page, `dashboard${path.replace(/\//g, "-").replace(payment.id, "detail") || "-overview"}`);
  }
  await page.goto(`/dashboard/${b.businessId}/payments?fromAmount=ten`);
  await expect(page.locator("#fromAmount-error")).toBeVisible();
  await expectAccessible(page, "dashboard-payments-invalid-filter");
  expect((await page.goto(`/dashboard/${b.businessId}/payments/00000000-0000-4000-8000-000000000000`))?.status()).toBe(404);
  await expectAccessible(page, "dashboard-not-found");

  await page.goto("/dashboard/security");
  await expectAccessible(page, "dashboard-security");
  await page.getByLabel("Current password").fill("not my password");
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.locator("#new-password-error")).toBeVisible();
  await expectAccessible(page, "dashboard-security-errors");

  // The invitation page, as the invitee sees it before signing in.
  await page.goto(`/dashboard/${b.businessId}/members`);
  await page.getByLabel("Email", { exact: true }).fill(`invitee-${Date.now()}@shop.example`);
  await page.getByRole("button", { name: "Create invitation" }).click();
  const url = (await page.getByTestId("invite-url").textContent())!.trim();
  await expectAccessible(page, "dashboard-members-invitation-link");
  const fresh = await browser.newContext();
  const invitee = await fresh.newPage();
  await invitee.goto(url);
  await expect(invitee.getByRole("heading", { name: "Join Audited shop" })).toBeVisible();
  await expectAccessible(invitee, "dashboard-invite");
  await fresh.close();
});

