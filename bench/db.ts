import { sql, type SQL } from "drizzle-orm";
import type { Db } from "@/db/client";

/**
 * The project's own database handle (db/client: PGlite or postgres.js, migrated on open). The
 * bench process opens it only while the server is stopped when the database is PGlite (one
 * process per data directory).
 */
export async function openDb(): Promise<Db> {
  const { getDb } = await import("@/db/client");
  return getDb();
}

export async function closeDb(): Promise<void> {
  const { closeDb } = await import("@/db/client");
  await closeDb();
}

/** Rows of a raw statement. */
export async function query<T = Record<string, unknown>>(db: Db, q: SQL | string): Promise<T[]> {
  const { executeRows } = await import("@/db/client");
  return executeRows<T>(db, typeof q === "string" ? sql.raw(q) : q);
}

export async function vacuumAnalyze(db: Db): Promise<void> {
  for (const t of ["payments", "customers", "charges", "transfers", "payment_events", "webhook_deliveries"]) {
    await query(db, `vacuum analyze ${t}`);
  }
}

/** PostgreSQL's checkpoint now, rather than spread over minutes; PGlite checkpoints as it closes. */
export async function checkpoint(db: Db): Promise<void> {
  const { databaseKind } = await import("@/db/client");
  if (databaseKind() === "postgres") await query(db, "checkpoint");
}
