import { count, eq, min, sql } from "drizzle-orm";
import { executeRows, type Tx } from "@/db/client";
import { customerEmails, webhookDeliveries } from "@/db/schema";

/*
 * What /readyz and /metrics read: one cheap statement each. The backlogs read the pending rows
 * only, through the partial indexes the workers claim them by (…_due_idx, `status = 'pending'`).
 */

export type Backlog = { pending: number; oldestCreatedAt: Date | null };

export async function webhookBacklog(tx: Tx): Promise<Backlog> {
  const [row] = await tx
    .select({ pending: count(), oldest: min(webhookDeliveries.createdAt) })
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.status, "pending"));
  return { pending: Number(row.pending), oldestCreatedAt: row.oldest ? new Date(row.oldest) : null };
}

export async function customerEmailBacklog(tx: Tx): Promise<Backlog> {
  const [row] = await tx
    .select({ pending: count(), oldest: min(customerEmails.createdAt) })
    .from(customerEmails)
    .where(eq(customerEmails.status, "pending"));
  return { pending: Number(row.pending), oldestCreatedAt: row.oldest ? new Date(row.oldest) : null };
}

/** The database answers. */
export async function ping(tx: Tx): Promise<void> {
  await tx.execute(sql`select 1`);
}

/**
 * The creation time of the latest migration drizzle's migrator recorded (its `created_at` is
 * the journal entry's `when`); null when none is.
 */
export async function latestAppliedMigration(tx: Tx): Promise<number | null> {
  const [row] = await executeRows<{ latest: string | number | null }>(
    tx,
    sql`select max(created_at) as latest from drizzle.__drizzle_migrations`,
  );
  return row?.latest == null ? null : Number(row.latest);
}

/** Connections to the current database by state (every client's, every instance's). */
export async function connectionsByState(tx: Tx): Promise<{ state: string; connections: number }[]> {
  const rows = await executeRows<{ state: string | null; connections: string | number }>(
    tx,
    sql`select coalesce(state, 'unknown') as state, count(*) as connections from pg_stat_activity where datname = current_database() group by 1`,
  );
  return rows.map((r) => ({ state: r.state ?? "unknown", connections: Number(r.connections) }));
}
