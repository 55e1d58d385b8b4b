import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import { afterAll, describe, expect, it } from "vitest";
import type { Db } from "@/db/client";
import * as schema from "@/db/schema";
import { deliverDue } from "@/lib/webhooks/deliver";
import { newWebhookSecret } from "@/lib/webhooks/sign";
import { receivers, verifyHit } from "./support";

/**
 * Migration 0022 on a database that has deliveries waiting: rows written under 0021 (one URL and
 * one secret per business) are delivered after it to the same URL, signed with the same secret.
 * The database is a PGlite of its own, migrated to 0021 first, then to the end.
 */
const receiver = receivers();
const MIGRATIONS = path.join(process.cwd(), "db", "migrations");
const work = mkdtempSync(path.join(tmpdir(), "migration-0022-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A copy of the migrations folder that ends at `last` (the journal cut there). */
function migrationsUpTo(last: number): string {
  const dir = path.join(work, `upto-${last}`);
  cpSync(MIGRATIONS, dir, { recursive: true });
  const journalPath = path.join(dir, "meta", "_journal.json");
  const journal = JSON.parse(readFileSync(journalPath, "utf8")) as { entries: { idx: number }[] };
  journal.entries = journal.entries.filter((e) => e.idx <= last);
  writeFileSync(journalPath, JSON.stringify(journal));
  return dir;
}

describe("migration 0022 (webhook endpoints)", () => {
  it("keeps every pending delivery going to the same URL, signed with the same secret", async () => {
    const [hooks, notify] = [await receiver(), await receiver()];
    const pg = await PGlite.create({ extensions: { pg_trgm } });
    const db = drizzle({ client: pg, schema });
    try {
      await migrate(db, { migrationsFolder: migrationsUpTo(21) });
      const secret = newWebhookSecret();
      const rows = await db.execute<{ id: string }>(sql`
        insert into businesses (name, mode, webhook_url, enabled_coins, webhook_secret)
        values ('With a URL', 'test', ${hooks.url}, '{BITCOIN}', ${secret}), ('Without', 'test', null, '{BITCOIN}', ${newWebhookSecret()})
        returning id`);
      const [withUrl, without] = rows.rows.map((r) => Number(r.id));
      // Two rows waiting: one to the business's URL, one to a payment's own notifyUrl.
      for (const [messageId, url] of [["msg_before_endpoint", hooks.url], ["msg_before_notify", notify.url]]) {
        await db.execute(sql`
          insert into webhook_deliveries (message_id, business_id, event_type, url, body, status, next_attempt_at, created_at, updated_at)
          values (${messageId}, ${withUrl}, 'PAYMENT_CREATED', ${url}, ${JSON.stringify({ EventType: "PAYMENT_CREATED", ForPaymentEvents: null })}, 'pending', now(), now(), now())`);
      }

      await migrate(db, { migrationsFolder: MIGRATIONS });

      const endpoints = await db.select().from(schema.webhookEndpoints);
      expect(endpoints).toHaveLength(1);
      expect(endpoints[0]).toMatchObject({ businessId: withUrl, url: hooks.url, secret, eventTypes: null, enabled: true });
      expect(endpoints.some((e) => e.businessId === without)).toBe(false);
      const deliveries = await db.select().from(schema.webhookDeliveries).orderBy(schema.webhookDeliveries.id);
      expect(deliveries.map((d) => [d.messageId, d.endpointId])).toEqual([
        ["msg_before_endpoint", endpoints[0].id],
        ["msg_before_notify", null],
      ]);

      expect(await deliverDue(db as unknown as Db)).toBe(2);
      expect(hooks.hits.map((h) => h.headers["webhook-id"])).toEqual(["msg_before_endpoint"]);
      expect(notify.hits.map((h) => h.headers["webhook-id"])).toEqual(["msg_before_notify"]);
      expect(verifyHit(secret, hooks.hits[0])).toMatchObject({ EventType: "PAYMENT_CREATED" });
      expect(verifyHit(secret, notify.hits[0])).toMatchObject({ EventType: "PAYMENT_CREATED" });
      const after = await db.select().from(schema.webhookDeliveries);
      expect(after.every((d) => d.status === "succeeded")).toBe(true);
    } finally {
      await pg.close();
    }
  });
});
