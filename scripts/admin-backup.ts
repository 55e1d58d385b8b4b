import { closeSync, createWriteStream, existsSync, mkdirSync, openSync, readSync, renameSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { parseArgs } from "node:util";
import postgres from "postgres";
import * as tar from "tar";
import { drizzle } from "drizzle-orm/postgres-js";
import type { Db } from "@/db/client";
import { backupSocketPath, NotServing, pgdataPath, serviceAnswers, takeSnapshot, type Snapshot } from "@/db/embedded-backup";
import { startEmbeddedDatabase, type EmbeddedDatabase } from "@/db/pglite-worker";
import { backupContents, type BackupContents } from "@/db/queries/backup";
import { appliedMigrations } from "@/db/queries/migrations";
import * as schema from "@/db/schema";
import { Refusal, type BackupIo } from "./admin-backup-io";
import { backupPostgres, restorePostgres } from "./admin-backup-postgres";

/**
 * `npm run admin -- backup FILE` and `restore FILE [--force]`: unlike the other commands these
 * work on the database itself, not through the admin API. The embedded database is copied by the
 * running service between two statements (db/pglite-server.mjs explains why that copy is
 * consistent) or, when no service holds DATA_DIR, by a start of it here, and packed by this
 * process into a gzipped tar of the data directory; PostgreSQL (DATABASE_URL) is dumped by
 * pg_dump (scripts/admin-backup-postgres.ts).
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

async function backupEmbedded(dataDirSetting: string, file: string, io: BackupIo): Promise<void> {
  const dataDir = embeddedDir(dataDirSetting);
  let snapshot: Snapshot;
  let own: EmbeddedDatabase | undefined;
  try {
    snapshot = await takeSnapshot(dataDir);
    io.err(`Copied the running service's embedded database (DATA_DIR=${dataDir}).`);
  } catch (e) {
    if (!(e instanceof NotServing)) throw e;
    if (!existsSync(path.join(pgdataPath(dataDir), "PG_VERSION"))) {
      throw new Refusal(`No database in DATA_DIR=${dataDir} (no ${pgdataPath(dataDir)}/PG_VERSION), and no service answers on ${backupSocketPath(dataDir)}. Is DATA_DIR right?`);
    }
    // No service holds the directory: open it here, behind the same socket, so that a service
    // starting meanwhile refuses instead of opening the files twice; copied the same way.
    own = await startEmbeddedDatabase(pgdataPath(dataDir), { backupSocketPath: backupSocketPath(dataDir) });
    snapshot = await takeSnapshot(dataDir).catch(async (err: unknown) => {
      await own?.close();
      throw err;
    });
    io.err(`No service runs on DATA_DIR=${dataDir}: copied the stopped database.`);
  }
  // Written under a temporary name, so that a file under the backup's name is always whole.
  const partial = `${file}.partial`;
  try {
    await pipeline(tar.create({ gzip: true, cwd: snapshot.dir, portable: true }, ["."]), createWriteStream(partial, { mode: 0o600 }));
  } catch (e) {
    rmSync(partial, { force: true });
    throw e;
  } finally {
    snapshot.release();
    await own?.close();
  }
  const entries = await dataDirectoryEntries(partial);
  if (!entries.has("PG_VERSION")) throw new Error(`the file written holds no PG_VERSION (${entries.size} entries)`);
  renameSync(partial, file);
  io.out(`Backup written to ${file} (${megabytes(statSync(file).size)}).`);
}

/** The paths a backup file holds (reading it whole: gzip's checksum and tar's headers checked). */
async function dataDirectoryEntries(file: string): Promise<Set<string>> {
  const entries = new Set<string>();
  await tar.list({ file, strict: true, onReadEntry: (entry) => void entries.add(path.normalize(entry.path).replace(/\/$/, "")) });
  return entries;
}

const megabytes = (n: number) => `${(n / 1e6).toFixed(1)} MB`;

/**
 * Unpacks `file` into a new directory beside DATA_DIR/pgdata and reads it through the service's own
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
    mkdirSync(staging, { mode: 0o700 });
    await tar.extract({ file, cwd: staging, strict: true });
    if (!existsSync(path.join(staging, "PG_VERSION"))) throw new Error("it holds no PostgreSQL data directory (no PG_VERSION)");
    contents = await openRestored(staging, backupSocketPath(dataDir));
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

async function openRestored(staging: string, socketPath: string): Promise<BackupContents & { migrations: number }> {
  const embedded = await startEmbeddedDatabase(staging, { backupSocketPath: socketPath });
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
