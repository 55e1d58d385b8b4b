/**
 * `npm run db:migrate`: applies the pending migrations to the configured database (DATABASE_URL,
 * else the embedded one in DATA_DIR) and exits, through the same code as a start (db/client.ts,
 * under the advisory lock of db/migrate.ts). A start migrates by itself; this is for an upgrade
 * that migrates before it rolls the instances (docs/operations.md, "Upgrades").
 */
import { closeDb, databaseKind, getDb } from "@/db/client";
import { appliedMigrations } from "@/db/queries/migrations";

try {
  const db = await getDb();
  const applied = await appliedMigrations(db);
  const where = databaseKind() === "postgres" ? "PostgreSQL at DATABASE_URL" : "the embedded database in DATA_DIR";
  console.log(`Migrations applied to ${where}: ${applied.length} in all.`);
} catch (err) {
  console.error(`Could not migrate: ${(err as Error).message}`);
  process.exitCode = 1;
} finally {
  await closeDb();
}
