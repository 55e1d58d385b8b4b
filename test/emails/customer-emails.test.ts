import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { asc, eq, inArray } from "drizzle-orm";
import { getDb } from "@/db/client";
import { customerEmailAttempts, customerEmails, type CustomerEmailRow } from "@/db/schema";
import { insertCustomerEmails } from "@/db/queries/customer-emails";
import { patchBusiness } from "@/lib/businesses/businesses";
import { setCustomerEmail } from "@/lib/checkout/customer";
import { EMAIL_LEASE_MS, EMAIL_MAX_ATTEMPTS, EMAIL_RETRY_DELAYS_MS, NO_SMTP, sendDueEmails, smtpTransport, type MailTransport } from "@/lib/emails/send";
import { expireDuePayments } from "@/lib/payments/expiry";
import { dashboardPayment } from "@/lib/dashboard/payments";
import { createPayment, newBusiness } from "../helpers";
import { manualClock, oneWebhookFileAtATime, sim } from "../webhooks/support";
import { startSmtpServer } from "./smtp";
import { userOf } from "../dashboard/support";

// Before the configuration is first read: a block explorer for Bitcoin, none for the other networks.
vi.hoisted(() => {
  process.env.EXPLORER_TX_URL_BITCOIN = "https://mempool.space/tx/{txid}";
  process.env.MAIL_FROM = "Pay Test <receipts@pay.test>";
});

/*
 * Customer e-mails end to end against a real SMTP server on a local port: written with the status
 * change, sent by "send what is due", retried, given up, and recorded attempt by attempt. The
 * clock is the test's (nothing sleeps); the shared-database lock keeps other files' due e-mails
 * out of this file's passes, as for webhooks.
 */
oneWebhookFileAtATime();

const FROM = "Pay Test <receipts@pay.test>";
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let transport: MailTransport;

beforeAll(async () => {
  smtp = await startSmtpServer({ refuse: (a) => a.startsWith("nobody@") });
  transport = smtpTransport(smtp.url)!;
});
afterAll(() => smtp.close());
// Whatever a test left due is sent before the next, whose passes would otherwise take it too.
afterEach(() => drain(manualClock(Date.now() + 7 * 86_400_000)));

async function emailsOf(paymentId: string): Promise<CustomerEmailRow[]> {
  const db = await getDb();
  return db.select().from(customerEmails).where(eq(customerEmails.paymentId, paymentId)).orderBy(asc(customerEmails.id));
}

async function attemptsOf(...emailIds: number[]) {
  const db = await getDb();
  return db.select().from(customerEmailAttempts).where(inArray(customerEmailAttempts.emailId, emailIds)).orderBy(asc(customerEmailAttempts.id));
}

/** "Send what is due" until nothing is left at the clock's time. */
async function drain(t: { clock: () => Date }, via: MailTransport | null = transport) {
  const db = await getDb();
  let total = 0;
  for (;;) {
    const n = await sendDueEmails(db, { transport: via, from: FROM, clock: t.clock });
    total += n;
    if (n === 0) return total;
  }
}

type B = Awaited<ReturnType<typeof newBusiness>>;

/** A Bitcoin payment of 10 USD paid in full and confirmed: PENDING (detected), then COMPLETED (the receipt). */
async function paidPayment(b: B, body: Record<string, unknown> = {}) {
  const { id } = await createPayment(b, { currency: "USD", amount: 10, ...body });
  return id;
}
async function payInFull(b: B, id: string) {
  await sim(b, id, { action: "select", coin: "BITCOIN" });
  await sim(b, id, { action: "pay", confirmations: 0 });
  return sim(b, id, { action: "confirm" });
}

describe("customer e-mails", () => {
  it("a German customer gets a detected notice and a German receipt: merchant, amounts, the hash linked to the explorer, reference, date; plain text and HTML, nothing remote", async () => {
    const b = await newBusiness({ displayName: "Rösterei <Müller & Söhne>" });
    const id = await paidPayment(b);
    await setCustomerEmail(await getDb(), id, "kunde@example.com", "de");
    const record = await payInFull(b, id);
    expect(record.status).toBe("COMPLETED");

    const rows = await emailsOf(id);
    expect(rows.map((r) => [r.kind, r.status, r.locale, r.recipient])).toEqual([
      ["detected", "pending", "de", "kunde@example.com"],
      ["receipt", "pending", "de", "kunde@example.com"],
    ]);
    const t = manualClock(rows[1].nextAttemptAt!.getTime());
    expect(await drain(t)).toBe(2);

    const receiptRow = (await emailsOf(id))[1];
    expect(receiptRow).toMatchObject({ status: "sent", attempts: 1, lastError: null });
    const [got] = smtp.withId(receiptRow.messageId);
    expect(got.to).toEqual(["kunde@example.com"]);
    expect(got.from).toBe("receipts@pay.test");
    const mail = got.mail;
    expect(mail.subject).toBe("Beleg für Ihre Zahlung an Rösterei <Müller & Söhne>");
    expect(mail.headers.get("auto-submitted")).toBe("auto-generated");
    const hash = record.platformCryptoCharge.transaction.id as string;
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    const text = mail.text!;
    for (const piece of ["Zahlung erhalten", "Händler: Rösterei <Müller & Söhne>", "Betrag: 10,00\u00a0$", `Gezahlter Betrag: ${String(record.platformCryptoCharge.amount).replace(".", ",")} BTC`, `Transaktion: ${hash}`, `https://mempool.space/tx/${hash}`, `Zahlungsreferenz: ${id}`, "Datum: "]) {
      expect(text).toContain(piece);
    }
    const html = mail.html as string;
    expect(html).toContain('<html lang="de" dir="ltr">');
    expect(html).toContain("Rösterei &lt;Müller &amp; Söhne&gt;"); // escaped: a name is never markup
    expect(html).toContain(`<a href="https://mempool.space/tx/${hash}"`);
    // No remote content: no image, stylesheet, font or script; the one link is the explorer's.
    expect(html).not.toMatch(/<(img|link|script|style|iframe)\b|src=|url\(/i);
    expect([...html.matchAll(/href="([^"]*)"/g)].map((m) => m[1])).toEqual([`https://mempool.space/tx/${hash}`]);
    expect(mail.attachments).toEqual([]);

    const detected = smtp.withId((await emailsOf(id))[0].messageId);
    expect(detected).toHaveLength(1);
    expect(detected[0].mail.subject).toBe("Ihre Zahlung an Rösterei <Müller & Söhne> wurde erkannt");
  });

  it("an Arabic receipt is right to left; a customerEmail the API set gets English", async () => {
    const b = await newBusiness();
    const ar = await paidPayment(b);
    await setCustomerEmail(await getDb(), ar, "ar@example.com", "ar");
    const en = await paidPayment(b, { customerEmail: "api@example.com" });
    await payInFull(b, ar);
    await payInFull(b, en);
    const [arReceipt] = (await emailsOf(ar)).filter((r) => r.kind === "receipt");
    const [enReceipt] = (await emailsOf(en)).filter((r) => r.kind === "receipt");
    expect(arReceipt.html).toContain('<html lang="ar" dir="rtl">');
    expect(arReceipt.subject).toBe(`إيصال دفعتك إلى ${b.name}`);
    expect(enReceipt).toMatchObject({ locale: "en", subject: `Receipt for your payment to ${b.name}` });
    expect(enReceipt.html).toContain('<html lang="en" dir="ltr">');
  });

  it("underpaid tells what is still due and links the checkout; expired is told too", async () => {
    const b = await newBusiness();
    const id = await paidPayment(b, { customerEmail: "short@example.com", amount: 100 });
    await sim(b, id, { action: "select", coin: "BITCOIN" });
    const after = await sim(b, id, { action: "pay", amount: 0.0001, confirmations: 1 });
    expect(after.status).toBe("UNDERPAID");
    await expireDuePayments(await getDb(), new Date(Date.now() + 8 * 86_400_000));
    const rows = await emailsOf(id);
    expect(rows.map((r) => r.kind)).toEqual(["underpaid", "expired"]);
    const underpaid = rows.find((r) => r.kind === "underpaid")!;
    expect(underpaid.subject).toBe(`Your payment to ${b.name} is incomplete`);
    expect(underpaid.text).toContain("Amount paid: 0.0001 BTC");
    expect(underpaid.text).toMatch(/Amount still due: 0\.\d+ BTC/);
    expect(underpaid.text).toContain(`Complete the payment: http://pay.test/pay/${id}`);
    expect(underpaid.html).toContain(`href="http://pay.test/pay/${id}"`);
    const expired = rows.find((r) => r.kind === "expired")!;
    expect(expired.subject).toBe(`Your payment to ${b.name} has expired`);
  });

  it("each kind can be switched off per business; a payment without a customer e-mail gets none", async () => {
    const b = await newBusiness();
    await patchBusiness(await getDb(), b.businessId, { emailNotifications: { receipt: true, detected: false, underpaid: true, expired: true } });
    const id = await paidPayment(b, { customerEmail: "quiet@example.com" });
    await payInFull(b, id);
    expect((await emailsOf(id)).map((r) => r.kind)).toEqual(["receipt"]);
    const none = await paidPayment(b);
    await payInFull(b, none);
    expect(await emailsOf(none)).toEqual([]);
  });

  it("one message per event: the same event cannot be written twice, and two workers at once send it once", async () => {
    const b = await newBusiness();
    const id = await paidPayment(b, { customerEmail: "once@example.com" });
    await payInFull(b, id);
    const rows = await emailsOf(id);
    const [, { id: _id, ...receipt }] = rows;
    expect(await insertCustomerEmails(await getDb(), [receipt])).toEqual([]);
    const t = manualClock(rows[1].nextAttemptAt!.getTime());
    const db = await getDb();
    await Promise.all([1, 2, 3].map(() => sendDueEmails(db, { transport, from: FROM, clock: t.clock })));
    await drain(t);
    for (const row of rows) expect(smtp.withId(row.messageId)).toHaveLength(1);
  });

  it("a worker killed after the server accepted and before marking it sent: the e-mail is sent again after the lease, with the same Message-ID, and then never again", async () => {
    const b = await newBusiness();
    const id = await paidPayment(b, { customerEmail: "twice@example.com" });
    await payInFull(b, id);
    const receipt = (await emailsOf(id)).find((r) => r.kind === "receipt")!;
    const t = manualClock(receipt.nextAttemptAt!.getTime());
    // The dying worker: the SMTP server accepts the message, then the worker never runs another line.
    const dying: MailTransport = { sendMail: async (m) => (await transport.sendMail(m), new Promise<never>(() => {})) };
    void sendDueEmails(await getDb(), { transport: dying, from: FROM, clock: t.clock });
    await vi.waitFor(() => expect(smtp.withId(receipt.messageId)).toHaveLength(1));
    expect((await emailsOf(id)).find((r) => r.id === receipt.id)).toMatchObject({ status: "pending", attempts: 0 });

    // While its lease holds nobody sends it; after, the next worker does, as the same message.
    t.advance(EMAIL_LEASE_MS - 1);
    await drain(t);
    expect(smtp.withId(receipt.messageId)).toHaveLength(1);
    t.advance(1);
    await drain(t);
    const copies = smtp.withId(receipt.messageId);
    expect(copies).toHaveLength(2);
    expect(copies[1].mail.messageId).toBe(copies[0].mail.messageId);
    expect(copies[1].mail.date).toEqual(copies[0].mail.date);
    expect(copies[1].mail.html).toBe(copies[0].mail.html);
    expect(await emailsOf(id).then((r) => r.find((x) => x.id === receipt.id))).toMatchObject({ status: "sent", attempts: 1 });
    t.advance(24 * 3_600_000);
    await drain(t);
    expect(smtp.withId(receipt.messageId)).toHaveLength(2);
  });

  it("a refused recipient (550) is given up at once, with the server's answer recorded", async () => {
    const b = await newBusiness();
    const id = await paidPayment(b, { customerEmail: "nobody@example.com" });
    await payInFull(b, id);
    const rows = await emailsOf(id);
    const t = manualClock(rows[1].nextAttemptAt!.getTime());
    await drain(t);
    const after = await emailsOf(id);
    for (const row of after) {
      expect(row).toMatchObject({ status: "failed", attempts: 1, nextAttemptAt: null, sentAt: null });
      expect(row.lastError).toContain("Recipient address rejected");
    }
    const attempts = await attemptsOf(...after.map((r) => r.id));
    expect(attempts.map((a) => [a.succeeded, a.smtpCode])).toEqual([
      [false, 550],
      [false, 550],
    ]);
    expect(smtp.received.filter((r) => r.to.includes("nobody@example.com"))).toEqual([]);

    // The payment's dashboard page shows them, to every member, with the server's answer.
    const viewer = await userOf(b.businessId, "viewer");
    const { emails } = await dashboardPayment(await getDb(), viewer, String(b.businessId), id);
    expect(emails.map((e) => [e.kind, e.status, e.recipient, e.attempts.map((a) => a.smtpCode)])).toEqual([
      ["detected", "failed", "nobody@example.com", [550]],
      ["receipt", "failed", "nobody@example.com", [550]],
    ]);
    expect(emails[1].lastError).toContain("User unknown");
    expect(emails[1].text).toContain(id);
  });

  it("a server that is down: retried on the schedule, then given up after the last attempt, each attempt recorded", async () => {
    const b = await newBusiness();
    const id = await paidPayment(b, { customerEmail: "later@example.com" });
    await payInFull(b, id);
    const receipt = (await emailsOf(id)).find((r) => r.kind === "receipt")!;
    const down = await startSmtpServer();
    await down.close(); // a port where nothing listens now
    const downTransport = smtpTransport(down.url)!;
    const t = manualClock(receipt.nextAttemptAt!.getTime());
    await drain(t, downTransport);
    for (const delay of EMAIL_RETRY_DELAYS_MS) {
      const row = (await emailsOf(id)).find((r) => r.id === receipt.id)!;
      expect(row.status).toBe("pending");
      expect(row.nextAttemptAt!.getTime()).toBe(t.now() + delay);
      t.advance(delay - 1);
      await drain(t, downTransport);
      expect((await emailsOf(id)).find((r) => r.id === receipt.id)!.attempts).toBe(row.attempts); // not before its time
      t.advance(1);
      await drain(t, downTransport);
    }
    const row = (await emailsOf(id)).find((r) => r.id === receipt.id)!;
    expect(row).toMatchObject({ status: "failed", attempts: EMAIL_MAX_ATTEMPTS, nextAttemptAt: null, sentAt: null });
    expect(row.lastError).toMatch(/ECONNREFUSED|connect/i);
    const attempts = await attemptsOf(receipt.id);
    expect(attempts).toHaveLength(EMAIL_MAX_ATTEMPTS);
    expect(attempts.every((a) => !a.succeeded && a.smtpCode === null)).toBe(true);
  });

  it("without an SMTP server the e-mails are kept, not sent, and say why", async () => {
    const b = await newBusiness();
    const id = await paidPayment(b, { customerEmail: "kept@example.com" });
    await payInFull(b, id);
    const t = manualClock((await emailsOf(id))[1].nextAttemptAt!.getTime());
    await drain(t, null);
    const rows = await emailsOf(id);
    expect(rows.map((r) => [r.kind, r.status, r.lastError, r.attempts])).toEqual([
      ["detected", "unsent", NO_SMTP, 0],
      ["receipt", "unsent", NO_SMTP, 0],
    ]);
    expect(rows[1].html).toContain("Receipt");
  });
});
