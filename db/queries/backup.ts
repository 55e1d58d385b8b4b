import { count, sql } from "drizzle-orm";
import { executeRows, type Tx } from "@/db/client";
import { apiKeys, businesses, payments, webhookAttempts, webhookDeliveries } from "@/db/schema";

/** What a restored database holds, as `npm run admin -- restore` reports it before it takes its place. */
export type BackupContents = {
  businesses: number;
  payments: number;
  apiKeys: number;
  webhookDeliveries: number;
  webhookAttempts: number;
};

export async function backupContents(tx: Tx): Promise<BackupContents> {
  const n = async (table: typeof businesses | typeof payments | typeof apiKeys | typeof webhookDeliveries | typeof webhookAttempts) =>
    Number((await tx.select({ n: count() }).from(table))[0].n);
  return {
    businesses: await n(businesses),
    payments: await n(payments),
    apiKeys: await n(apiKeys),
    webhookDeliveries: await n(webhookDeliveries),
    webhookAttempts: await n(webhookAttempts),
  };
}

/** Tables in the database's `public` schema: none in a database nothing was restored into or migrated yet. */
export async function publicTableCount(tx: Tx): Promise<number> {
  const [row] = await executeRows<{ n: string | number }>(
    tx,
    sql`select count(*) as n from pg_tables where schemaname = 'public'`,
  );
  return Number(row.n);
}

/** Other sessions on the current database (a running service's pools among them). */
export async function otherSessionCount(tx: Tx): Promise<number> {
  const [row] = await executeRows<{ n: string | number }>(
    tx,
    sql`select count(*) as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`,
  );
  return Number(row.n);
}
