import { closeSync, existsSync, mkdirSync, openSync, readSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import postgres from "postgres";
import { drizzle } from "drizzle-orm/postgres-js";
import type { Db } from "@/db/client";
import { backupSocketPath, NotServing, pgdataPath, requestDump, serviceAnswers } from "@/db/embedded-backup";
import { startEmbeddedDatabase } from "@/db/pglite-worker";
import { backupContents, type BackupContents } from "@/db/queries/backup";
import { appliedMigrations } from "@/db/queries/migrations";
import * as schema from "@/db/schema";
import { Refusal, type BackupIo } from "./admin-backup-io";
import { backupPostgres, restorePostgres } from "./admin-backup-postgres";

/**
 * `npm run admin -- backup FILE` and `restore FILE [--force]`: unlike the other commands these
 * work on the database itself, not through the admin API. The embedded database is dumped by the
 * running service (db/pglite-server.mjs explains why that copy is consistent) or, when no service
 * holds DATA_DIR, by this process; PostgreSQL (DATABASE_URL) by pg_dump
 * (scripts/admin-backup-postgres.ts).
 */

const SECRETS_NOTE =
  "The backup holds the database only. API keys verify with API_KEY_SECRET and the admin API needs ADMIN_TOKEN: keep them " +
  "(your environment file, or DATA_DIR/secrets.json on the embedded quick start) beside the backup, as carefully.";

/** Runs `backup …` or `restore …`; resolves to the exit code (0 done, 1 refused or failed, 2 usage). */
export async function runBackupCommand(argv: string[], io: BackupIo): Promise<number> {
  const [command, ...rest] = argv;
  if (rest.includes("--help") || rest.includes("-h")) {
    io.out(`Usage: npm run admin -- ${command === "backup" ? "backup FILE" : "restore FILE [--force]"} (docs/operations.md, "Backups")`);
    return 0;
  }
  let parsed;
  try {
    parsed = parseArgs({ args: rest, options: { force: { type: "boolean" } }, allowPositionals: true, strict: true });
    if (parsed.positionals.length !== 1) throw new Error(`${command} needs one FILE, got ${parsed.positionals.length}`);
    if (command === "backup" && parsed.values.force) throw new Error("backup takes no --force");
  } catch (e) {
    io.err(`${(e as Error).message.split("\n")[0]}\nRun \`npm run admin -- help\` for usage.`);
    return 2;
  }
  const file = path.resolve(parsed.positionals[0]);
  const force = parsed.values.force === true;
  const databaseUrl = io.env.DATABASE_URL || undefined;
  try {
    if (command === "backup") {
      if (databaseUrl) await backupPostgres(databaseUrl, file, io);
      else await backupEmbedded(io.env.DATA_DIR || "./.data", file, io);
    } else if (databaseUrl) await restorePostgres(databaseUrl, file, force, io);
    else await restoreEmbedded(io.env.DATA_DIR || "./.data", file, force, io);
    io.err(SECRETS_NOTE);
    return 0;
  } catch (e) {
    io.err(e instanceof Refusal ? e.message : `${command} failed: ${(e as Error).message}`);
    return 1;
  }
}

function embeddedDir(dataDir: string): string {
  if (dataDir === ":memory:") throw new Refusal("DATA_DIR is :memory:: that database lives only inside its process and cannot be backed up or restored.");
  return path.resolve(dataDir);
}

/** Writes `bytes` to `file` through a temporary name, so a file under that name is always whole. */
function writeWhole(file: string, bytes: Buffer): void {
  const partial = `${file}.partial`;
  writeFileSync(partial, bytes, { mode: 0o600 });
  renameSync(partial, file);
}

async function backupEmbedded(dataDirSetting: string, file: string, io: BackupIo): Promise<void> {
  const dataDir = embeddedDir(dataDirSetting);
  let bytes: Buffer;
  try {
    bytes = await requestDump(dataDir);
    io.err(`Backed up the running service's embedded database (DATA_DIR=${dataDir}).`);
  } catch (e) {
    if (!(e instanceof NotServing)) throw e;
    if (!existsSync(path.join(pgdataPath(dataDir), "PG_VERSION"))) {
      throw new Refusal(`No database in DATA_DIR=${dataDir} (no ${pgdataPath(dataDir)}/PG_VERSION), and no service answers on ${backupSocketPath(dataDir)}. Is DATA_DIR right?`);
    }
    // No service holds the directory: open it here, behind the same socket, so a service that
    // starts meanwhile refuses instead of opening the files twice; dumped the same way.
    const db = await startEmbeddedDatabase(pgdataPath(dataDir), { backupSocketPath: backupSocketPath(dataDir) });
    try {
      bytes = await requestDump(dataDir);
    } finally {
      await db.close();
    }
    io.err(`No service runs on DATA_DIR=${dataDir}: backed up the stopped database.`);
  }
  writeWhole(file, bytes);
  io.out(`Backup written to ${file} (${megabytes(bytes.length)}).`);
}

const megabytes = (n: number) => `${(n / 1e6).toFixed(1)} MB`;

/**
 * Loads `file` into a new directory beside DATA_DIR/pgdata and reads it through the service's own
 * driver (a start of PostgreSQL on it, the recovery of a copy taken under load included); only a
 * backup that opens and holds this service's tables takes pgdata's place. The database it
 * replaces (--force) is kept, renamed.
 */
async function restoreEmbedded(dataDirSetting: string, file: string, force: boolean, io: BackupIo): Promise<void> {
  const dataDir = embeddedDir(dataDirSetting);
  checkGzip(file);
  if (await serviceAnswers(dataDir)) {
    throw new Refusal(
      `A service is running on DATA_DIR=${dataDir} (${backupSocketPath(dataDir)} answers). Stop it first: a restore replaces the database under it.`,
    );
  }
  const pgdata = pgdataPath(dataDir);
  const existing = existsSync(path.join(pgdata, "PG_VERSION"));
  if (existing && !force) {
    throw new Refusal(
      `DATA_DIR=${dataDir} already holds a database (${pgdata}). A restore replaces it: stop the service, then run again with --force ` +
        "(the current database is kept beside it, renamed).",
    );
  }
  mkdirSync(dataDir, { recursive: true });
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  const staging = `${pgdata}.restoring-${stamp}`;
  let contents: BackupContents & { migrations: number };
  try {
    contents = await openRestored(staging, file, backupSocketPath(dataDir));
  } catch (e) {
    rmSync(staging, { recursive: true, force: true });
    if (e instanceof Refusal) throw e;
    throw new Refusal(`${file} is not a backup this service can restore: ${(e as Error).message}. Nothing was changed.`);
  }
  if (existing) {
    const kept = `${pgdata}.before-restore-${stamp}`;
    renameSync(pgdata, kept);
    io.err(`The database it replaces is kept in ${kept}: delete it once the restored service is checked.`);
  } else rmSync(pgdata, { recursive: true, force: true }); // an empty directory a start left
  renameSync(staging, pgdata);
  io.out(
    `Restored ${file} into DATA_DIR=${dataDir}: ${contents.migrations} migrations applied, ${contents.businesses} businesses, ` +
      `${contents.payments} payments, ${contents.apiKeys} API keys, ${contents.webhookDeliveries} webhook deliveries ` +
      `(${contents.webhookAttempts} attempts). Start the service: it applies the migrations newer than the backup.`,
  );
}

function checkGzip(file: string): void {
  const head = Buffer.alloc(2);
  try {
    const fd = openSync(file, "r");
    readSync(fd, head, 0, 2, 0);
    closeSync(fd);
  } catch (e) {
    throw new Refusal(`Cannot read ${file}: ${(e as Error).message}`);
  }
  if (head[0] !== 0x1f || head[1] !== 0x8b) {
    throw new Refusal(`${file} is not a backup of the embedded database (not gzip; \`npm run admin -- backup\` writes a gzipped tar). Nothing was changed.`);
  }
}

async function openRestored(staging: string, file: string, socketPath: string): Promise<BackupContents & { migrations: number }> {
  mkdirSync(staging, { recursive: true });
  const embedded = await startEmbeddedDatabase(staging, { loadFrom: file, backupSocketPath: socketPath });
  const sql = postgres({ path: embedded.socketPath, user: "postgres", database: "postgres", max: 1, onnotice: () => {} });
  try {
    const db = drizzle({ client: sql, schema }) as unknown as Db;
    const migrations = (await appliedMigrations(db)).length;
    return { migrations, ...(await backupContents(db)) };
  } finally {
    await sql.end();
    await embedded.close();
  }
}
