import { beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { paymentChangeMark, paymentsChangeMark } from "@/db/queries/dashboard-changes";
import { paymentsInStatus } from "@/db/queries/dashboard-overview";
import { findBusiness } from "@/db/queries/businesses";
import { payments, transfers, webhookDeliveries } from "@/db/schema";
import { createUser } from "@/lib/accounts/users";
import { changeMark } from "@/lib/dashboard/changes";
import { ATTENTION_SHOWN, businessOverview } from "@/lib/dashboard/overview";
import { expirePaymentIfDue } from "@/lib/payments/expiry";
import { createPayment, newBusiness } from "../helpers";
import { drain, manualClock, oneWebhookFileAtATime, receivers, sim } from "../webhooks/support";

/**
 * A business's overview (lib/dashboard/overview.ts over db/queries/dashboard-overview.ts) and
 * the change marks the payments pages poll (db/queries/dashboard-changes.ts), against the real
 * database: payments brought into each state through the API and its test-mode simulator, the
 * webhook runner failing for good against a receiver that answers 500.
 */

oneWebhookFileAtATime();
const receiver = receivers();

type Biz = Awaited<ReturnType<typeof newBusiness>>;
let seq = 0;
async function ownerOf(businessId: number) {
  const made = await createUser(await getDb(), { email: `overview-${Date.now()}-${++seq}@overview.test`, password: "overview test password", businessId, role: "owner" });
  return made.userId;
}

let b: Biz;
let other: Biz;
let owner: string;
const ids: Record<"completed" | "underpaid" | "late" | "held" | "dropped" | "open" | "theirs", string> = {} as never;

beforeAll(async () => {
  const hook = await receiver({ answer: "fail" });
  b = await newBusiness({ webhookUrl: hook.url });
  other = await newBusiness();
  owner = await ownerOf(b.businessId);
  const make = async (name: string, amount = 40) => (await createPayment(b, { currency: "USD", amount, name })).id;

  ids.completed = await make("Completed mug");
  await sim(b, ids.completed, { action: "select", coin: "BITCOIN" });
  await sim(b, ids.completed, { action: "pay" });
  await sim(b, ids.completed, { action: "confirm" });

  ids.underpaid = await make("Underpaid lamp");
  await sim(b, ids.underpaid, { action: "select", coin: "BITCOIN" });
  await sim(b, ids.underpaid, { action: "pay", amount: 0.00001 });
  await sim(b, ids.underpaid, { action: "confirm" });

  // Closed first (expired), then paid: the money is recorded as late.
  ids.late = await make("Expired poster");
  await sim(b, ids.late, { action: "select", coin: "BITCOIN" });
  expect(await expirePaymentIfDue(await getDb(), ids.late, new Date(Date.now() + 86_400_000))).toBe(true);
  await sim(b, ids.late, { action: "pay", amount: 0.0015 });

  // Paid, never confirmed, seen two hours ago: held.
  ids.held = await make("Held scarf");
  await sim(b, ids.held, { action: "select", coin: "BITCOIN" });
  await sim(b, ids.held, { action: "pay" });
  const db = await getDb();
  await db.update(transfers).set({ seenAt: new Date(Date.now() - 2 * 3_600_000) }).where(eq(transfers.paymentId, ids.held));

  ids.dropped = await make("Dropped desk");
  await sim(b, ids.dropped, { action: "select", coin: "BITCOIN" });
  await sim(b, ids.dropped, { action: "pay" });
  await sim(b, ids.dropped, { action: "fail" });

  ids.open = await make("Open order", 12);
  ids.theirs = (await createPayment(other, { currency: "USD", amount: 5, name: "Not yours" })).id;

  // Every webhook attempt fails, until the schedule gives up on each delivery.
  const clock = manualClock();
  for (let i = 0; i < 10; i++) {
    await drain(clock.clock);
    clock.advance(86_400_000);
  }
});

describe("the overview", () => {
  it("lists what needs attention: underpaid, late money, held and dropped transfers, failed webhooks", async () => {
    const o = await businessOverview(await getDb(), owner, b.businessId);
    const idsOf = (l: { items: { id: string }[] }) => l.items.map((p) => p.id);
    expect(idsOf(o.attention.underpaid)).toEqual([ids.underpaid]);
    expect(o.attention.underpaid).toMatchObject({ total: 1, capped: false });
    expect(o.attention.underpaid.items[0]).toMatchObject({ name: "Underpaid lamp", status: "UNDERPAID", currency: "USD", amount: "40.0000" });

    expect(idsOf(o.attention.late)).toEqual([ids.late]);
    expect(o.attention.late.items[0]).toMatchObject({ status: "EXPIRED", selectedCoin: "BITCOIN", units: "150000", coinAmount: "0.0015" });
    expect(o.attention.late.items[0].txHash).toMatch(/^[0-9a-f]{64}$/);

    expect(idsOf(o.attention.held)).toEqual([ids.held]);
    expect(o.attention.held.items[0].since!.getTime()).toBeLessThan(Date.now() - 3_600_000);

    expect(idsOf(o.attention.dropped)).toEqual([ids.dropped]);
    expect(o.attention.dropped.items[0]).toMatchObject({ status: "FAILED" });
    expect(o.attention.dropped.items[0].since).toBeInstanceOf(Date);

    // Every delivery of this business failed for good; the newest few are shown, all counted.
    const db = await getDb();
    const all = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.businessId, b.businessId));
    expect(all.length).toBeGreaterThan(ATTENTION_SHOWN);
    expect(all.every((d) => d.status === "failed")).toBe(true);
    expect(o.failedDeliveries).toMatchObject({ total: all.length, capped: false });
    expect(o.failedDeliveries.items).toHaveLength(ATTENTION_SHOWN);
    expect(o.failedDeliveries.items[0]).toMatchObject({ url: expect.stringContaining("/hook"), lastStatusCode: 500 });
    expect(o.failedDeliveries.items[0].attempts).toBeGreaterThan(1);
  });

  it("leaves out what no longer needs it: a transfer seen less than an hour ago is not held", async () => {
    const db = await getDb();
    await db.update(transfers).set({ seenAt: new Date() }).where(eq(transfers.paymentId, ids.held));
    try {
      expect((await businessOverview(db, owner, b.businessId)).attention.held.items).toEqual([]);
    } finally {
      await db.update(transfers).set({ seenAt: new Date(Date.now() - 2 * 3_600_000) }).where(eq(transfers.paymentId, ids.held));
    }
  });

  it("shows the newest payments, and none of another business's", async () => {
    const o = await businessOverview(await getDb(), owner, b.businessId);
    expect(o.recent.map((p) => p.id)).toEqual([ids.open, ids.dropped, ids.held, ids.late, ids.underpaid]);
    const theirs = await businessOverview(await getDb(), await ownerOf(other.businessId), other.businessId);
    expect(theirs.recent.map((p) => p.id)).toEqual([ids.theirs]);
    expect([theirs.attention.underpaid.total, theirs.attention.late.total, theirs.attention.held.total, theirs.attention.dropped.total, theirs.failedDeliveries.total]).toEqual([0, 0, 0, 0, 0]);
    await expect(businessOverview(await getDb(), owner, other.businessId)).rejects.toMatchObject({ status: 404 });
  });

  it("counts today's and this month's completed volume in USD by the UTC day payments were created", async () => {
    const db = await getDb();
    const now = new Date("2031-06-15T12:00:00Z");
    const c = await newBusiness();
    const o = await ownerOf(c.businessId);
    const paid = async (amount: number, createdAt: string, currency = "USD") => {
      const id = (await createPayment(c, { currency, amount })).id;
      await sim(c, id, { action: "select", coin: "BITCOIN" });
      await sim(c, id, { action: "pay" });
      await sim(c, id, { action: "confirm" });
      await db.update(payments).set({ createdAt: new Date(createdAt) }).where(eq(payments.id, id));
      return id;
    };
    await paid(40, "2031-06-15T00:00:00Z"); // today, its first instant
    await paid(10.5, "2031-06-15T11:59:00Z"); // today
    await paid(25, "2031-06-01T00:00:00Z"); // this month, not today
    await paid(99, "2031-05-31T23:59:59.999Z"); // last month
    const open = (await createPayment(c, { currency: "USD", amount: 7 })).id; // not completed
    await db.update(payments).set({ createdAt: new Date("2031-06-15T10:00:00Z") }).where(eq(payments.id, open));

    const v = (await businessOverview(db, o, c.businessId, now)).volume;
    expect(v.today).toEqual({ completed: 2, created: 3, completedNetUsd: "50.50" });
    expect(v.month).toEqual({ completed: 3, created: 4, completedNetUsd: "75.50" });
  });

  it("reports the chains and the rates the business's coins depend on", async () => {
    const o = await businessOverview(await getDb(), owner, b.businessId);
    const bitcoin = o.chains.find((c) => c.chain === "BITCOIN")!;
    expect(bitcoin.coins).toContain("BITCOIN");
    expect(o.chains.map((c) => c.chain)).toEqual(["BITCOIN", "LITECOIN", "BITCOIN_CASH", "ETHEREUM", "TRON", "SOLANA", "MONERO", "TON"]);
    expect(["providers", "rates-file", "static-table"]).toContain(o.rates.source);
    // A test business quotes from whatever the source is, the built-in table included.
    expect(o.rates.servesBusiness).toBe(true);
  });
});

describe("the overview's queries", () => {
  it("count up to their cap and show their newest rows", async () => {
    const db = await getDb();
    const business = (await findBusiness(db, b.businessId))!;
    const all = await paymentsInStatus(db, business, ["COMPLETED", "UNDERPAID", "FAILED", "EXPIRED", "PENDING", "AWAITING_PAYMENT"], undefined, { limit: 2, cap: 3 });
    expect(all).toMatchObject({ total: 3, capped: true });
    expect(all.items.map((p) => p.id)).toEqual([ids.open, ids.dropped]);
    const exact = await paymentsInStatus(db, business, ["COMPLETED"], undefined, { limit: 5, cap: 3 });
    expect(exact).toMatchObject({ total: 1, capped: false });
  });
});

describe("change marks", () => {
  it("change when a payment of the business is created or changes status, not otherwise", async () => {
    const db = await getDb();
    const business = (await findBusiness(db, b.businessId))!;
    const theirs = (await findBusiness(db, other.businessId))!;
    const before = await paymentsChangeMark(db, business);
    expect(await paymentsChangeMark(db, business)).toBe(before);
    // Another business's new payment changes nothing here.
    await createPayment(other, { currency: "USD", amount: 3 });
    expect(await paymentsChangeMark(db, business)).toBe(before);

    await sim(b, ids.open, { action: "select", coin: "BITCOIN" });
    expect(await paymentsChangeMark(db, business)).toBe(before); // a coin chosen: no status change
    await sim(b, ids.open, { action: "pay" });
    const paid = await paymentsChangeMark(db, business);
    expect(paid).not.toBe(before);

    const fresh = (await createPayment(b, { currency: "USD", amount: 1 })).id;
    const created = await paymentsChangeMark(db, business);
    expect(created).not.toBe(paid);
    expect(created.startsWith(fresh)).toBe(true);
    expect(await paymentsChangeMark(db, theirs)).not.toContain(fresh);
  });

  it("of one payment change with its status and with each confirmation; another business's payment has none", async () => {
    const db = await getDb();
    const business = (await findBusiness(db, b.businessId))!;
    const id = (await createPayment(b, { currency: "USD", amount: 2 })).id;
    const first = await paymentChangeMark(db, business, id);
    expect(first).toMatch(/^AWAITING_PAYMENT\//);
    expect(await paymentChangeMark(db, business, id)).toBe(first);
    await sim(b, id, { action: "select", coin: "ETHEREUM" });
    await sim(b, id, { action: "pay" });
    const pending = await paymentChangeMark(db, business, id);
    expect(pending).toMatch(/^PENDING\//);
    await sim(b, id, { action: "confirm", confirmations: 1 });
    const confirmed = await paymentChangeMark(db, business, id);
    expect(confirmed).not.toBe(pending);
    expect(await paymentChangeMark(db, business, ids.theirs)).toBeNull();
  });

  it("are a member's only: another business, another business's payment or a malformed id is a 404", async () => {
    const db = await getDb();
    const business = (await findBusiness(db, b.businessId))!;
    expect(await changeMark(db, owner, String(b.businessId))).toBe(await paymentsChangeMark(db, business));
    expect(await changeMark(db, owner, b.businessId, ids.completed)).toBe(await paymentChangeMark(db, business, ids.completed));
    await expect(changeMark(db, owner, other.businessId)).rejects.toMatchObject({ status: 404 });
    await expect(changeMark(db, owner, b.businessId, ids.theirs)).rejects.toMatchObject({ status: 404 });
    await expect(changeMark(db, owner, b.businessId, "not-a-uuid")).rejects.toMatchObject({ status: 404 });
  });
});
