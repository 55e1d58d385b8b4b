import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { startSmtpServer } from "../test/emails/smtp";
import { newUser, signIn } from "./dashboard";
import { apiAuth, createPayment, fetchPayment, newBusiness, snap, type Business } from "./helpers";
import { e2eSmtpPort } from "./smtp-env";

/*
 * Customer e-mails from the production build: a customer on a German checkout gives their
 * address, the payment is paid on the simulated chain, and the receipt reaches a real SMTP server
 * (the `smtp-server` package on the port the server's SMTP_URL names, e2e/smtp-env.ts). Its HTML
 * is opened in chromium with every network request refused, then shown on the payment's
 * dashboard page with its attempt.
 */

const de = JSON.parse(readFileSync(path.join("messages", "de.json"), "utf8")) as { checkout: { email: Record<string, string> } };

async function simulate(request: APIRequestContext, b: Business, id: string, data: Record<string, unknown>) {
  const res = await request.post(`/v1/businesses/${b.businessId}/payments/${id}/simulate`, { headers: apiAuth(b), data });
  expect(res.status(), await res.text()).toBe(200);
}

test("a German customer's receipt reaches the SMTP server in German, renders with nothing remote, and is logged on the dashboard", async ({ browser, request }) => {
  const smtp = await startSmtpServer({ port: e2eSmtpPort() });
  try {
    const b = await newBusiness(request, { displayName: "Café Lumière" });
    const p = await createPayment(request, b, { currency: "EUR", amount: 24.5, name: "Coffee beans" });

    const customer = await browser.newContext({ locale: "de-DE", extraHTTPHeaders: { "accept-language": "de-DE,de;q=0.9" } });
    const checkout = await customer.newPage();
    await checkout.goto(p.url);
    // An SMTP server is configured: the field promises the receipt.
    const field = checkout.getByLabel(de.checkout.email.label);
    await field.fill("kundin@example.com");
    await checkout.getByRole("button", { name: de.checkout.email.save }).click();
    await expect(field).toHaveCount(0);
    await customer.close();

    await simulate(request, b, p.id, { action: "select", coin: "BITCOIN" });
    await simulate(request, b, p.id, { action: "pay", confirmations: 0 });
    await simulate(request, b, p.id, { action: "confirm" });
    const record = await fetchPayment(request, b, p.id);
    expect(record.status).toBe("COMPLETED");

    const toCustomer = () => smtp.received.filter((r) => r.to.includes("kundin@example.com"));
    await expect.poll(() => toCustomer().map((r) => r.mail.subject), { timeout: 20_000 }).toEqual([
      "Ihre Zahlung an Café Lumière wurde erkannt",
      "Beleg für Ihre Zahlung an Café Lumière",
    ]);
    const receipt = toCustomer()[1].mail;
    const hash = record.platformCryptoCharge.transaction.id as string;
    expect(receipt.from?.value).toEqual([{ name: "E2E Payments", address: "receipts@pay.e2e.test" }]);
    expect(receipt.text).toContain(`Zahlungsreferenz: ${p.id}`);
    expect(receipt.text).toContain(`https://mempool.space/tx/${hash}`);
    expect(receipt.text).toMatch(/Betrag: 24,50\s€/);

    const mail = await browser.newPage({ viewport: { width: 640, height: 720 } });
    const requested: string[] = [];
    await mail.route("**/*", (route) => (requested.push(route.request().url()), route.abort()));
    await mail.setContent(receipt.html as string, { waitUntil: "load" });
    await expect(mail.getByRole("heading", { name: "Zahlung erhalten" })).toBeVisible();
    await expect(mail.getByRole("link", { name: hash })).toHaveAttribute("href", `https://mempool.space/tx/${hash}`);
    expect(requested, "the e-mail loads nothing remote").toEqual([]);
    await snap(mail, "customer-emails", "receipt-de");
    await mail.close();

    const owner = await newUser(request, b.businessId);
    const dashboard = await browser.newPage();
    await signIn(dashboard, owner);
    await dashboard.waitForURL(/\/dashboard\/\d+/);
    await dashboard.goto(`/dashboard/${b.businessId}/payments/${p.id}`);
    const emails = dashboard.getByTestId("customer-email");
    await expect(emails).toHaveCount(2);
    await expect(emails.nth(1)).toHaveAttribute("data-kind", "receipt");
    await expect(emails.nth(1).getByTestId("email-status")).toHaveAttribute("data-status", "sent");
    await expect(emails.nth(1).getByTestId("email-attempt")).toHaveCount(1);
    await expect(emails.nth(1)).toContainText("kundin@example.com");
    await dashboard.getByTestId("customer-emails").scrollIntoViewIfNeeded();
    await snap(dashboard, "customer-emails", "dashboard-log");
  } finally {
    await smtp.close();
  }
});
