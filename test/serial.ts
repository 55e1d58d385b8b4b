import { inArray } from "drizzle-orm";
import postgres from "postgres";
import { afterAll, beforeAll } from "vitest";
import { getDb } from "@/db/client";
import { businesses } from "@/db/schema";

/**
 * With DATABASE_URL every test file shares one PostgreSQL database, and some of the service's
 * work is global to it, whichever file started it. Files doing such work take turns on a session
 * advisory lock, `lock` naming the kind of work (each file is one worker process, holding the
 * lock from its first hook to its last; `beforeUnlock` runs last while it is held). With PGlite
 * each file has its own database: no lock.
 */
export function oneFileAtATime(lock: number, beforeUnlock?: () => Promise<void>) {
  const url = process.env.DATABASE_URL;
  if (!url) return;
  let sql: postgres.Sql | undefined;
  beforeAll(async () => {
    sql = postgres(url, { max: 1, onnotice: () => {} });
    await sql`select pg_advisory_lock(${lock})`;
  }, 300_000);
  afterAll(async () => {
    if (!sql) return;
    try {
      await beforeUnlock?.();
    } finally {
      await sql`select pg_advisory_unlock(${lock})`;
      await sql.end();
    }
  });
}

/**
 * A chain's watcher works on every live transfer of its coins, not only on those its node
 * carries: it sets their confirmations from its node's tip, unconfirms those above a fork its
 * node reorganised, and drops the unconfirmed ones its node does not know. A cursor of its own
 * does not keep a test's watcher off another file's payments, so the files that follow (or ask)
 * a real node take turns. Call it before the file's node is started. A file may also `retire`
 * the live businesses it made: they turn to test mode at its end, and no later file's watcher
 * counts their payments' confirmations from another node.
 */
export function oneChainFileAtATime() {
  const made: number[] = [];
  oneFileAtATime(741852964, async () => {
    if (made.length) await (await getDb()).update(businesses).set({ mode: "test" }).where(inArray(businesses.id, made));
  });
  return { retire: (businessId: number) => void made.push(businessId) };
}

/**
 * The lock the files that deliver webhooks take turns on: the webhook tests, and the Inngest
 * functions that deliver (the sweep, deliver-webhook). "Deliver what is due" claims every due
 * row in a shared database, so one file's deliveries would be attempted by another's.
 */
export const DELIVERY_TESTS_LOCK = 741852963;
