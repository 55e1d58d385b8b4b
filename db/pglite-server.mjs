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
// DATA_DIR/backup.sock, answered here with PGlite's `dumpDataDir()` (db/embedded-backup.ts has
// the client and the protocol). The admin CLI cannot open the data directory itself while the
// service runs (two PostgreSQL backends on one directory corrupt it), and the service's one
// connection cannot be shared. That socket answering also tells a second process (a second
// service, a restore) that this directory is in use.
import { chmodSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
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

/** @type {{ dataDir: string | undefined, socketPath: string, backupSocketPath?: string, loadFrom?: string }} */
const { dataDir, socketPath, backupSocketPath, loadFrom } = workerData;

/** @type {PGlite | undefined} */
let pg;
let backups;
try {
  // Before PGlite opens the directory, so that a directory another process serves is left alone.
  backups = backupSocketPath ? await listenForBackups(backupSocketPath) : undefined;
  pg = await PGlite.create({
    dataDir,
    extensions: { pg_trgm },
    // A restore (scripts/admin-backup.ts): the backup's files become the new directory's.
    ...(loadFrom ? { loadDataDir: new Blob([readFileSync(loadFrom)], { type: "application/x-gzip" }) } : {}),
  });
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
  // A backup that is not one fails in gunzip or untar with an empty message and the reason as its cause.
  parentPort?.postMessage({ type: "error", message: err?.message || err?.cause?.message || String(err) });
}

async function closeBackups() {
  if (!backups) return;
  await new Promise((resolve) => backups.close(resolve));
  rmSync(backupSocketPath, { force: true });
  backups = undefined;
}

/**
 * Listens on `path` for backup requests: a line `dump` is answered with a line of JSON
 * (`{"ok":true,"bytes":N}` or `{"ok":false,"error":…}`) and then N bytes, the data directory as
 * PGlite's gzipped tar; a line `ping` with `{"ok":true}`. The socket is the owner's alone (0600),
 * as are the database files it gives out.
 *
 * Why `dumpDataDir()` is a consistent backup while the service writes: it runs under PGlite's
 * query lock, so no statement executes while the files are read, and every committed transaction
 * is in the write-ahead log on disk (PGlite commits with synchronous_commit on: the log is
 * written, though not fsynced, before a commit returns). The copy is what a crash at that instant
 * would leave, which PostgreSQL is built to recover: on the restored directory's first start it
 * replays the log, keeps every committed transaction and drops one that was still open. Requests
 * wait while the files are read and compressed (about a second per 100 MB on the bench machine).
 */
async function listenForBackups(path) {
  const server = net.createServer((socket) => {
    socket.on("error", () => {});
    let line = "";
    socket.on("data", async (chunk) => {
      line += chunk.toString("utf8");
      if (!line.includes("\n")) return;
      const request = line.split("\n", 1)[0].trim();
      socket.removeAllListeners("data");
      if (request === "ping") return void socket.end(`${JSON.stringify({ ok: true })}\n`);
      if (request !== "dump") return void socket.end(`${JSON.stringify({ ok: false, error: `unknown request "${request}"` })}\n`);
      try {
        if (!pg) throw new Error("the database is still starting");
        const bytes = Buffer.from(await (await pg.dumpDataDir("gzip")).arrayBuffer());
        socket.end(Buffer.concat([Buffer.from(`${JSON.stringify({ ok: true, bytes: bytes.length })}\n`), bytes]));
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
