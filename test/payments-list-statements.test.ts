import { describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { executeRows, getDb, getListDb } from "@/db/client";
import { payments } from "@/db/schema";
import { createPayment, newBusiness, paymentsPath, request } from "./helpers";
import { at, ids, listOk, paymentCreatedAt, q, setColumns } from "./payments-list-support";

/**
 * D1: GET /v1/businesses/{businessId}/payments, how lists run in the database: named statements
 * on generic plans for first pages and plain searches, and on PostgreSQL a list connection of
 * their own. Through the real route handler against the real database; shared setup in
 * ./payments-list-support.ts.
 */

describe("first pages of the plain filters", () => {
  // Unfiltered, one status, a time range: their first page is a named statement whose generic
  // plan walks the list's index (firstPageShape in db/queries/payment-list-statements.ts).
  it("run as named statements on a generic plan, with each list's own page size and values", async () => {
    const b = await newBusiness();
    const made: string[] = []; // oldest first
    for (let i = 0; i < 4; i++) made.push(await paymentCreatedAt(b, at(i * 60_000)));
    await setColumns(made[0], { status: "EXPIRED" });
    const range = { fromTime: at(60_000).toISOString(), toTime: at(2 * 60_000).toISOString() };
    for (let i = 0; i < 7; i++) {
      expect(await ids(b, q({ PageSize: 2 }))).toEqual([made[3], made[2]]);
      expect(await ids(b, q({ PageSize: 3 }))).toEqual([made[3], made[2], made[1]]);
      expect(await ids(b, q({ statuses: "EXPIRED" }))).toEqual([made[0]]);
      const inRange = await listOk(b, q({ ...range, statuses: "AWAITING_PAYMENT" }));
      expect(inRange.items.map((p) => p.id)).toEqual([made[2], made[1]]);
      expect(inRange.totalCount).toBe(2);
    }
    const statements = await executeRows<{ statement: string; generic_plans: string }>(
      await getListDb(),
      sql`select statement, generic_plans from pg_prepared_statements where statement like 'select "id"%from "payments" where%'`,
    );
    const generic = (test: (text: string) => boolean) =>
      statements.filter((s) => test(s.statement)).reduce((n, s) => n + Number(s.generic_plans), 0);
    const byStatus = (t: string) => t.includes('"status" = $');
    const byTime = (t: string) => t.includes('"created_at" >= $');
    expect(generic((t) => !byStatus(t) && !byTime(t))).toBeGreaterThan(0);
    expect(generic((t) => byStatus(t) && !byTime(t))).toBeGreaterThan(0);
    expect(generic((t) => byStatus(t) && byTime(t))).toBeGreaterThan(0);
  });
});

describe("pages of a plain search", () => {
  // A search narrowed by nothing else is a named statement, its pattern a parameter
  // (namedSearchPage in db/queries/payment-list-statements.ts); on PostgreSQL's list connection on a generic plan.
  const searchStatements = async () =>
    executeRows<{ statement: string; generic_plans: string; custom_plans: string }>(
      await getListDb(),
      sql`select statement, generic_plans, custom_plans from pg_prepared_statements where statement like '%) m where m.business_id = (select $%'`,
    );

  it("run as one named statement whatever the pattern, page size and page, with the same results", async () => {
    const b = await newBusiness();
    const made: string[] = []; // oldest first
    for (let i = 0; i < 4; i++) {
      const { id } = await createPayment(b, { currency: "USD", amount: 1, name: `gizmo ${i}`, customerEmail: `ann${i}@gizmo.example` });
      await setColumns(id, { createdAt: at(i * 1000) });
      made.push(id);
    }
    const before = (await searchStatements()).reduce((n, s) => n + Number(s.generic_plans) + Number(s.custom_plans), 0);
    for (let i = 0; i < 3; i++) {
      expect(await ids(b, q({ searchString: "GIZMO", PageSize: 3 }))).toEqual([made[3], made[2], made[1]]);
      const second = await listOk(b, q({ searchString: "gizmo", PageSize: 3, PageNumber: 2 }));
      expect(second.items.map((p) => p.id)).toEqual([made[0]]);
      expect(second.totalCount).toBe(4);
      expect(await ids(b, q({ searchString: "ann2@" }))).toEqual([made[2]]);
      expect(await ids(b, q({ searchString: "gizmo 1" }))).toEqual([made[1]]);
    }
    const statements = await searchStatements();
    expect(statements).toHaveLength(1);
    const runs = statements.reduce((n, s) => n + Number(s.generic_plans) + Number(s.custom_plans), 0);
    expect(runs - before).toBe(12);
  });

  /** EXECUTE's arguments: the statement has the pattern once per place it is used, then the business, page size and offset. */
  const searchArgs = (statement: string, pattern: string, businessId: number, size: number, offset: number) => {
    const patterns = new Set(statement.match(/\$\d+/g)).size - 3;
    return [...Array<string>(patterns).fill(`'${pattern}'`), businessId, size, offset].join(", ");
  };

  it("hide their values from the planner, so a plan made for one search costs what the generic plan costs", async () => {
    // PGlite has no list connection asking for generic plans: its plan cache keeps the generic
    // plan only when a custom plan, made for the values, looks no cheaper.
    const b = await newBusiness();
    await createPayment(b, { currency: "USD", amount: 1, name: "widget", customerEmail: "bo@widget.example" });
    expect(await ids(b, q({ searchString: "widget" }))).toHaveLength(1);
    const [statement] = await searchStatements();
    // One connection (a transaction holds its own), whose plan_cache_mode is left to the planner
    // on both databases.
    await (await getDb()).transaction(async (tx) => {
      await executeRows(tx, sql.raw(`prepare search_values as ${statement.statement}`));
      try {
        const estimate = async (pattern: string, size: number, offset: number) => {
          const [row] = await executeRows<{ "QUERY PLAN": [{ Plan: { "Total Cost": number; "Plan Rows": number } }] }>(
            tx,
            sql.raw(`explain (format json) execute search_values(${searchArgs(statement.statement, pattern, b.businessId, size, offset)})`),
          );
          const { Plan } = row["QUERY PLAN"][0];
          return [Plan["Total Cost"], Plan["Plan Rows"]];
        };
        // The first executions of a prepared statement are planned for their values: any
        // difference here is a value the planner saw.
        const first = await estimate("%widget%", 20, 0);
        expect(await estimate("%a-much-longer-pattern%", 3, 0)).toEqual(first);
        expect(await estimate("%wid%", 100, 200)).toEqual(first);
      } finally {
        // A prepared statement outlives the transaction: leave the pooled connection as it was.
        await executeRows(tx, sql.raw("deallocate search_values"));
      }
    });
  });

  it.runIf(process.env.DATABASE_URL)("run on PostgreSQL's generic plan, which never walks the account's list index", async () => {
    const b = await newBusiness();
    await createPayment(b, { currency: "USD", amount: 1, name: "sprocket" });
    const genericBefore = (await searchStatements()).reduce((n, s) => n + Number(s.generic_plans), 0);
    for (let i = 0; i < 6; i++) expect(await ids(b, q({ searchString: "sprocket" }))).toHaveLength(1);
    const [statement] = await searchStatements();
    expect(Number(statement.generic_plans) - genericBefore).toBe(6);
    expect(Number(statement.custom_plans)).toBe(0);
    // Its generic plan, as the list connection runs it: a guess at the account's share of the
    // store must not turn the search into a walk of the account's list index.
    const listDb = await getListDb();
    await executeRows(listDb, sql.raw(`prepare search_plan as ${statement.statement}`));
    // A table of a few test rows is read whole whatever the indexes, and how few it holds depends
    // on which test files ran before: with sequential scans priced out the plan shows which index
    // the planner reaches for, as it does at a million payments.
    await executeRows(listDb, sql.raw("set enable_seqscan = off"));
    try {
      const [row] = await executeRows<{ "QUERY PLAN": unknown }>(listDb, sql.raw(`explain (format json) execute search_plan(${searchArgs(statement.statement, "%sprocket%", b.businessId, 20, 0)})`));
      const plan = JSON.stringify(row["QUERY PLAN"]);
      expect(plan).toContain("customers_email_trgm_idx");
      expect(plan).not.toContain("payments_business_");
    } finally {
      await executeRows(listDb, sql.raw("reset enable_seqscan"));
      await executeRows(listDb, sql.raw("deallocate search_plan"));
    }
  });
});

describe.runIf(process.env.DATABASE_URL)("lists on PostgreSQL", () => {
  it("load a page's records by a generic plan, even when the first pages were short", async () => {
    const b = await newBusiness();
    await createPayment(b);
    for (let i = 0; i < 7; i++) expect((await listOk(b)).items).toHaveLength(1);
    // DATABASE_LIST_POOL_SIZE is unset: one list connection, whose session this reads.
    const plans = await executeRows<{ generic_plans: string; custom_plans: string }>(
      await getListDb(),
      sql`select generic_plans, custom_plans from pg_prepared_statements where statement like '%= any($1::uuid[])%'`,
    );
    expect(plans).toHaveLength(1);
    expect(Number(plans[0].generic_plans)).toBeGreaterThanOrEqual(7);
    expect(Number(plans[0].custom_plans)).toBe(0);
  });

  it("read through a connection of their own: writes and fetches go on while it is busy, lists wait for it", async () => {
    const b = await newBusiness();
    const first = await createPayment(b);
    // DATABASE_LIST_POOL_SIZE is unset in the tests: lists have one connection. Hold it.
    const listDb = await getListDb();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let holding = false;
    const held = listDb.transaction(async (tx) => {
      await tx.select({ id: payments.id }).from(payments).where(eq(payments.id, first.id));
      holding = true;
      await gate;
    });
    try {
      await expect.poll(() => holding, { timeout: 5_000 }).toBe(true);
      let listed = false;
      const pending = listOk(b).then((page) => ((listed = true), page));
      const second = await createPayment(b);
      const fetched = await request("GET", `${paymentsPath(b.businessId)}/${second.id}`, { key: b.apiKey });
      expect(fetched.status).toBe(200);
      expect(listed).toBe(false);
      release();
      expect((await pending).items.map((p) => p.id)).toEqual([second.id, first.id]);
    } finally {
      release();
      await held;
    }
  });
});
