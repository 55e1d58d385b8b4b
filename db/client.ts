import path from "node:path";
import { mkdirSync } from "node:fs";
import type { SQL } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import * as schema from "./schema";
import { config } from "@/lib/config";
import { postgresConnection } from "./postgres-url";

/** One type for both drivers, so queries and services never care which database runs. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A database handle or an open transaction: query functions take either. */
export type Tx = Db;

/**
 * The rows of `tx.execute(sql)`: postgres.js returns them as the result itself, PGlite as its
 * `rows`.
 */
export async function executeRows<T>(tx: Tx, statement: SQL): Promise<T[]> {
  const result: unknown = await tx.execute(statement);
  return (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as T[];
}

type Handle = { db: Db; kind: "pglite" | "postgres"; close: () => Promise<void>; ready: Promise<void> };

// Kept on globalThis: Next dev reloads modules, and PGlite allows one instance per data directory.
const g = globalThis as unknown as { __paymentsDb?: Handle };

/**
 * A small pool by default. postgres.js pipelines queries on a busy connection (several in
 * flight, their messages written together and their results read together), so a few
 * connections serve many concurrent requests with fewer socket writes and fewer wake-ups of
 * PostgreSQL's backends than one connection per request: on the 2-core bench machine a pool of
 * 3 cost ~25 % less server CPU per fetch, create and note than a pool of 10
 * (docs/performance.md). A transaction holds its connection to itself, so a database across a
 * network with many concurrent transactions wants a larger pool.
 */
function poolSize(): number {
  const n = Number(process.env.DATABASE_POOL_SIZE);
  return Number.isInteger(n) && n > 0 ? n : 3;
}

async function open(): Promise<Omit<Handle, "ready">> {
  const cfg = config();
  const migrationsFolder = path.join(process.cwd(), "db", "migrations");
  if (cfg.databaseUrl) {
    const { default: postgres } = await import("postgres");
    const { drizzle } = await import("drizzle-orm/postgres-js");
    const { migrate } = await import("drizzle-orm/postgres-js/migrator");
    const { url, host } = postgresConnection(cfg.databaseUrl);
    const client = postgres(url, {
      ...(host ? { host } : {}),
      max: poolSize(),
      onnotice: () => {},
      // Hot statements are prepared (db/prepared.ts) and may settle on a generic plan; the list
      // filters' statements are sent unnamed so each is planned for its own values
      // (plannedPerExecution).
    });
    const db = drizzle({ client, schema });
    await migrate(db, { migrationsFolder });
    return { db: db as unknown as Db, kind: "postgres", close: () => client.end() };
  }
  const { PGlite } = await import("@electric-sql/pglite");
  const { pg_trgm } = await import("@electric-sql/pglite/contrib/pg_trgm");
  const { drizzle } = await import("drizzle-orm/pglite");
  const { migrate } = await import("drizzle-orm/pglite/migrator");
  let dataDir: string | undefined;
  if (cfg.dataDir !== ":memory:") {
    dataDir = path.resolve(cfg.dataDir, "pgdata");
    mkdirSync(dataDir, { recursive: true });
  }
  const { withNamedStatements } = await import("./pglite-statements");
  const client = withNamedStatements(await PGlite.create({ dataDir, extensions: { pg_trgm } }));
  const db = drizzle({ client, schema });
  await migrate(db, { migrationsFolder });
  return { db: db as unknown as Db, kind: "pglite", close: () => client.close() };
}

function handle(): Handle {
  if (!g.__paymentsDb) {
    const opened = open();
    const h: Handle = {
      db: undefined as unknown as Db,
      kind: config().databaseUrl ? "postgres" : "pglite",
      close: async () => (await opened).close(),
      ready: opened.then((o) => {
        h.db = o.db;
      }),
    };
    // A failed open (bad URL, locked directory) must not be cached: the next call retries.
    h.ready.catch(() => {
      if (g.__paymentsDb === h) g.__paymentsDb = undefined;
    });
    g.__paymentsDb = h;
  }
  return g.__paymentsDb;
}

/** The process's database, migrated on first use. */
export async function getDb(): Promise<Db> {
  const h = handle();
  await h.ready;
  return h.db;
}

export function databaseKind(): "pglite" | "postgres" {
  return handle().kind;
}

export async function closeDb(): Promise<void> {
  const h = g.__paymentsDb;
  if (!h) return;
  g.__paymentsDb = undefined;
  await h.ready.catch(() => {});
  await h.close();
}
