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

/** @type {{ dataDir: string | undefined, socketPath: string, maintenanceIntervalMs?: number }} */
const { dataDir, socketPath, maintenanceIntervalMs = 60_000 } = workerData;

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
  /** `complete`: the message ends with a Sync or a simple Query, whose answer ends the exchange. */
  const send = (message, complete) => {
    let out = [];
    let last;
    const flush = () => {
      if (out.length && socket.writable) socket.write(out.length === 1 ? out[0] : Buffer.concat(out));
      out = [];
      lastWrite = performance.now();
    };
    written = run(message, (data) => {
      last = Buffer.from(data); // a copy: `data` is a view of PGlite's memory, reused
      out.push(last);
      if (performance.now() - lastWrite >= WRITE_GAP_MS) flush();
    }).then(
      () => {
        sessionIdle = complete && last !== undefined && endsIdle(last);
        flush();
      },
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
      else send(new Uint8Array(pending.subarray(0, length)), true);
      startupDone = !sslRequest;
      pending = pending.subarray(length);
    }
    // Only complete messages go to PGlite; a partial one waits for the rest.
    let end = 0;
    let lastType = 0;
    let terminate = false;
    while (pending.length - end >= 5) {
      if (pending[end] === 0x58) {
        // Terminate: the client is done. Not passed on: PGlite's one session outlives connections.
        terminate = true;
        break;
      }
      const length = 1 + pending.readInt32BE(end + 1);
      if (pending.length - end < length) break;
      lastType = pending[end];
      end += length;
    }
    // A copy: `pending` is reused. Sync ('S') and Query ('Q') end an exchange.
    if (end > 0) send(new Uint8Array(pending.subarray(0, end)), lastType === 0x53 || lastType === 0x51);
    pending = pending.subarray(end);
    if (terminate) {
      pending = Buffer.alloc(0);
      written.then(() => socket.end()); // after the answers to what came before it
    }
  });
  socket.on("error", () => {}); // the close below follows
  socket.on("close", () => {
    sessionIdle = false;
    run(RESET, () => {}).then(
      () => (sessionIdle = true),
      () => {},
    );
    active = null;
    const next = waiting.shift();
    if (next) {
      serve(next); // its listeners first, then the data it was holding
      next.resume();
    }
  });
}

/**
 * Whether the session is between exchanges and outside a transaction: the last batch ended with
 * a Sync or a Query whose ReadyForQuery said 'I' (idle). Only then may maintenance run
 * statements of its own on the one session without landing in a client's transaction or in the
 * middle of its pipelined exchange.
 */
let sessionIdle = true;
const READY_IDLE = Buffer.from([0x5a, 0, 0, 0, 5, 0x49]); // ReadyForQuery, status 'I'
const endsIdle = (answer) => answer.length >= 6 && answer.subarray(answer.length - 6).equals(READY_IDLE);

/*
 * PGlite is PostgreSQL's single-user backend: no autovacuum launcher runs beside it, so on its
 * own it never vacuums a table (dead row versions of every status change and note stay in the
 * tables and their indexes, and pages never become all-visible) and never analyzes one (the
 * planner has no column statistics at all: it guesses every filter's selectivity, and the list's
 * estimated totals above 10 000 are guesses too). This applies autovacuum's own rules, with the
 * database's autovacuum_* settings, between the client's exchanges: a table is vacuumed when its
 * dead rows (or rows inserted since its last vacuum) pass threshold + scale factor × its rows,
 * and analyzed when the rows changed since its last analyze pass theirs, or when it holds data
 * and was never vacuumed or analyzed (`reltuples` still -1): the counters start again at zero
 * with each start, so a store restarted often might never pass a threshold.
 * Statements of the client's wait while one runs, as nothing runs beside them in one session: on
 * the 2-core bench machine at a million payments ANALYZE of payments took ~1.4 s, a VACUUM of
 * 100 000 dead rows ~1.5 s and of 20 000 ~0.1 s (docs/decisions.md, docs/performance.md).
 */
const DUE = `
  with t as (
    select format('%I.%I', s.schemaname, s.relname) as name, greatest(c.reltuples, 0) as n,
      s.n_dead_tup, s.n_ins_since_vacuum, s.n_mod_since_analyze,
      c.reltuples < 0 and pg_relation_size(c.oid) > 0 as never_analyzed
    from pg_stat_user_tables s join pg_class c on c.oid = s.relid)
  select name,
    n_dead_tup > current_setting('autovacuum_vacuum_threshold')::float8
        + current_setting('autovacuum_vacuum_scale_factor')::float8 * n
      or n_ins_since_vacuum > current_setting('autovacuum_vacuum_insert_threshold')::float8
        + current_setting('autovacuum_vacuum_insert_scale_factor')::float8 * n as vacuum,
    n_mod_since_analyze > current_setting('autovacuum_analyze_threshold')::float8
        + current_setting('autovacuum_analyze_scale_factor')::float8 * n
      or never_analyzed as analyze
  from t order by name`;

/** Runs `work` on the session in its turn, if the session is idle then; false when it was not. */
function whenIdle(work) {
  const done = queue.then(() => (sessionIdle ? work().then(() => true) : false));
  queue = done.catch(() => {});
  return done;
}

let maintaining = false;
/** One round of maintenance; resolves with the statements it ran. */
async function maintain() {
  const ran = [];
  if (maintaining || !sessionIdle) return ran;
  maintaining = true;
  try {
    let due = [];
    const found = await whenIdle(async () => {
      // The session's own counts reach the shared statistics at most once a second otherwise.
      await pg.exec("select pg_stat_force_next_flush()");
      due = (await pg.query(DUE)).rows.filter((t) => t.vacuum || t.analyze);
    });
    if (!found) return ran;
    // One table per turn: the client's statements that arrived meanwhile run in between.
    for (const t of due) {
      const statement = t.vacuum ? `vacuum${t.analyze ? " (analyze)" : ""} ${t.name}` : `analyze ${t.name}`;
      let ms = 0;
      const done = await whenIdle(async () => {
        const started = performance.now();
        await pg.exec(statement);
        ms = performance.now() - started;
      });
      if (!done) return ran;
      ran.push(statement);
      console.log(`embedded database: ${statement} took ${Math.round(ms)} ms`);
    }
  } catch (err) {
    console.error("embedded database: maintenance failed", err);
  } finally {
    maintaining = false;
  }
  return ran;
}
const maintenance = maintenanceIntervalMs > 0 ? setInterval(maintain, maintenanceIntervalMs) : undefined;

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
  if (msg?.type === "maintain") parentPort?.postMessage({ type: "maintained", ran: await maintain() });
  if (msg?.type !== "close") return;
  clearInterval(maintenance);
  server.close();
  for (const s of [active, ...waiting]) s?.destroy();
  await queue;
  await pg.close();
  parentPort?.postMessage({ type: "closed" });
});
