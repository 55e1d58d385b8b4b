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
import { writeFileSync } from "node:fs";
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

/** @type {{ dataDir: string | undefined, socketPath: string }} */
const { dataDir, socketPath } = workerData;

const pg = await PGlite.create({ dataDir, extensions: { pg_trgm } });
const server = new PGLiteSocketServer({ db: pg, path: socketPath, maxConnections: 1 });
try {
  await server.start();
  parentPort?.postMessage({ type: "ready" });
} catch (err) {
  parentPort?.postMessage({ type: "error", message: String(err?.message ?? err) });
}

parentPort?.on("message", async (msg) => {
  if (msg?.type !== "close") return;
  await server.stop();
  await pg.close();
  parentPort?.postMessage({ type: "closed" });
});
