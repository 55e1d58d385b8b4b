/**
 * The CPU a list page's details statement costs this process (send, decode, map, fold), with the
 * record's columns (RECORD_*_COLUMNS) against whole rows: `npx tsx bench/details-decode.ts`
 * against a seeded bench database (DATABASE_URL, default the bench's own). One process, no HTTP:
 * the difference is the decoding alone (docs/performance.md, Deliberate optimisations).
 */
import { asc, eq, isNotNull, and, sql } from "drizzle-orm";
import postgres from "postgres";
import { drizzle } from "drizzle-orm/postgres-js";
import * as schema from "../db/schema";
import { RECORD_SELECTION } from "../db/queries/payments-read";

const { payments, customers, customerIps, charges, transfers } = schema;
const client = postgres(process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/bench", { max: 1, onnotice: () => {} });
const db = drizzle({ client, schema });
const WHOLE_ROWS = { payment: payments, customer: customers, ip: customerIps, charge: charges, transfer: transfers };

// The joins of detailsQuery (db/queries/payments-read.ts), with either selection.
function statement(narrow: boolean, name: string) {
  return db
    .select(narrow ? RECORD_SELECTION : WHOLE_ROWS)
    .from(payments)
    .leftJoin(customers, eq(customers.id, payments.customerId))
    .leftJoin(customerIps, eq(customerIps.customerId, customers.id))
    .leftJoin(charges, and(eq(charges.paymentId, payments.id), isNotNull(payments.selectedCoin)))
    .leftJoin(transfers, eq(transfers.paymentId, charges.paymentId))
    .where(sql`${payments.id} = any(${sql.placeholder("ids")}::uuid[])`)
    .orderBy(sql`${payments.createdAt} desc`, asc(customerIps.id), asc(transfers.id))
    .prepare(name);
}

const variants = { whole: statement(false, "details_whole"), record: statement(true, "details_record") };
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
// The newest payments (no charge yet, as the unfiltered list's first pages) and COMPLETED ones
// (a charge and a transfer each, as `statuses=COMPLETED`).
for (const [kind, where] of [["newest", sql`true`], ["completed", sql`status = 'COMPLETED'`]] as const) {
  const ids = (await db.execute<{ id: string }>(sql`select id from payments where ${where} order by created_at desc limit 2000`)).map((r) => r.id);
  const cpu: Record<string, number[]> = { whole: [], record: [] };
  for (let round = 0; round < 12; round++) {
    for (const [name, st] of Object.entries(variants)) {
      const t0 = process.cpuUsage();
      for (let i = 0; i < 100; i++) {
        const from = ((round * 100 + i) * 20) % ids.length;
        await st.execute({ ids: ids.slice(from, from + 20) });
      }
      const d = process.cpuUsage(t0);
      if (round > 1) cpu[name].push((d.user + d.system) / 100 / 1000); // ms per page; rounds 0-1 warm up
    }
  }
  for (const [name, xs] of Object.entries(cpu)) {
    console.log(`${kind.padEnd(9)} ${name.padEnd(7)} ${median(xs).toFixed(3)} ms CPU per 20-payment page (median of ${xs.length} × 100)`);
  }
}
await client.end();
