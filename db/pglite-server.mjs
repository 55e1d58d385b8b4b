// The embedded database's own thread: PGlite, served over PostgreSQL's wire protocol on a Unix
// socket by @electric-sql/pglite-socket, to the same postgres.js driver the service uses with
// PostgreSQL.
//
// Plain JavaScript, loaded by path with `new Worker()` (db/pglite-worker.ts) where the service
// runs unbundled (tests, scripts). `next build` follows that `new Worker(path.join(process.cwd(),
// …))` and bundles this file as a worker entry of its own, so under `npm start` a change here
// takes effect with the next build (scripts/start.mjs rebuilds when db/ changed).
//
// Why a thread: PGlite executes every statement in WebAssembly on the thread that calls it; in
// the server's own thread that was 1-2 ms of the request thread per statement and ~6-10 ms per
// list page (docs/performance.md). Here it runs on the machine's other core.
//
// One connection at a time (PGlite is one session): the service opens one, and a second one is
// refused while it is open. When a connection closes, pglite-socket rolls back a transaction it
// left open. VACUUM and ANALYZE run through the service's connection (db/maintenance.ts).
//
// Backups (`npm run admin -- backup`, scripts/admin-backup.ts) come through a second Unix socket,
// DATA_DIR/backup.sock, answered here with a copy of the data directory taken between two
// statements (db/embedded-backup.ts has the client and the protocol). The admin CLI cannot open
// the data directory itself while the service runs (two PostgreSQL backends on one directory
// corrupt it), and the service's one connection cannot be shared. That socket answering also
// tells a second process (a second service, a restore) that this directory is in use.
import { chmodSync, cpSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import nodePath from "node:path";
import { parentPort, workerData } from "node:worker_threads";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";

// The thread's name in `top -H`, `ps -L` and /proc (Linux): "pglite" rather than the server's,
// so its share of the CPU shows apart from the request thread's (the bench reports both).
try {
  writeFileSync("/proc/thread-self/comm", "pglite");
} catch {
  // not Linux: the thread keeps the process's name
}

/** @type {{ dataDir: string | undefined, socketPath: string, backupSocketPath?: string }} */
const { dataDir, socketPath, backupSocketPath } = workerData;
const SNAPSHOT_PREFIX = "backup-snapshot-";

/** @type {PGlite | undefined} */
let pg;
let backups;
try {
  // Before PGlite opens the directory, so that a directory another process serves is left alone.
  backups = backupSocketPath ? await listenForBackups(backupSocketPath).catch(withoutBackups) : undefined;
  pg = await PGlite.create({ dataDir, extensions: { pg_trgm } });
  const server = new PGLiteSocketServer({ db: pg, path: socketPath, maxConnections: 1 });
  await server.start();
  parentPort?.on("message", async (msg) => {
    if (msg?.type !== "close") return;
    await server.stop();
    await closeBackups();
    await pg.close();
    parentPort?.postMessage({ type: "closed" });
  });
  parentPort?.postMessage({ type: "ready" });
} catch (err) {
  await closeBackups();
  parentPort?.postMessage({ type: "error", message: String(err?.message ?? err) });
}

/**
 * A data directory whose path is too long for a Unix socket (about 100 bytes) runs without
 * backups rather than not at all: the CLI says why when asked for one (db/embedded-backup.ts).
 */
function withoutBackups(err) {
  if (err?.code !== "EINVAL" && err?.code !== "ENAMETOOLONG") throw err;
  console.warn(`embedded database: no backups through ${backupSocketPath}: its path is too long for a Unix socket; use a shorter DATA_DIR`);
  return undefined;
}

async function closeBackups() {
  if (!backups) return;
  for (const socket of backupConnections) socket.destroy(); // their snapshots go as they close
  await new Promise((resolve) => backups.close(resolve));
  rmSync(backupSocketPath, { force: true });
  backups = undefined;
}

/** @type {Set<net.Socket>} */
const backupConnections = new Set();

/**
 * Listens on `path` for backup requests. A line `snapshot` is answered with a line of JSON,
 * `{"ok":true,"dir":…}` or `{"ok":false,"error":…}`: `dir` is a copy of the data directory, in
 * DATA_DIR beside it, which the client packs into its backup file and which is removed when the
 * client closes the connection (or this thread stops). A line `ping` gets `{"ok":true}`. The
 * socket is the owner's alone (0600), as are the database files it gives out.
 *
 * Why the copy is a consistent backup while the service writes: it is taken under PGlite's query
 * lock (the one pglite-socket runs every message under), so no statement executes while the
 * files are copied, and every committed transaction is in the write-ahead log on disk (PGlite
 * commits with synchronous_commit on: the log is written, though not fsynced, before a commit
 * returns). The copy is what a crash at that instant would leave, which PostgreSQL is built to
 * recover: on the restored directory's first start it replays the log, keeps every committed
 * transaction and drops one that was still open. Only the copy holds the lock: for a 650 MB
 * directory (a 300 MB database) on the 2-core machine statements waited at most 0.5-0.8 s, while
 * packing and compressing it (~23 s, 136 MB) was the client's work, in its own process.
 */
async function listenForBackups(path) {
  const server = net.createServer((socket) => {
    backupConnections.add(socket);
    socket.on("error", () => {});
    let snapshot;
    socket.on("close", () => {
      backupConnections.delete(socket);
      if (snapshot) rmSync(snapshot, { recursive: true, force: true });
    });
    let line = "";
    socket.on("data", async (chunk) => {
      line += chunk.toString("utf8");
      if (!line.includes("\n")) return;
      const request = line.split("\n", 1)[0].trim();
      socket.removeAllListeners("data");
      if (request === "ping") return void socket.end(`${JSON.stringify({ ok: true })}\n`);
      if (request !== "snapshot") return void socket.end(`${JSON.stringify({ ok: false, error: `unknown request "${request}"` })}\n`);
      try {
        if (!pg) throw new Error("the database is still starting");
        if (!dataDir) throw new Error("the database is in memory");
        snapshot = mkdtempSync(nodePath.join(nodePath.dirname(path), SNAPSHOT_PREFIX));
        await pg.runExclusive(async () => cpSync(dataDir, snapshot, { recursive: true }));
        socket.write(`${JSON.stringify({ ok: true, dir: snapshot })}\n`);
      } catch (err) {
        socket.end(`${JSON.stringify({ ok: false, error: String(err?.message ?? err) })}\n`);
      }
    });
  });
  for (let attempt = 0; ; attempt++) {
    try {
      await new Promise((resolve, reject) => {
        server.once("error", reject);
        server.listen(path, () => {
          server.off("error", reject);
          resolve();
        });
      });
      break;
    } catch (err) {
      if (err?.code !== "EADDRINUSE" || attempt > 0) throw err;
      // A socket file is there: another process serving this directory, or one that was killed.
      if (await answers(path)) throw new Error(`another process serves this data directory (${path} answers): stop it first`);
      rmSync(path, { force: true });
    }
  }
  chmodSync(path, 0o600);
  // Snapshots a stopped process left (a crash, a kill while a backup ran).
  const dir = nodePath.dirname(path);
  for (const name of readdirSync(dir)) if (name.startsWith(SNAPSHOT_PREFIX)) rmSync(nodePath.join(dir, name), { recursive: true, force: true });
  return server;
}

/** Whether something accepts connections on the Unix socket `path`. */
function answers(path) {
  return new Promise((resolve) => {
    const probe = net.connect(path);
    probe.once("connect", () => {
      probe.destroy();
      resolve(true);
    });
    probe.once("error", () => resolve(false));
  });
}
