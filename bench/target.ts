import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import type { DbKind, Options } from "./options";
import type { Fixture } from "./scenarios";
import { forgetStored, readStored, writeStored, type StoredFixture } from "./store";
import { postgresConnection } from "@/db/postgres-url";

/** The database a run uses, and the secrets the server and the bench process share. */
export type Target = {
  kind: DbKind;
  databaseUrl: string | undefined;
  dataDir: string;
  apiKeySecret: string;
  adminToken: string;
  cleanup: () => void;
  /** With `--reuse-store`: the fixture of a store seeded by an earlier run, which this one measures again. */
  stored?: StoredFixture;
  /** With `--reuse-store`: keeps the fixture of the store this run seeded, for later runs. */
  keep: (fixture: Fixture) => void;
};

/**
 * PGlite: a fresh temporary DATA_DIR. PostgreSQL: the database at DATABASE_URL (created when
 * missing), its `public` schema dropped and recreated — so it must be a throw-away database:
 * one whose name contains "bench", unless --force.
 */
export async function prepareTarget(kind: DbKind, o: Options): Promise<Target> {
  const storeDir = path.join(os.tmpdir(), "cryptopay-bench-store");
  const file =
    kind === "pglite"
      ? path.join(storeDir, "fixture.json")
      : path.join(os.tmpdir(), `cryptopay-bench-store-${encodeURIComponent(o.databaseUrl)}.json`);
  let stored = o.reuseStore ? readStored(file, o.payments) : undefined;
  // A kept PGlite store is a directory of its own, its fixture inside it; any other run's
  // DATA_DIR is a fresh temporary one.
  const keepDir = o.reuseStore && kind === "pglite";
  const dataDir = keepDir ? storeDir : mkdtempSync(path.join(os.tmpdir(), "cryptopay-bench-"));
  if (keepDir) {
    if (!(stored && existsSync(path.join(dataDir, "pgdata")))) {
      stored = undefined;
      rmSync(dataDir, { recursive: true, force: true });
    }
    mkdirSync(dataDir, { recursive: true });
  }
  const secrets = {
    apiKeySecret: stored?.apiKeySecret ?? randomBytes(32).toString("base64url"),
    adminToken: stored?.adminToken ?? `adm_${randomBytes(24).toString("base64url")}`,
  };
  const base = {
    kind,
    dataDir,
    ...secrets,
    cleanup: () => {
      if (!keepDir) rmSync(dataDir, { recursive: true, force: true });
    },
    keep: (fixture: Fixture) => {
      if (o.reuseStore) writeStored(file, { payments: o.payments, fixture, ...secrets });
    },
  };
  if (kind === "pglite") return { ...base, databaseUrl: undefined, stored };

  const url = new URL(o.databaseUrl);
  const name = decodeURIComponent(url.pathname.slice(1));
  if (!name.includes("bench") && !o.force) {
    throw new Error(`refusing to reset database "${name}": use a database named *bench*, or pass --force`);
  }
  const admin = new URL(url);
  admin.pathname = "/postgres";
  const connect = (u: URL) => {
    const { url: plain, host } = postgresConnection(u.toString());
    return postgres(plain, { max: 1, onnotice: () => {}, ...(host ? { host } : {}) });
  };
  const maint = connect(admin);
  try {
    const [exists] = await maint`select 1 from pg_database where datname = ${name}`;
    if (!exists) await maint.unsafe(`create database "${name.replace(/"/g, '""')}"`);
  } finally {
    await maint.end();
  }
  const sql = connect(url);
  try {
    // A kept fixture whose business no longer has its payments (the database was reset since)
    // is seeded again.
    if (stored) {
      const seeded = await sql
        .unsafe<{ n: number }[]>(`select count(*)::int as n from payments where business_id = ${Number(stored.fixture.businessId)}`)
        .catch(() => [{ n: 0 }]);
      if (seeded[0].n < stored.payments) stored = undefined;
    }
    if (!stored) {
      forgetStored(file);
      await sql.unsafe("drop schema if exists public cascade; drop schema if exists drizzle cascade; create schema public;");
    }
  } finally {
    await sql.end();
  }
  return { ...base, databaseUrl: url.toString(), stored };
}

/** The environment the service reads (lib/config), for the server and for this process. */
export function serviceEnv(t: Target, port: number): Record<string, string> {
  return {
    ...(t.databaseUrl ? { DATABASE_URL: t.databaseUrl } : {}),
    DATA_DIR: t.dataDir,
    API_KEY_SECRET: t.apiKeySecret,
    ADMIN_TOKEN: t.adminToken,
    PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
    PORT: String(port),
    // A limit the bench never reaches: the limiter must not cap the figures.
    RATE_LIMIT_PER_SECOND: "1000000000",
    RATE_LIMIT_BURST: "1000000000",
  };
}

/**
 * Points this process at the target before any project module reads its configuration
 * (config() is parsed once per process).
 */
export function pointThisProcessAt(t: Target, port: number): void {
  delete process.env.DATABASE_URL;
  Object.assign(process.env, serviceEnv(t, port));
}
