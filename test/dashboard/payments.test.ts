import { beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { listTransfers } from "@/db/queries/charges";
import { payments, transfers } from "@/db/schema";
import { getAuth } from "@/lib/accounts/auth";
import { createUser } from "@/lib/accounts/users";
import { dashboardPayment, editPaymentNote, listDashboardPayments, redeliverPaymentWebhook } from "@/lib/dashboard/payments";
import { chartRange, CHART_MAX_DAYS, paymentVolume } from "@/lib/dashboard/payments-chart";
import { CSV_COLUMNS, exportPayments } from "@/lib/dashboard/payments-export";
import { config } from "@/lib/config";
import { GET as exportRoute } from "@/app/dashboard/(signed-in)/[businessId]/payments/export/route";
import { createPayment, json, newBusiness, paymentsPath, request } from "../helpers";
import { oneWebhookFileAtATime, receivers, sim } from "../webhooks/support";

/**
 * The dashboard's Payments section (lib/dashboard/*): every service function checks membership
 * and role before calling the API's own functions, so it answers what the API answers. Against
 * the real database; deliveries to a real receiver on 127.0.0.1.
 */

// Other webhook files drain every due delivery of a shared PostgreSQL: take turns with them.
oneWebhookFileAtATime();
const receiver = receivers();

type Biz = Awaited<ReturnType<typeof newBusiness>>;
const PASSWORD = "dashboard test password";
let seq = 0;
const email = (role: string) => `${role}-${Date.now()}-${++seq}@payments.test`;

async function member(businessId: number, role: "owner" | "developer" | "viewer") {
  const made = await createUser(await getDb(), { email: email(role), password: PASSWORD, businessId, role });
  return { id: made.userId, email: made.email };
}

/** The status and detail of what `work` throws (an ApiError), or "ok". */
async function outcome(work: () => Promise<unknown>): Promise<number | "ok"> {
  try {
    await work();
    return "ok";
  } catch (e) {
    const status = (e as { status?: number }).status;
    if (status === undefined) throw e;
    return status;
  }
}

const q = (s = "") => new URLSearchParams(s);

/** RFC 4180 rows (quoted fields with commas, quotes and line breaks). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') (field += '"'), i++;
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") row.push(field), (field = "");
    else if (c === "\r" && text[i + 1] === "\n") row.push(field), rows.push(row), (row = []), (field = ""), i++;
    else field += c;
  }
  if (field || row.length) throw new Error("CSV does not end with CRLF");
  return rows;
}

async function csvOf(userId: string, businessId: number, search = "", pageSize?: number) {
  const { lines } = await exportPayments(await getDb(), userId, businessId, q(search), { pageSize });
  const chunks: string[] = [];
  for await (const chunk of lines) chunks.push(chunk);
  return { chunks, rows: parseCsv(chunks.join("")) };
}

let b: Biz;
let other: Biz;
let hook: Awaited<ReturnType<typeof receiver>>;
let users: Record<"owner" | "developer" | "viewer" | "stranger", { id: string; email: string }>;
let paid: string;
let open: string;
let theirs: string;

beforeAll(async () => {
  hook = await receiver();
  b = await newBusiness({ webhookUrl: hook.url });
  other = await newBusiness();
  users = {
    owner: await member(b.businessId, "owner"),
    developer: await member(b.businessId, "developer"),
    viewer: await member(b.businessId, "viewer"),
    stranger: await member(other.businessId, "owner"),
  };
  open = (await createPayment(b, { currency: "EUR", amount: 12.5, name: 'Poster, "large"', customerEmail: "ann@shop.test" })).id;
  paid = (await createPayment(b, { currency: "USD", amount: 40, name: "Mug", description: "line one\nline two", metadata: { orderId: "A-1" } })).id;
  await sim(b, paid, { action: "select", coin: "BITCOIN" });
  await sim(b, paid, { action: "pay" });
  await sim(b, paid, { action: "confirm" });
  theirs = (await createPayment(other)).id;
});

describe("dashboard payments: who may do what", () => {
  it("lets every member list and open payments; anyone else gets 404, for the business and for a payment id", async () => {
    const db = await getDb();
    for (const role of ["owner", "developer", "viewer"] as const) {
      const page = await listDashboardPayments(db, users[role].id, b.businessId, q());
      expect(page.items.map((p) => p.id)).toEqual([paid, open]);
      const d = await dashboardPayment(db, users[role].id, String(b.businessId), paid);
      expect(d.payment.status).toBe("COMPLETED");
      expect([d.canEditNote, d.canRedeliver]).toEqual(role === "viewer" ? [false, false] : [true, true]);
    }
    const s = users.stranger.id;
    expect(await outcome(() => listDashboardPayments(db, s, b.businessId, q()))).toBe(404);
    expect(await outcome(() => dashboardPayment(db, s, b.businessId, paid))).toBe(404);
    // Their own business id with our payment's id: as unknown as a payment that does not exist.
    expect(await outcome(() => dashboardPayment(db, s, other.businessId, paid))).toBe(404);
    expect(await outcome(() => dashboardPayment(db, users.owner.id, b.businessId, theirs))).toBe(404);
    expect(await outcome(() => dashboardPayment(db, users.owner.id, b.businessId, "not-a-uuid"))).toBe(404);
    for (const id of ["0", "abc", "99999999"]) expect(await outcome(() => listDashboardPayments(db, users.owner.id, id, q()))).toBe(404);
    expect(await outcome(() => paymentVolume(db, s, b.businessId, q()))).toBe(404);
    expect(await outcome(() => exportPayments(db, s, b.businessId, q()))).toBe(404);
    expect(await outcome(() => paymentVolume(db, users.viewer.id, b.businessId, q()))).toBe("ok");
    expect(await outcome(() => exportPayments(db, users.viewer.id, b.businessId, q()))).toBe("ok");
  });

  it("names a transfer held whatever its confirmations (a sender's lock), with why, for the merchant to settle", async () => {
    const db = await getDb();
    expect((await dashboardPayment(db, users.viewer.id, b.businessId, paid)).held).toEqual([]);
    const [t] = await listTransfers(db, paid);
    const reason = "locked by its sender until block 900 (unlock_time)";
    await db.update(transfers).set({ held: reason }).where(eq(transfers.id, t.id));
    try {
      expect((await dashboardPayment(db, users.viewer.id, b.businessId, paid)).held).toEqual([{ txId: t.txId, reason }]);
    } finally {
      await db.update(transfers).set({ held: null }).where(eq(transfers.id, t.id));
    }
  });

  it("lets owners and developers edit the note (checked by the API's schema), not viewers or strangers", async () => {
    const db = await getDb();
    expect(await outcome(() => editPaymentNote(db, users.viewer.id, b.businessId, open, "viewer"))).toBe(403);
    expect(await outcome(() => editPaymentNote(db, users.stranger.id, b.businessId, open, "x"))).toBe(404);
    expect(await outcome(() => editPaymentNote(db, users.stranger.id, other.businessId, open, "x"))).toBe(404);
    expect((await editPaymentNote(db, users.developer.id, b.businessId, open, "from the developer")).note).toBe("from the developer");
    expect((await editPaymentNote(db, users.owner.id, b.businessId, open, "from the owner")).note).toBe("from the owner");
    // The API sees the same note: one code path.
    const res = await request("GET", `${paymentsPath(b.businessId)}/${open}`, { key: b.apiKey });
    expect((await json(res)).data.note).toBe("from the owner");
    const tooLong = await editPaymentNote(db, users.owner.id, b.businessId, open, "x".repeat(257)).catch((e) => e);
    expect(tooLong).toMatchObject({ status: 400, fieldErrors: { note: ["must be at most 256 characters"] } });
    expect(await outcome(() => editPaymentNote(db, users.owner.id, b.businessId, open, undefined))).toBe(400);
  });

  it("shows the payment's deliveries with their attempts, and lets owners and developers redeliver one", async () => {
    const db = await getDb();
    const before = await dashboardPayment(db, users.viewer.id, b.businessId, paid);
    expect(before.deliveries.map((d) => d.eventType)).toEqual(["PAYMENT_COMPLETED", "PAYMENT_PROCESSING", "PAYMENT_PENDING", "PAYMENT_METHOD_SELECTED", "PAYMENT_CREATED"]);
    expect(before.deliveries.every((d) => d.paymentId === paid)).toBe(true);
    const created = before.deliveries.at(-1)!;
    const otherPayments = (await dashboardPayment(db, users.viewer.id, b.businessId, open)).deliveries;

    expect(await outcome(() => redeliverPaymentWebhook(db, users.viewer.id, b.businessId, paid, created.deliveryId))).toBe(403);
    expect(await outcome(() => redeliverPaymentWebhook(db, users.stranger.id, other.businessId, paid, created.deliveryId))).toBe(404);
    // A delivery of another payment, even of the same business, is not this payment's.
    expect(await outcome(() => redeliverPaymentWebhook(db, users.owner.id, b.businessId, paid, otherPayments[0].deliveryId))).toBe(404);
    expect(await outcome(() => redeliverPaymentWebhook(db, users.owner.id, b.businessId, paid, "1e3"))).toBe(404);

    for (const role of ["developer", "owner"] as const) {
      const sent = hook.hitsFor(created.messageId).length;
      const after = await redeliverPaymentWebhook(db, users[role].id, b.businessId, paid, String(created.deliveryId));
      expect(after.attempts.at(-1)).toMatchObject({ succeeded: true, statusCode: 200 });
      expect(hook.hitsFor(created.messageId)).toHaveLength(sent + 1);
    }
    const shown = (await dashboardPayment(db, users.viewer.id, b.businessId, paid)).deliveries.at(-1)!;
    expect(shown.attempts.length).toBe(created.attempts.length + 2);
  });

  it("finds the deliveries of a sub-business's payment from the parent's dashboard too (kept under the sub-business)", async () => {
    const db = await getDb();
    const parent = await newBusiness();
    const sub = await newBusiness({ parentBusinessId: parent.businessId, webhookUrl: hook.url });
    const owner = await member(parent.businessId, "owner");
    const subOwner = await member(sub.businessId, "owner");
    const { id } = await createPayment(sub);
    for (const [user, businessId] of [[owner, parent.businessId], [subOwner, sub.businessId]] as const) {
      const d = await dashboardPayment(db, user.id, businessId, id);
      expect(d.payment.onBehalfOfBusinessId).toBe(sub.businessId);
      expect(d.deliveries.map((x) => x.eventType)).toEqual(["PAYMENT_CREATED"]);
      const again = await redeliverPaymentWebhook(db, user.id, businessId, id, d.deliveries[0].deliveryId);
      expect(again.attempts.at(-1)?.succeeded).toBe(true);
    }
    // The sub-business's owner does not see the parent's own payments.
    const own = await createPayment(parent);
    expect(await outcome(() => dashboardPayment(db, subOwner.id, sub.businessId, own.id))).toBe(404);
  });
});

describe("dashboard payments: the list's filters are the API's", () => {
  it("passes every filter and the page through, and reports the schema's field errors", async () => {
    const db = await getDb();
    const apiIds = async (search: string) => (await json(await request("GET", `${paymentsPath(b.businessId)}?${search}`, { key: b.apiKey }))).data.items.map((p: { id: string }) => p.id);
    const searches = [
      "statuses=COMPLETED",
      "statuses=AWAITING_PAYMENT&statuses=COMPLETED",
      "cryptoCoins=BITCOIN",
      "fromAmount=20",
      "toAmount=20",
      "searchString=ann@",
      "searchString=POSTER",
      `fromTime=${new Date(Date.now() - 3600_000).toISOString()}&toTime=${new Date(Date.now() + 3600_000).toISOString()}`,
      "toTime=2020-01-01T00:00:00Z",
      "PageSize=1&PageNumber=2",
    ];
    for (const s of searches) {
      const page = await listDashboardPayments(db, users.viewer.id, b.businessId, q(s));
      expect(page.items.map((p) => p.id), s).toEqual(await apiIds(s));
    }
    expect((await listDashboardPayments(db, users.viewer.id, b.businessId, q("cryptoCoins=BITCOIN"))).items.map((p) => p.id)).toEqual([paid]);
    const paged = await listDashboardPayments(db, users.viewer.id, b.businessId, q("PageSize=1&PageNumber=2"));
    expect(paged).toMatchObject({ pageNumber: 2, pageSize: 1, totalCount: 2, totalPages: 2, totalIsEstimate: false });

    const bad = await listDashboardPayments(db, users.viewer.id, b.businessId, q("statuses=NOPE&fromAmount=abc&toTime=yesterday&colour=red")).catch((e) => e);
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.fieldErrors).sort()).toEqual(["colour", "fromAmount", "statuses[0]", "toTime"]);
    const reversed = await paymentVolume(db, users.viewer.id, b.businessId, q("fromAmount=5&toAmount=1")).catch((e) => e);
    expect(reversed.fieldErrors).toEqual({ toAmount: ["must not be less than fromAmount"] });
  });
});

describe("dashboard payments: CSV export", () => {
  it("writes every match as quoted CSV, page by page, in the list's order", async () => {
    const shop = await newBusiness();
    const owner = await member(shop.businessId, "owner");
    const made: string[] = [];
    const names = ['Comma, "quoted"', "=HYPERLINK(\"http://evil\")", "Two\r\nlines", "-1+1", "Plain", "@sum", "Café ☕"];
    for (const name of names) made.unshift((await createPayment(shop, { currency: "USD", amount: 10 + made.length, name })).id);
    await sim(shop, made[0], { action: "select", coin: "BITCOIN" });

    const { chunks, rows } = await csvOf(owner.id, shop.businessId, "", 2);
    // The header, then ⌈7 / 2⌉ = 4 pages of rows: never more than a page read at a time.
    expect(chunks).toHaveLength(1 + 4);
    expect(chunks.slice(1).map((c) => parseCsv(c).length)).toEqual([2, 2, 2, 1]);
    expect(rows[0]).toEqual([...CSV_COLUMNS]);
    const body = rows.slice(1);
    expect(body.map((r) => r[0])).toEqual(made);
    const col = (name: (typeof CSV_COLUMNS)[number]) => CSV_COLUMNS.indexOf(name);
    expect(body.map((r) => r[col("name")])).toEqual(
      ['Comma, "quoted"', "'=HYPERLINK(\"http://evil\")", "Two\r\nlines", "'-1+1", "Plain", "'@sum", "Café ☕"].reverse(),
    );
    const selected = body[0];
    expect(selected[col("coin")]).toBe("BITCOIN");
    expect(Number(selected[col("coinAmount")])).toBeGreaterThan(0);
    expect(selected[col("coinAmount")]).not.toMatch(/e/i);
    expect(selected[col("amount")]).toBe("16");
    expect(selected[col("currency")]).toBe("USD");
    expect(body[6][col("coin")]).toBe("");

    // A filtered export holds exactly the list's matches, for every filter.
    for (const s of ["statuses=AWAITING_PAYMENT", "fromAmount=12&toAmount=14", "searchString=quoted", "cryptoCoins=BITCOIN", "toTime=2020-01-01T00:00:00Z"]) {
      const listed = await listDashboardPayments(await getDb(), owner.id, shop.businessId, q(`${s}&PageSize=100`));
      const exported = (await csvOf(owner.id, shop.businessId, `${s}&PageNumber=3`, 3)).rows.slice(1);
      expect(exported.map((r) => r[0]), s).toEqual(listed.items.map((p) => p.id));
    }
  });

  it("is a download for a signed-in member only, streamed as text/csv", async () => {
    const origin = config().publicBaseUrl;
    const auth = await getAuth();
    const signIn = async (user: { email: string }) => {
      const res = await auth.handler(
        new Request(`${origin}/api/auth/sign-in/email`, {
          method: "POST",
          headers: { origin, "content-type": "application/json", "x-forwarded-for": `203.0.113.${10 + ++seq}` },
          body: JSON.stringify({ email: user.email, password: PASSWORD }),
        }),
      );
      expect(res.status).toBe(200);
      return res.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
    };
    const get = (businessId: number, search: string, cookie?: string) =>
      exportRoute(new Request(`${origin}/dashboard/${businessId}/payments/export${search}`, { headers: cookie ? { cookie } : {} }), {
        params: Promise.resolve({ businessId: String(businessId) }),
      });

    const cookie = await signIn(users.viewer);
    const res = await get(b.businessId, "?statuses=COMPLETED", cookie);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/csv; charset=utf-8/);
    expect(res.headers.get("content-disposition")).toMatch(new RegExp(`^attachment; filename="payments-${b.businessId}-test-\\d{4}-\\d{2}-\\d{2}\\.csv"$`));
    expect(res.body).toBeInstanceOf(ReadableStream);
    const rows = parseCsv(await res.text());
    expect(rows.map((r) => r[0])).toEqual(["id", paid]);
    expect(rows[1][CSV_COLUMNS.indexOf("description")]).toBe("line one\nline two");
    expect(rows[1][CSV_COLUMNS.indexOf("netAmountUsd")]).toBe("40");
    // The transaction that paid it, by its hash: what an explorer finds.
    const [transfer] = await listTransfers(await getDb(), paid);
    expect(rows[1][CSV_COLUMNS.indexOf("transactionIds")]).toBe(transfer.txHash);
    expect(transfer.txHash).toMatch(/^[0-9a-f]{64}$/);

    expect((await get(b.businessId, "")).status).toBe(303);
    expect((await get(other.businessId, "", cookie)).status).toBe(404);
    const bad = await get(b.businessId, "?fromTime=soon", cookie);
    expect(bad.status).toBe(400);
    expect(Object.keys((await bad.json()).errors)).toEqual(["fromTime"]);
  });
});

describe("dashboard payments: the chart", () => {
  it("counts payments per UTC day of the range, completed ones with their net USD, days without payments included", async () => {
    const shop = await newBusiness();
    const viewer = await member(shop.businessId, "viewer");
    const db = await getDb();
    const at = async (iso: string, complete: boolean, amount = 10) => {
      const { id } = await createPayment(shop, { currency: "USD", amount });
      if (complete) {
        await sim(shop, id, { action: "select", coin: "BITCOIN" });
        await sim(shop, id, { action: "pay" });
        await sim(shop, id, { action: "confirm" });
      }
      await db.update(payments).set({ createdAt: new Date(iso) }).where(eq(payments.id, id));
    };
    await at("2026-03-01T00:00:00Z", true, 10);
    await at("2026-03-01T23:59:59.999Z", true, 2.5);
    await at("2026-03-01T12:00:00Z", false);
    await at("2026-03-03T08:00:00Z", true, 7);
    await at("2026-02-28T23:59:59.999Z", true, 100); // the day before the range
    const range = "fromTime=2026-03-01T00:00:00Z&toTime=2026-03-04T23:59:59.999Z";
    const v = await paymentVolume(db, viewer.id, shop.businessId, q(range));
    expect(v).toEqual({
      from: "2026-03-01",
      to: "2026-03-04",
      clipped: false,
      days: [
        { day: "2026-03-01", created: 3, completed: 2, completedNetUsd: 12.5 },
        { day: "2026-03-02", created: 0, completed: 0, completedNetUsd: 0 },
        { day: "2026-03-03", created: 1, completed: 1, completedNetUsd: 7 },
        { day: "2026-03-04", created: 0, completed: 0, completedNetUsd: 0 },
      ],
      totals: { created: 4, completed: 3, completedNetUsd: "19.50" },
    });
    // The list's other filters narrow the chart too.
    const completedOnly = await paymentVolume(db, viewer.id, shop.businessId, q(`${range}&statuses=COMPLETED&toAmount=9`));
    expect(completedOnly.totals).toEqual({ created: 2, completed: 2, completedNetUsd: "9.50" });
  });

  it("draws the last 30 days without a range, and at most a year of a longer one", () => {
    const now = new Date("2026-05-10T15:00:00Z");
    expect(chartRange({}, now)).toEqual({ from: new Date("2026-04-11T00:00:00Z"), to: now, clipped: false });
    const long = chartRange({ fromTime: "2020-01-01T00:00:00Z", toTime: "2026-05-10T23:59:59Z" }, now);
    expect(long.clipped).toBe(true);
    expect((Date.parse("2026-05-10T00:00:00Z") - long.from.getTime()) / 86_400_000).toBe(CHART_MAX_DAYS - 1);
    expect(chartRange({ fromTime: "2026-06-01T00:00:00Z" }, now).to).toEqual(new Date("2026-06-01T00:00:00Z"));
  });
});
