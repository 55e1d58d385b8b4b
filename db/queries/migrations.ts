import { sql } from "drizzle-orm";
import { executeRows, type Tx } from "@/db/client";

/** A migration drizzle's migrator recorded: its SQL file's hash and its journal entry's time. */
export type AppliedMigration = { hash: string; createdAt: number };

/** Every applied migration, oldest first (`npm run db:migrate` prints how many; the upgrade test counts them). */
export async function appliedMigrations(tx: Tx): Promise<AppliedMigration[]> {
  const rows = await executeRows<{ hash: string; created_at: string | number }>(
    tx,
    sql`select hash, created_at from drizzle.__drizzle_migrations order by created_at, id`,
  );
  return rows.map((r) => ({ hash: r.hash, createdAt: Number(r.created_at) }));
}
