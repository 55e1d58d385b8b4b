import postgres from "postgres";
import { migrateUnderLock } from "../db/migrate";

/**
 * With DATABASE_URL (CI, and `npm test` on a machine with PostgreSQL) the suite runs against
 * that real database, reset and migrated here once; each test file creates its own businesses
 * so files can run in parallel. Without it every test file gets its own in-memory PGlite.
 */
export default async function setup() {
  const url = process.env.DATABASE_URL;
  if (!url) return;
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await sql.unsafe("drop schema if exists public cascade; drop schema if exists drizzle cascade; create schema public;");
    await migrateUnderLock(sql);
  } finally {
    await sql.end();
  }
}
