import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MIGRATION_LOCK_KEY } from "@/db/migrate";

/*
 * Instances that start together on an empty PostgreSQL migrate it once: two real server processes
 * (test/shutdown/server-main.ts: the service's database client and background runner behind a
 * small HTTP server, no Next.js build needed) start on a database made for the run, both serve,
 * and drizzle's table lists every migration once (db/migrate.ts holds the advisory lock). So that
 * the two really race, the test holds the lock itself until both processes wait on it, then lets
 * go. Then the same race without the lock, to show what the lock is for.
 *
 * Needs PostgreSQL (DATABASE_URL: the server whose `postgres` role may create databases); on the
 * embedded default there is nothing to race, one process owns its data directory.
 */
const admin = process.env.DATABASE_URL;
const journal = JSON.parse(readFileSync(path.join("db", "migrations", "meta", "_journal.json"), "utf8")) as { entries: { tag: string }[] };
const created: string[] = [];
const started: Proc[] = [];
let sql: postgres.Sql;

/** A fresh, empty database on DATABASE_URL's server; its URL. Dropped after the file. */
async function freshDatabase(): Promise<string> {
  const name = `test_upgrade_${randomBytes(6).toString("hex")}`;
  await sql.unsafe(`create database ${name}`);
  created.push(name);
  const url = new URL(admin!);
  url.pathname = `/${name}`;
  return url.toString();
}

type Proc = { out: () => string; exited: Promise<number | null>; kill: () => void };

function run(command: string, args: string[], env: Record<string, string | undefined>): Proc {
  const merged = { ...process.env, ...env };
  for (const [k, v] of Object.entries(merged)) if (v === undefined) delete merged[k];
  const child = spawn(command, args, { env: merged, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout.on("data", (d: Buffer) => (out += d));
  child.stderr.on("data", (d: Buffer) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const proc = { out: () => out, exited, kill: () => child.kill("SIGTERM") };
  started.push(proc);
  return proc;
}

/** Starts the server on `url`; resolves with its port once it listens, rejects if it exits first. */
function startInstance(url: string): Promise<Proc & { port: number }> {
  const env: Record<string, string | undefined> = { NODE_ENV: "development", DATABASE_URL: url, DATA_DIR: ":memory:" };
  // No chain node: the background runner then follows none.
  for (const name of ["BITCOIN_RPC_URL", "LITECOIN_RPC_URL", "BITCOIN_CASH_RPC_URL", "ETHEREUM_RPC_URL", "TRON_RPC_URL"]) env[name] = undefined;
  const proc = run(path.resolve("node_modules/.bin/tsx"), ["test/shutdown/server-main.ts"], env);
  return new Promise((resolve, reject) => {
    const timer = setInterval(() => {
      const port = /listening (\d+)/.exec(proc.out())?.[1];
      if (port) {
        clearInterval(timer);
        resolve({ ...proc, port: Number(port) });
      }
    }, 50);
    void proc.exited.then((code) => {
      clearInterval(timer);
      reject(new Error(`the instance exited (${code}) before it listened:\n${proc.out()}`));
    });
  });
}

describe.runIf(admin)("migrations when several instances start together on an empty PostgreSQL", () => {
  beforeAll(() => {
    sql = postgres(admin!, { max: 1, onnotice: () => {} });
  });
  afterAll(async () => {
    // A failed assertion leaves no process behind.
    for (const p of started) p.kill();
    await Promise.all(started.map((p) => p.exited));
    for (const name of created) await sql.unsafe(`drop database if exists ${name} with (force)`);
    await sql.end();
  });

  it("both instances start and serve, and each migration is applied once", { timeout: 120_000 }, async () => {
    const url = await freshDatabase();
    const holder = postgres(url, { max: 1, onnotice: () => {} });
    const key = MIGRATION_LOCK_KEY.toString();
    await holder`select pg_advisory_lock(${key}::bigint)`;
    const starting = [startInstance(url), startInstance(url)];
    // Both processes are up and queued behind the lock: neither has migrated anything yet.
    // pg_locks is the whole server's: other test files wait on advisory locks of their own.
    const waiting = async () =>
      Number(
        (
          await holder`select count(*) as n from pg_locks
            where locktype = 'advisory' and not granted and database = (select oid from pg_database where datname = current_database())`
        )[0].n,
      );
    await expect.poll(waiting, { timeout: 60_000, interval: 100 }).toBe(2);
    expect((await holder`select to_regclass('public.payments') as t`)[0].t).toBeNull();
    await holder`select pg_advisory_unlock(${key}::bigint)`;
    await holder.end();
    const instances = await Promise.all(starting);
    try {
      for (const { port } of instances) {
        const res = await fetch(`http://127.0.0.1:${port}/businesses`, { method: "POST" });
        expect(res.status).toBe(201);
      }
    } finally {
      for (const i of instances) i.kill();
      await Promise.all(instances.map((i) => i.exited));
    }
    const db = postgres(url, { max: 1, onnotice: () => {} });
    try {
      const rows = await db<{ hash: string }[]>`select hash from drizzle.__drizzle_migrations`;
      expect(rows).toHaveLength(journal.entries.length);
      expect(new Set(rows.map((r) => r.hash)).size).toBe(journal.entries.length);
    } finally {
      await db.end();
    }
  });

  it("without the lock, the second migrator fails on the first's tables", { timeout: 120_000 }, async () => {
    const url = await freshDatabase();
    // drizzle's migrator alone, in two processes that begin at the same instant.
    const bare = `
      import postgres from "postgres";
      import { drizzle } from "drizzle-orm/postgres-js";
      import { migrate } from "drizzle-orm/postgres-js/migrator";
      const sql = postgres(process.env.DATABASE_URL, { max: 1, onnotice: () => {} });
      await sql\`select 1\`;
      await new Promise((r) => setTimeout(r, Number(process.env.START_AT) - Date.now()));
      try { await migrate(drizzle({ client: sql }), { migrationsFolder: "db/migrations" }); console.log("migrated"); }
      finally { await sql.end(); }`;
    const env = { DATABASE_URL: url, START_AT: String(Date.now() + 3000) };
    const racers = [0, 1].map(() => run(process.execPath, ["--input-type=module", "--eval", bare], env));
    const codes = await Promise.all(racers.map((r) => r.exited));
    expect(codes.filter((c) => c === 0).length, racers.map((r) => r.out()).join("\n---\n")).toBe(1);
    expect(racers.map((r) => r.out()).join("\n")).toMatch(/already exists|duplicate key/);
  });
});
