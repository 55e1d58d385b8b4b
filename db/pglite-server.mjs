// The embedded database's own thread: PGlite, served over PostgreSQL's wire protocol on a Unix
// socket, to the same postgres.js driver the service uses with PostgreSQL.
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
// Why not @electric-sql/pglite-socket: it calls into PGlite once per protocol message (Parse,
// Bind, Describe, Execute, Sync: five calls per query) and pins an exact PGlite version. This
// hands PGlite every complete message a read brought, in one call, so the queries postgres.js
// pipelines on its connection also run in one call, their answers sharing socket writes
// (WRITE_GAP_MS).
import { writeFileSync } from "node:fs";
import net from "node:net";
import { parentPort, workerData } from "node:worker_threads";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";

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

/** Simple-protocol Query message ('Q', length, text, NUL). */
function simpleQuery(text) {
  const body = Buffer.from(`${text}\0`);
  const head = Buffer.alloc(5);
  head.write("Q");
  head.writeInt32BE(4 + body.length, 1);
  return Buffer.concat([head, body]);
}
// Sync ends an unfinished extended-protocol exchange; then the session is reset for the next
// connection: an open transaction rolled back, prepared statements and settings dropped.
const RESET = new Uint8Array(Buffer.concat([Buffer.from([0x53, 0, 0, 0, 4]), simpleQuery("ROLLBACK"), simpleQuery("DISCARD ALL")]));

/** One call into PGlite at a time, in arrival order: it is one session. */
let queue = Promise.resolve();
function run(message, onData) {
  const done = queue.then(() => pg.execProtocolRawStream(message, { onRawData: onData }));
  queue = done.catch(() => {});
  return done;
}

/**
 * The least time between two socket writes of answers within a batch. PGlite hands over each
 * query's answer as it finishes (at its ReadyForQuery), in the middle of the one call that runs a
 * whole pipelined batch. Held until the call returned, every answer waited for the batch's last
 * query: with 32 lists in flight a batch ran for several milliseconds while the request thread
 * sat idle, then got all the pages at once. Written each as it came, a batch of 32 fetches
 * (~2 ms) became 32 writes and as many wake-ups of the request thread, ~25 % more of its CPU per
 * fetch. So an answer goes out at once when the last write was a millisecond or more ago, and
 * otherwise with the next one that may, or at the batch's end: the first answer after a pause is
 * not held, and answers that come quickly share writes. At a million payments and 32
 * connections this served 15-25 % more unfiltered lists per second and more of the others, with
 * fetch unchanged (docs/performance.md, change 39).
 */
const WRITE_GAP_MS = 1;

/**
 * PGlite is one session, so one connection at a time; a connection that arrives while another is
 * open waits (unread) until it closes. The service opens one (db/client.ts).
 */
const waiting = [];
let active = null;

function serve(socket) {
  active = socket;
  socket.setNoDelay(true);
  let pending = Buffer.alloc(0);
  let startupDone = false;
  let written = Promise.resolve();
  let lastWrite = 0;
  const send = (message) => {
    let out = [];
    const flush = () => {
      if (out.length && socket.writable) socket.write(out.length === 1 ? out[0] : Buffer.concat(out));
      out = [];
      lastWrite = performance.now();
    };
    written = run(message, (data) => {
      out.push(Buffer.from(data)); // a copy: `data` is a view of PGlite's memory, reused
      if (performance.now() - lastWrite >= WRITE_GAP_MS) flush();
    }).then(
      flush,
      (err) => {
        console.error("embedded database: a statement failed in PGlite", err);
        socket.destroy();
      },
    );
  };
  socket.on("data", (chunk) => {
    pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
    while (!startupDone) {
      // StartupMessage (or SSLRequest): length, then protocol code; no type byte. PGlite takes
      // the startup message on its own (a call that begins with it handles nothing else).
      if (pending.length < 8 || pending.length < pending.readInt32BE(0)) return;
      const length = pending.readInt32BE(0);
      const sslRequest = pending.readInt32BE(4) === 80877103;
      if (sslRequest) socket.write("N"); // no TLS on a local socket; the startup message follows
      else send(new Uint8Array(pending.subarray(0, length)));
      startupDone = !sslRequest;
      pending = pending.subarray(length);
    }
    // Only complete messages go to PGlite; a partial one waits for the rest.
    let end = 0;
    let terminate = false;
    while (pending.length - end >= 5) {
      if (pending[end] === 0x58) {
        // Terminate: the client is done. Not passed on: PGlite's one session outlives connections.
        terminate = true;
        break;
      }
      const length = 1 + pending.readInt32BE(end + 1);
      if (pending.length - end < length) break;
      end += length;
    }
    if (end > 0) send(new Uint8Array(pending.subarray(0, end))); // a copy: `pending` is reused
    pending = pending.subarray(end);
    if (terminate) {
      pending = Buffer.alloc(0);
      written.then(() => socket.end()); // after the answers to what came before it
    }
  });
  socket.on("error", () => {}); // the close below follows
  socket.on("close", () => {
    run(RESET, () => {}).catch(() => {});
    active = null;
    const next = waiting.shift();
    if (next) {
      serve(next); // its listeners first, then the data it was holding
      next.resume();
    }
  });
}

const server = net.createServer((socket) => {
  if (active) {
    socket.pause();
    waiting.push(socket);
    socket.on("close", () => {
      const i = waiting.indexOf(socket);
      if (i >= 0) waiting.splice(i, 1);
    });
  } else {
    serve(socket);
  }
});

server.on("error", (err) => parentPort?.postMessage({ type: "error", message: String(err?.message ?? err) }));
server.listen(socketPath, () => parentPort?.postMessage({ type: "ready" }));

parentPort?.on("message", async (msg) => {
  if (msg?.type !== "close") return;
  server.close();
  for (const s of [active, ...waiting]) s?.destroy();
  await queue;
  await pg.close();
  parentPort?.postMessage({ type: "closed" });
});
