import { expect, test, type Page } from "@playwright/test";
import { TEST_EXTENDED_PUBLIC_KEYS } from "@/lib/wallets/derive";
import { Webhook } from "svix";
import { newUser, signIn as signInPage } from "./dashboard";
import { adminAuth, newBusiness, snap, type Business } from "./helpers";
import { startReceiver } from "./webhook-receiver";

/**
 * The dashboard's Developers, Settings and Members sections in the production build: an owner
 * (made through the admin API) signs in, creates and revokes an API key (the API then answers
 * 401), rotates the webhook secret and sends a test event to a real receiver, previews wallet
 * addresses before saving a key, and invites a developer, who opens the link in a fresh browser,
 * sets a password and signs in.
 */

const FLOW = "dashboard-developers";
const unique = (name: string) => `${name}-${Date.now()}-${Math.random().toString(36).slice(2, 6)}@shop.example`;

/** Signs in through the page and waits until it has left the sign-in page. */
async function signIn(page: Page, user: { email: string; password: string }) {
  await signInPage(page, user);
  await page.waitForURL((url) => !url.pathname.startsWith("/dashboard/sign-in"));
}

let receiver: Awaited<ReturnType<typeof startReceiver>>;
test.beforeAll(async () => {
  receiver = await startReceiver();
});
test.afterAll(async () => {
  await receiver.close();
});

test("developers, settings and members: keys, webhooks, address preview, invitation", async ({ page, request, browser }) => {
  test.setTimeout(120_000);
  const b: Business = await newBusiness(request, { name: "Dashboard shop" });
  const owner = await newUser(request, b.businessId, "owner"); // POST /admin/v1/users
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
  await signIn(page, owner);
  const base = `/dashboard/${b.businessId}`;

  // Developers: the business id, then a key shown once with a copy button.
  await page.goto(`${base}/developers`);
  await expect(page.getByRole("heading", { name: "Developers" })).toBeVisible();
  await expect(page.getByTestId("business-id")).toHaveText(String(b.businessId));
  await snap(page, FLOW, "01-developers");
  await page.getByLabel("Lifetime of the new key").selectOption({ label: "90 days" });
  await page.getByRole("button", { name: "Create API key" }).click();
  const shown = page.getByTestId("new-api-key");
  await expect(shown).toContainText("shown only once");
  const apiKey = (await page.getByTestId("new-api-key-value").textContent())!.trim();
  const keyId = (await shown.textContent())!.match(/key_[A-Za-z0-9_-]+/)![0];
  await shown.getByRole("button", { name: /Copy/ }).click();
  await expect(shown.getByRole("button", { name: /Copied/ })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(apiKey);
  await snap(page, FLOW, "02-key-created");
  const v1 = `/v1/businesses/${b.businessId}/payments`;
  expect((await request.get(v1, { headers: { authorization: `Bearer ${apiKey}` } })).status()).toBe(200);
  await page.getByRole("button", { name: "I have stored it" }).click();
  await expect(page.getByTestId("new-api-key")).toHaveCount(0);

  // Its last use shows; then revoke it, and the API answers 401.
  await page.reload();
  const row = page.locator(`[data-key-id="${keyId}"]`);
  await expect(row.getByTestId("key-last-used")).not.toHaveText("never");
  await row.getByRole("button", { name: `Revoke ${keyId}` }).click();
  await row.getByRole("button", { name: "Revoke now" }).click();
  await expect(page.getByText(`Key ${keyId} is revoked`)).toBeVisible();
  await expect(row).toContainText("Revoked");
  const refused = await request.get(v1, { headers: { authorization: `Bearer ${apiKey}` } });
  expect(refused.status()).toBe(401);
  expect((await refused.json()).detail).toMatch(/revoked/);
  await snap(page, FLOW, "03-key-revoked");

  // Webhooks: the endpoint (the server's field error first), the secret revealed and rotated, a signed test event in the log.
  await page.getByLabel("Endpoint URL").fill("ftp://shop.example/hooks");
  await page.getByRole("button", { name: "Save URL" }).click();
  await expect(page.getByText("Not saved: see the messages beside the fields.")).toBeVisible();
  await expect(page.getByLabel("Endpoint URL")).toHaveAttribute("aria-invalid", "true");
  await page.getByLabel("Endpoint URL").fill(receiver.url);
  await page.getByRole("button", { name: "Save URL" }).click();
  await expect(page.getByText("Webhook URL saved.")).toBeVisible();
  await page.getByRole("button", { name: "Reveal signing secret" }).click();
  await expect(page.getByTestId("webhook-secret")).toHaveText(b.webhookSecret);
  await page.getByRole("button", { name: "Rotate secret" }).click();
  await page.getByRole("button", { name: "Rotate now" }).click();
  await expect(page.getByText("Secret rotated")).toBeVisible();
  const rotated = (await page.getByTestId("webhook-secret").textContent())!.trim();
  expect(rotated).toMatch(/^whsec_/);
  expect(rotated).not.toBe(b.webhookSecret);
  await page.getByRole("button", { name: "Send a test event" }).click();
  await expect(page.getByTestId("test-event-status")).toContainText("Test event delivered", { timeout: 20_000 });
  const hit = receiver.received.find((r) => r.event.EventType === "WEBHOOK_TEST")!;
  expect(new Webhook(rotated).verify(hit.body, hit.headers)).toMatchObject({ EventType: "WEBHOOK_TEST", BusinessId: b.businessId });
  expect(() => new Webhook(b.webhookSecret).verify(hit.body, hit.headers)).toThrow();
  const logged = page.locator('[data-testid="delivery-row"][data-event-type="WEBHOOK_TEST"]');
  await expect(logged).toHaveCount(1);
  await expect(logged).toHaveAttribute("data-status", "succeeded");
  await page.getByLabel("Status", { exact: true }).selectOption("failed");
  await page.getByRole("button", { name: "Filter" }).click();
  await page.waitForURL(/status=failed/);
  await expect(page.getByText("No deliveries with status Failed (failed) yet.")).toBeVisible();
  await page.getByLabel("Status", { exact: true }).selectOption("succeeded");
  await page.getByRole("button", { name: "Filter" }).click();
  await page.waitForURL(/status=succeeded/);
  await expect(logged).toHaveCount(1);
  await snap(page, FLOW, "04-webhooks-test-event");
  await page.setViewportSize({ width: 390, height: 844 });
  await snap(page, FLOW, "05-developers-phone");
  await page.setViewportSize({ width: 1280, height: 720 });

  // Settings: a wallet key's addresses are shown and must be confirmed before it is saved.
  await page.goto(`${base}/settings`);
  await expect(page.getByRole("heading", { name: "Settings" })).toBeVisible();
  await page.getByLabel("Business name").fill("Dashboard shop EU");
  const btc = page.getByTestId("wallet-key-BITCOIN");
  await btc.getByRole("textbox").fill(TEST_EXTENDED_PUBLIC_KEYS.BITCOIN);
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(btc).toContainText("preview the addresses");
  await btc.getByRole("button", { name: /Show addresses/ }).click();
  const addresses = btc.getByTestId("preview-address");
  await expect(addresses).toHaveCount(5);
  await expect(addresses.first()).toHaveText("bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu");
  await snap(page, FLOW, "06-settings-address-preview");
  await btc.getByLabel("These addresses match my wallet").check();
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByText("Settings saved.")).toBeVisible();
  await expect(page.getByRole("heading", { level: 1, name: "Dashboard shop EU" })).toBeVisible();
  const saved = (await (await request.get(`/admin/v1/businesses/${b.businessId}`, { headers: adminAuth })).json()).data;
  expect(saved).toMatchObject({ name: "Dashboard shop EU", extendedPublicKeys: { BITCOIN: TEST_EXTENDED_PUBLIC_KEYS.BITCOIN } });
  await snap(page, FLOW, "07-settings-saved");

  // Members: an invitation link, shown once, opened in a fresh browser by the invitee.
  await page.goto(`${base}/members`);
  const invitee = unique("dev");
  await page.getByLabel("Email", { exact: true }).fill(invitee);
  await page.getByLabel("Role", { exact: true }).selectOption("developer");
  await page.getByRole("button", { name: "Create invitation" }).click();
  const url = (await page.getByTestId("invite-url").textContent())!.trim();
  expect(url).toMatch(/\/dashboard\/invite\/[A-Za-z0-9_-]{43}$/);
  await snap(page, FLOW, "08-invitation-link");

  const fresh = await browser.newContext();
  const other = await fresh.newPage();
  await other.goto(url);
  await expect(other.getByRole("heading", { name: "Join Dashboard shop EU" })).toBeVisible();
  await other.getByLabel("Your name").fill("Dee Veloper");
  await other.getByLabel("Password (at least 10 characters)").fill("short");
  await other.getByLabel("Password again").fill("short");
  await other.getByRole("button", { name: "Create my account" }).click();
  await expect(other.getByText("must be at least 10 characters")).toBeVisible();
  const password = "developer password 1";
  await other.getByLabel("Password (at least 10 characters)").fill(password);
  await other.getByLabel("Password again").fill(password);
  await other.getByRole("button", { name: "Create my account" }).click();
  await expect(other.getByTestId("invite-accepted")).toContainText("Your account is ready");
  await snap(other, FLOW, "09-invitation-accepted");
  await other.getByRole("link", { name: "Continue to sign in" }).click();
  await other.waitForURL(/\/dashboard\/sign-in/);
  await signIn(other, { email: invitee, password });
  await other.goto(`${base}/developers`);
  await expect(other.getByText("your role: developer")).toBeVisible();
  await expect(other.getByRole("button", { name: "Reveal signing secret" })).toBeVisible();
  // A developer has no Settings or Members section.
  expect((await other.goto(`${base}/members`))?.status()).toBe(404);
  await snap(other, FLOW, "10-invitee-signed-in");
  await other.goto(url);
  await expect(other.getByRole("heading", { name: "This invitation does not work" })).toBeVisible();
  await fresh.close();

  await page.reload();
  await expect(page.locator(`[data-testid="member-row"][data-email="${invitee}"]`)).toContainText("two-factor sign-in off");
  await snap(page, FLOW, "11-members");

  // A viewer sees the Developers page without the secret and without the controls.
  const viewer = await newUser(request, b.businessId, "viewer");
  const viewerContext = await browser.newContext();
  const vp = await viewerContext.newPage();
  await signIn(vp, viewer);
  await vp.goto(`${base}/developers`);
  await expect(vp.getByText("Hidden: your role cannot see secrets.")).toBeVisible();
  await expect(vp.getByTestId("delivery-row").first()).toBeVisible();
  for (const control of ["Create API key", "Reveal signing secret", "Rotate secret", "Send a test event", "Save URL"]) {
    await expect(vp.getByRole("button", { name: control })).toHaveCount(0);
  }
  await expect(vp.getByRole("button", { name: /^Revoke/ })).toHaveCount(0);
  await snap(vp, FLOW, "12-viewer");
  await viewerContext.close();
});
