import { sql, type SQL } from "drizzle-orm";
import type { Db } from "@/db/client";
import { query } from "./db";

/** The list filters of the sweep, as the service's query layer receives them. */
export function listFilters(anchor: Date) {
  const day = 86_400_000;
  const from = new Date(anchor.getTime() - 2 * day);
  return {
    list: {},
    "list:status": { statuses: ["COMPLETED" as const] },
    "list:search": { search: "buyer1234@" },
    "list:time": { fromTime: from, toTime: new Date(from.getTime() + day) },
  };
}

/**
 * EXPLAIN (ANALYZE, BUFFERS) of every statement a list request runs for each filter, built by
 * the same functions the service uses (db/queries/payment-list-statements.ts, and for the records on
 * PostgreSQL db/queries/payment-records-sql.ts), on page 1 of 20.
 */
export async function explainLists(db: Db, businessId: number, anchor: Date): Promise<Record<string, string>> {
  const { listPaymentQueries } = await import("@/db/queries/payment-list-statements");
  const { findBusiness } = await import("@/db/queries/businesses");
  const { databaseKind } = await import("@/db/client");
  const { paymentsByIds, NEWEST_FIRST } = await import("@/db/queries/payments-read");
  const { recordsSqlStatement } = await import("@/db/queries/payment-records-sql");
  const business = (await findBusiness(db, businessId))!;
  const plans: Record<string, string> = {};
  for (const [name, filter] of Object.entries(listFilters(anchor))) {
    const { details, ...statements } = listPaymentQueries(db, business, filter, { number: 1, size: 20 });
    const explain = async (part: string, statement: SQL) => {
      const rows = await query<Record<string, string>>(db, sql`explain (analyze, buffers) ${statement}`);
      plans[`${name} · ${part}`] = rows.map((r) => Object.values(r)[0]).join("\n");
    };
    for (const [part, qb] of Object.entries(statements)) await explain(part, qb.getSQL());
    const ids = (await query<{ id: string }>(db, statements.page.getSQL())).map((r) => r.id);
    // As the service runs it: records as JSON on PostgreSQL, details on PGlite (lib/payments/list-records.ts).
    const second = databaseKind() === "postgres" ? recordsSqlStatement(db, paymentsByIds(ids), NEWEST_FIRST) : details(ids);
    await explain("details", second.getSQL());
  }
  return plans;
}
