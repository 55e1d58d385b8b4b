import { readFileSync } from "node:fs";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { apiAuth, createPayment, newBusiness, snap, type Business } from "./helpers";
import { newUser, signIn } from "./dashboard";
import { startReceiver } from "./webhook-receiver";

/**
 * The dashboard's Payments section as a merchant uses it: the table, filters kept in the URL
 * (shareable, kept on reload, wrong values shown with the API's field errors), the chart, the
 * CSV download, a payment's page (charge, transactions, customer, metadata, note, webhook
 * deliveries and redelivery), the phone layout, and nothing of another merchant's payments.
 */

async function simulate(request: APIRequestContext, b: Business, id: string, data: Record<string, unknown>) {
  const res = await request.post(`/v1/businesses/${b.businessId}/payments/${id}/simulate`, { headers: apiAuth(b), data });
  expect(res.status(), await res.text()).toBe(200);
}

let receiver: Awaited<ReturnType<typeof startReceiver>>;
test.beforeEach(async () => {
  receiver = await startReceiver();
});
test.afterEach(async () => {
  await receiver.close();
});

test("an owner filters, exports and opens payments, edits a note and redelivers a webhook", async ({ page, request }) => {
  test.setTimeout(120_000);
  const b = await newBusiness(request, { name: "Payments dashboard shop", webhookUrl: receiver.url });
  const other = await newBusiness(request, { name: "Someone else's shop" });
  const poster = await createPayment(request, b, { currency: "EUR", amount: 12.5, name: "Poster", customerEmail: "ann@shop.example" });
  const mug = await createPayment(request, b, { currency: "USD", amount: 40, name: "Mug, large", metadata: { orderId: "A-1042" }, customerIp: "8.8.8.8" });
  await simulate(request, b, mug.id, { action: "select", coin: "BITCOIN" });
  await simulate(request, b, mug.id, { action: "pay" });
  await simulate(request, b, mug.id, { action: "confirm" });
  const theirs = await createPayment(request, other, { currency: "USD", amount: 5, name: "Not yours" });
  const owner = await newUser(request, b.businessId, "owner");

  await signIn(page, owner);
  await expect(page).toHaveURL(new RegExp(`/dashboard/${b.businessId}$`));
  await page.getByRole("navigation", { name: "Business sections" }).getByRole("link", { name: "Payments" }).click();
  const listUrl = new RegExp(`/dashboard/${b.businessId}/payments$`);
  await expect(page).toHaveURL(listUrl);
  const table = page.getByRole("region", { name: "Payments table" });
  await expect(table.getByRole("row")).toHaveCount(3); // the header and two payments
  await expect(table.getByRole("link", { name: "Poster" })).toBeVisible();
  await expect(page.getByTestId("results-count")).toHaveText("2 payments · page 1 of 1");
  await expect(page.getByTestId("volume-summary")).toContainText("2 created, 1 completed, $40.00 completed net in USD");
  await snap(page, "dashboard-payments", "list");

  // Filters go into the URL as the API's own parameters, and a reload keeps them.
  await page.getByRole("checkbox", { name: "Completed" }).check();
  await page.getByLabel("Search").fill("mug");
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(page).toHaveURL(/\?statuses=COMPLETED&searchString=mug$/);
  await expect(table.getByRole("row")).toHaveCount(2);
  await page.reload();
  await expect(page.getByRole("checkbox", { name: "Completed" })).toBeChecked();
  await expect(page.getByLabel("Search")).toHaveValue("mug");
  await expect(table.getByRole("link", { name: "Mug, large" })).toBeVisible();
  await expect(table.getByRole("row")).toHaveCount(2);
  await snap(page, "dashboard-payments", "filtered");

  // The CSV of the filtered view.
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Export CSV" }).click()]);
  expect(download.suggestedFilename()).toMatch(new RegExp(`^payments-${b.businessId}-test-\\d{4}-\\d{2}-\\d{2}\\.csv$`));
  const csv = readFileSync((await download.path())!, "utf8").split("\r\n");
  expect(csv[0]).toBe("id,createdAt,status,completedAt,amount,currency,coin,coinAmount,exchangeRate,endAmount,platformFee,netAmountUsd,customerEmail,name,description,transactionIds");
  expect(csv[1]).toMatch(new RegExp(`^${mug.id},[^,]+,COMPLETED,[^,]+,40,USD,BITCOIN,[0-9.]+,[0-9.]+,40,0,40,,"Mug, large",,[0-9a-f]{64}$`));
  expect(csv.slice(2)).toEqual([""]);

  // A wrong value is shown with the schema's message, beside its field.
  await page.goto(`/dashboard/${b.businessId}/payments?fromAmount=ten&statuses=PAID`);
  await expect(page.getByRole("alert").filter({ hasText: "These filters cannot be applied" })).toBeVisible();
  await expect(page.getByLabel("Amount at least")).toHaveAttribute("aria-invalid", "true");
  await expect(page.locator("#fromAmount-error")).toContainText("must be a decimal number such as 10 or 12.50");
  await expect(page.locator("#statuses-error")).toContainText("Invalid option");
  await snap(page, "dashboard-payments", "invalid-filter");
  await page.getByRole("link", { name: "Clear filters" }).click();
  await expect(page).toHaveURL(listUrl);
  await expect(table.getByRole("row")).toHaveCount(3);

  // The payment's page.
  await table.getByRole("link", { name: "Mug, large" }).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/${b.businessId}/payments/${mug.id}$`));
  await expect(page.getByRole("heading", { level: 2, name: "Mug, large" })).toBeVisible();
  await expect(page.getByTestId("payment-status").locator("[data-status]")).toHaveAttribute("data-status", "COMPLETED");
  const charge = page.getByRole("region", { name: "On-chain transactions" });
  await expect(charge.getByTestId("transaction")).toHaveCount(1);
  await expect(page.getByRole("region", { name: "On-chain transactions" }).getByRole("cell").nth(2)).not.toHaveText("0");
  await expect(page.getByRole("region", { name: "Metadata" }).getByText("A-1042")).toBeVisible();
  // The customer's address, placed by the bundled databases, with their credit.
  const ipRow = page.getByRole("region", { name: "Customer IP addresses" }).getByRole("row").nth(1);
  await expect(ipRow.getByRole("cell")).toHaveText(["8.8.8.8", "US", "Mountain View", "Google LLC", /^\d{4}-\d{2}-\d{2} /]);
  await expect(page.getByRole("region", { name: "Customer", exact: true }).getByRole("link", { name: "IP Geolocation by DB-IP" })).toHaveAttribute("href", "https://db-ip.com");

  // The note: the schema's limit, then a note saved and still there after a reload.
  const note = page.getByLabel("Internal note (visible to your team only)");
  await note.fill("x".repeat(257));
  await page.getByRole("button", { name: "Save note" }).click();
  await expect(page.locator("#note-error")).toHaveText("Note must be at most 256 characters");
  await expect(note).toHaveValue("x".repeat(257));
  await note.fill("Gift wrap, ship Monday");
  await page.getByRole("button", { name: "Save note" }).click();
  await expect(page.getByText("Note saved.")).toBeVisible();
  await page.reload();
  await expect(note).toHaveValue("Gift wrap, ship Monday");

  // Deliveries: the server's runner has sent every event; one is sent again on request.
  const deliveries = page.getByTestId("delivery");
  await expect(async () => {
    await page.reload();
    await expect(deliveries).toHaveCount(5);
    await expect(page.locator('[data-testid="delivery-status"][data-status="succeeded"]')).toHaveCount(5, { timeout: 500 });
  }).toPass({ timeout: 15_000 });
  const completed = deliveries.filter({ has: page.getByRole("heading", { name: "PAYMENT_COMPLETED" }) });
  await expect(completed.getByTestId("attempt")).toHaveCount(1);
  await snap(page, "dashboard-payments", "detail");
  const messageId = (await completed.getByText(/^msg_/).textContent())!.trim();
  await completed.getByRole("button", { name: /^Redeliver PAYMENT_COMPLETED/ }).click();
  await expect(completed.getByText(/^Sent again \(attempt 2\): delivered, HTTP 200\.$/)).toBeVisible();
  await expect(completed.getByTestId("attempt")).toHaveCount(2);
  expect(receiver.received.filter((r) => r.headers["hook-id"] === messageId)).toHaveLength(2);
  await snap(page, "dashboard-payments", "redelivered");

  // Another merchant's payment: the 404 page, under our business id and under theirs.
  for (const path of [`/dashboard/${b.businessId}/payments/${theirs.id}`, `/dashboard/${other.businessId}/payments/${theirs.id}`, `/dashboard/${b.businessId}/payments/not-an-id`]) {
    const res = await page.goto(path);
    expect(res?.status(), path).toBe(404);
  }
  await snap(page, "dashboard-payments", "not-found");
  const csvOfOther = await page.request.get(`/dashboard/${other.businessId}/payments/export`);
  expect(csvOfOther.status()).toBe(404);

  // A phone: one card per payment instead of the table, and nothing scrolls sideways.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/dashboard/${b.businessId}/payments`);
  await expect(page.getByRole("region", { name: "Payments table" })).toBeHidden();
  const cards = page.getByRole("list", { name: "Payments" }).getByRole("listitem");
  await expect(cards).toHaveCount(2);
  await expect(cards.filter({ hasText: "Mug, large" })).toContainText("$40.00");
  await expect(cards.filter({ hasText: "Mug, large" })).toContainText(/Bitcoin\s*[0-9.]+ BTC/);
  expect(await page.evaluate(() => document.scrollingElement!.scrollWidth - document.scrollingElement!.clientWidth)).toBeLessThanOrEqual(0);
  await snap(page, "dashboard-payments", "phone");
  expect(poster.id).not.toBe(mug.id);
});

test("a viewer sees payments and deliveries but cannot change the note or redeliver", async ({ page, request }) => {
  const b = await newBusiness(request, { name: "Viewer shop", webhookUrl: receiver.url });
  const p = await createPayment(request, b, { currency: "USD", amount: 9, name: "Sticker" });
  const viewer = await newUser(request, b.businessId, "viewer");
  await signIn(page, viewer);
  await expect(page).toHaveURL(new RegExp(`/dashboard/${b.businessId}$`));
  // The overview lists it among the recent payments.
  await page.getByRole("region", { name: "Recent payments table" }).getByRole("link", { name: "Sticker" }).click();
  await expect(page.getByRole("heading", { level: 2, name: "Sticker" })).toBeVisible();
  await expect(page.getByText("Only owners and developers can change the note.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Save note" })).toHaveCount(0);
  await expect(page.getByTestId("delivery")).toHaveCount(1);
  await expect(page.getByRole("button", { name: /^Redeliver/ })).toHaveCount(0);
  await snap(page, "dashboard-payments", "viewer-detail");
  expect(p.id).toBeTruthy();
});
