/**
 * What a list page's records cost this process and the database, by the two writers of list
 * records (lib/payments/list-records.ts): `paymentRecord` over the details statement (built here,
 * as on PGlite) and the JSON text PostgreSQL writes (db/queries/payment-records-sql.ts, as on
 * PostgreSQL). One process, no HTTP: `npx tsx bench/list-records-cpu.ts` against a seeded bench
 * database (DATABASE_URL, default the bench's own). Prints, per 20-payment page, this process's
 * CPU and the wall time of one page at a time (the database's share is roughly their
 * difference).
 */
import postgres from "postgres";
import { drizzle } from "drizzle-orm/postgres-js";
import * as schema from "../db/schema";
import type { Tx } from "../db/client";
import { LIST_RECORDS_WRITERS } from "../lib/payments/list-records";

const client = postgres(process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/bench", { max: 1, onnotice: () => {} });
const db = drizzle({ client, schema }) as unknown as Tx;

const variants: Record<string, (ids: string[]) => Promise<string>> = Object.fromEntries(
  Object.entries(LIST_RECORDS_WRITERS).map(([name, writer]) => [name, async (ids: string[]) => `{"items":[${(await writer(db, ids)).join(",")}]}`]),
);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (const [kind, where] of [["newest", "true"], ["completed", "status = 'COMPLETED'"]] as const) {
  const rows = await client.unsafe<{ id: string }[]>(`select id from payments where ${where} order by created_at desc limit 2000`);
  const ids = rows.map((r) => r.id);
  const cpu: Record<string, number[]> = Object.fromEntries(Object.keys(variants).map((name) => [name, []]));
  const wall: Record<string, number[]> = Object.fromEntries(Object.keys(variants).map((name) => [name, []]));
  let bytes: Record<string, number> = {};
  for (let round = 0; round < 12; round++) {
    for (const [name, run] of Object.entries(variants)) {
      const t0 = process.cpuUsage();
      const w0 = performance.now();
      for (let i = 0; i < 100; i++) {
        const from = ((round * 100 + i) * 20) % ids.length;
        bytes[name] = (await run(ids.slice(from, from + 20))).length;
      }
      const d = process.cpuUsage(t0);
      if (round > 1) {
        cpu[name].push((d.user + d.system) / 100 / 1000); // ms per page; rounds 0-1 warm up
        wall[name].push((performance.now() - w0) / 100);
      }
    }
  }
  for (const name of Object.keys(variants)) {
    console.log(`${kind.padEnd(9)} ${name.padEnd(7)} CPU ${median(cpu[name]).toFixed(3)} ms  wall ${median(wall[name]).toFixed(3)} ms per 20-payment page  (${bytes[name]} bytes; median of ${cpu[name].length} × 100)`);
  }
}
await client.end();
