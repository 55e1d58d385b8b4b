import { execFile } from "node:child_process";
import { renameSync, rmSync } from "node:fs";
import { promisify } from "node:util";
import postgres from "postgres";
import { drizzle } from "drizzle-orm/postgres-js";
import type { Db } from "@/db/client";
import { postgresConnection } from "@/db/postgres-url";
import { otherSessionCount, publicTableCount } from "@/db/queries/backup";
import * as schema from "@/db/schema";
import { Refusal, type BackupIo } from "./admin-backup-io";

/**
 * `backup` and `restore` with DATABASE_URL: PostgreSQL's own tools, run when they are on PATH
 * (Debian's postgresql-client), since only they read and write PostgreSQL's dump formats. pg_dump
 * takes its copy in one repeatable-read snapshot while the service keeps writing. Without them
 * the command prints what to install and the same command to run by hand (docs/operations.md,
 * "Backups").
 */

const run = promisify(execFile);

/** libpq's connection for the tools: the URL without its password (kept out of `ps`), the password in PGPASSWORD. */
function libpq(databaseUrl: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const url = new URL(databaseUrl);
  const password = decodeURIComponent(url.password);
  url.password = "";
  return { dbname: url.toString(), env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) } };
}

/** The URL as the operator may paste it into a shell: its password replaced. */
function shown(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  if (url.password) url.password = "…";
  return url.toString();
}

async function tool(name: "pg_dump" | "pg_restore", args: string[], env: NodeJS.ProcessEnv, manual: string): Promise<string> {
  try {
    const { stdout } = await run(name, args, { env, maxBuffer: 64 * 1024 * 1024 });
    return stdout;
  } catch (e) {
    const err = e as NodeJS.ErrnoException & { stderr?: string };
    if (err.code === "ENOENT") {
      throw new Refusal(`${name} is not on PATH: install PostgreSQL's client tools (Debian: apt-get install postgresql-client), or run it yourself:\n  ${manual}`);
    }
    throw new Error(`${name}: ${(err.stderr || err.message).trim()}`);
  }
}

export async function backupPostgres(databaseUrl: string, file: string, io: BackupIo): Promise<void> {
  const { dbname, env } = libpq(databaseUrl);
  const partial = `${file}.partial`;
  const manual = `pg_dump --format=custom --file=${file} '${shown(databaseUrl)}'`;
  try {
    await tool("pg_dump", ["--format=custom", `--file=${partial}`, `--dbname=${dbname}`], env, manual);
  } catch (e) {
    rmSync(partial, { force: true });
    throw e;
  }
  renameSync(partial, file);
  io.out(`Backup written to ${file} (pg_dump's custom format; restore with \`npm run admin -- restore\` or pg_restore).`);
}

/**
 * pg_restore into the database at DATABASE_URL, in one transaction (all or nothing), after
 * `pg_restore --list` has read the file. A database that already has tables is replaced only
 * with --force (pg_restore --clean), and never while other sessions (a running service) use it.
 */
export async function restorePostgres(databaseUrl: string, file: string, force: boolean, io: BackupIo): Promise<void> {
  const { dbname, env } = libpq(databaseUrl);
  const manual = `pg_restore --no-owner --exit-on-error --single-transaction --dbname='${shown(databaseUrl)}' ${file}`;
  try {
    await tool("pg_restore", ["--list", file], env, manual);
  } catch (e) {
    if (e instanceof Refusal) throw e;
    throw new Refusal(`${file} is not a pg_dump archive pg_restore can read (${(e as Error).message}). Nothing was changed.`);
  }
  const { url, host } = postgresConnection(databaseUrl);
  const sql = postgres(url, { max: 1, onnotice: () => {}, ...(host ? { host } : {}) });
  let tables: number;
  let others: number;
  try {
    const db = drizzle({ client: sql, schema }) as unknown as Db;
    tables = await publicTableCount(db);
    others = await otherSessionCount(db);
  } finally {
    await sql.end();
  }
  if (others > 0) {
    throw new Refusal(`${others} other session(s) use this database: stop the service (every instance) first. Nothing was changed.`);
  }
  if (tables > 0 && !force) {
    throw new Refusal(
      `The database at DATABASE_URL already has ${tables} tables. A restore replaces them: stop the service, then run again with --force ` +
        "(pg_restore --clean drops what the backup holds and recreates it).",
    );
  }
  const clean = tables > 0 ? ["--clean", "--if-exists"] : [];
  await tool("pg_restore", ["--no-owner", "--exit-on-error", "--single-transaction", ...clean, `--dbname=${dbname}`, file], env, manual);
  io.out(`Restored ${file} into the database at DATABASE_URL. Start the service: it applies the migrations newer than the backup.`);
}
