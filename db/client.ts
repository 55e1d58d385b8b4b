import { mkdirSync } from "node:fs";
import type { SQL } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import * as schema from "./schema";
import { databaseSettings } from "./settings";
import { postgresConnection } from "./postgres-url";

/** One type for both drivers, so queries and services never care which database runs. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A database handle or an open transaction: query functions take either. */
export type Tx = Db;

/** The rows of `tx.execute(sql)` (postgres.js, the driver for both databases, returns them as the result itself). */
export async function executeRows<T>(tx: Tx, statement: SQL): Promise<T[]> {
  return (await tx.execute(statement)) as unknown as T[];
}

type Handle = {
  db: Db;
  /** What list pages read through: `db` itself on PGlite (one session). */
  listDb: Db;
  kind: "pglite" | "postgres";
  close: () => Promise<void>;
  ready: Promise<void>;
  /** The embedded database's thread stopped on its own (a crash). */
  exited?: Promise<void>;
};

// Kept on globalThis: Next dev reloads modules, and PGlite allows one instance per data directory.
// `__paymentsDbClosed`: closed for good (the server is stopping), see `closeDb`.
const g = globalThis as unknown as { __paymentsDb?: Handle; __paymentsDbClosed?: boolean };

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
  return positiveInt(process.env.DATABASE_POOL_SIZE, 3);
}

/**
 * List pages get connections of their own, one by default. A list is the API's costliest read
 * (two statements, ~25 KB of records written by PostgreSQL); pipelined on one connection,
 * concurrent lists run in PostgreSQL one after another, on one core, while the server's thread
 * has the other, and their results come back in fewer reads. On the 2-core bench machine, at a
 * million payments and 8-32 concurrent lists, two alternating pairs served 4-13 % and 18-44 %
 * more lists per second, with less CPU on both sides and a shorter p99 at 32 connections
 * (docs/performance.md, "List pages read through a connection of their own"). Writes and transactions keep the main pool, so a burst of
 * lists never holds the connections they need, and several commits can share a WAL flush. A
 * database server with cores to spare wants more (DATABASE_LIST_POOL_SIZE).
 */
function listPoolSize(): number {
  return positiveInt(process.env.DATABASE_LIST_POOL_SIZE, 1);
}

function positiveInt(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? n : fallback;
}

/**
 * Both databases are reached through postgres.js. PGlite runs on a thread of its own and serves
 * the wire protocol on a Unix socket (db/pglite-server.mjs, @electric-sql/pglite-socket): the request thread then only sends
 * and decodes, as with PostgreSQL, while the WebAssembly executes on the other core. PGlite is
 * one session, hence one connection; postgres.js pipelines the queries of concurrent requests
 * on it.
 */
async function open(): Promise<Omit<Handle, "ready">> {
  const cfg = databaseSettings();
  const { default: postgres } = await import("postgres");
  const { drizzle } = await import("drizzle-orm/postgres-js");
  const { migrateUnderLock } = await import("./migrate");
  // Hot statements are prepared (db/prepared.ts) and may settle on a generic plan, the first
  // page of an unfiltered, one-status or time-range list among them; the other lists' statements
  // are sent unnamed with their values inline, so each is planned for its own values
  // (withValuesInline and firstPageShape in db/queries/payments-list.ts and payment-list-statements.ts).
  const common = { onnotice: () => {} };

  if (cfg.databaseUrl) {
    const { url, host } = postgresConnection(cfg.databaseUrl);
    const options = { ...common, ...(host ? { host } : {}) };
    // Migrations first, on a connection of their own: the advisory lock they run under is a
    // session's (db/migrate.ts), and the pools below spread statements over several sessions.
    const migrator = postgres(url, { ...options, max: 1 });
    try {
      await migrateUnderLock(migrator);
    } finally {
      await migrator.end();
    }
    const client = postgres(url, { ...options, max: poolSize() });
    // postgres.js connects on first use: no connection is opened for lists until one is asked for.
    const listClient = postgres(url, {
      ...options,
      max: listPoolSize(),
      // The named statements lists run are the records' (`id = any($1)`, primary-key lookups
      // whatever the ids) and the first pages of the plain filters (walks of a list index
      // whatever the values). Left to choose, PostgreSQL keeps planning the records anew when its
      // first five pages were short ones (a few search matches), since a custom plan for 3 ids
      // looks cheaper than the generic plan: ~0.35 ms more per list in the database
      // (docs/performance.md, "The list connection keeps generic plans"). The other pages carry their values inline and are
      // planned for them whatever this says.
      connection: { plan_cache_mode: "force_generic_plan" },
    });
    const db = drizzle({ client, schema });
    return {
      db: db as unknown as Db,
      listDb: drizzle({ client: listClient, schema }) as unknown as Db,
      kind: "postgres",
      close: async () => {
        await Promise.all([client.end(), listClient.end()]);
      },
    };
  }

  let dataDir: string | undefined;
  let backupSocketPath: string | undefined;
  if (cfg.dataDir !== ":memory:") {
    const paths = await import("./embedded-backup");
    dataDir = paths.pgdataPath(cfg.dataDir);
    // `npm run admin -- backup` asks the running service through it (db/pglite-server.mjs).
    backupSocketPath = paths.backupSocketPath(cfg.dataDir);
    mkdirSync(dataDir, { recursive: true });
  }
  const { startEmbeddedDatabase } = await import("./pglite-worker");
  const embedded = await startEmbeddedDatabase(dataDir, { backupSocketPath });
  const client = postgres({
    ...common,
    path: embedded.socketPath,
    user: "postgres",
    database: "postgres",
    max: 1,
    // A local socket to a database only this process uses: nothing to gain from recycling it.
    max_lifetime: null,
    idle_timeout: 0,
  });
  let stopMaintenance = async () => {};
  const closeAll = async () => {
    await stopMaintenance();
    await client.end();
    await embedded.close();
  };
  try {
    const db = drizzle({ client, schema });
    await migrateUnderLock(client);
    // PGlite runs no autovacuum of its own (db/maintenance.ts).
    const { startMaintenance } = await import("./maintenance");
    stopMaintenance = startMaintenance(client);
    return { db: db as unknown as Db, listDb: db as unknown as Db, kind: "pglite", close: closeAll, exited: embedded.exited };
  } catch (err) {
    await closeAll().catch(() => {});
    throw err;
  }
}

function handle(): Handle {
  if (g.__paymentsDbClosed) throw new Error("the database is closed: the server is stopping");
  if (!g.__paymentsDb) {
    const opened = open();
    const h: Handle = {
      db: undefined as unknown as Db,
      listDb: undefined as unknown as Db,
      kind: databaseSettings().databaseUrl ? "postgres" : "pglite",
      close: async () => (await opened).close(),
      ready: opened.then((o) => {
        h.db = o.db;
        h.listDb = o.listDb;
        // A crashed embedded database is not cached either: the next call starts it again.
        o.exited?.then(() => {
          if (g.__paymentsDb === h) g.__paymentsDb = undefined;
        });
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

/** The connections this process may open to the database: both pools on PostgreSQL, PGlite's one. */
export function poolMaxConnections(): number {
  return databaseSettings().databaseUrl ? poolSize() + listPoolSize() : 1;
}

/** The process's database, migrated on first use. */
export async function getDb(): Promise<Db> {
  const h = handle();
  await h.ready;
  return h.db;
}

/** The handle list pages read through (`listPoolSize`): the same database, other connections. */
export async function getListDb(): Promise<Db> {
  const h = handle();
  await h.ready;
  return h.listDb;
}

export function databaseKind(): "pglite" | "postgres" {
  return handle().kind;
}

/**
 * Closes the process's database (PGlite shuts down cleanly, with a checkpoint). With `final`
 * (the server's stop, lib/background/shutdown.ts) it stays closed: a request or job still
 * running past the stop's bound gets an error from `getDb` instead of opening it again.
 */
export async function closeDb(opts: { final?: boolean } = {}): Promise<void> {
  if (opts.final) g.__paymentsDbClosed = true;
  const h = g.__paymentsDb;
  if (!h) return;
  g.__paymentsDb = undefined;
  await h.ready.catch(() => {});
  await h.close();
}
