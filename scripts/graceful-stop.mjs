/**
 * How the production server (scripts/server.mjs) stops on SIGINT or SIGTERM, within
 * SHUTDOWN_TIMEOUT_SECONDS (default 10):
 * 1. It stops accepting: the listening socket closes (a new connection is refused), and every
 *    response not yet begun, the ones under way included, says `Connection: close`, so no client
 *    sends another request on its connection; a keep-alive connection still idle half a second
 *    later is closed.
 * 2. The requests under way are answered; their connections then close.
 * 3. Next.js cleans up, then instrumentation's stop runs (lib/background/shutdown.ts, reached
 *    through lib/background/shutdown-hook.mjs): background work ends at a safe point and the
 *    database closes cleanly.
 * 4. The process exits 0.
 * Steps 2 and 3's background work get until a reserve before the bound (5 s, or half the bound
 * when it is under 10 s), so the database is closed even when a request or a job hangs: its
 * connection is then cut (the client never got an answer, so nothing it was told is lost). At the
 * bound the process exits 1 whatever is left. Repeated signals (a terminal's Ctrl-C reaches both
 * `npm start` and the server) do not hurry it.
 */
import net from "node:net";
import { runShutdown } from "../lib/background/shutdown-hook.mjs";

export const DEFAULT_SHUTDOWN_TIMEOUT_SECONDS = 10;
/** How long a keep-alive connection idle when the stop begins is left for its client's next request. */
const IDLE_GRACE_MS = 500;

/** SHUTDOWN_TIMEOUT_SECONDS in milliseconds; throws a readable error for a value that is not a positive number of seconds. */
export function shutdownTimeoutMs(env) {
  const raw = env.SHUTDOWN_TIMEOUT_SECONDS;
  if (raw === undefined || raw.trim() === "") return DEFAULT_SHUTDOWN_TIMEOUT_SECONDS * 1000;
  const seconds = Number(raw);
  if (!Number.isFinite(seconds) || seconds <= 0 || seconds > 3600) {
    throw new Error(`SHUTDOWN_TIMEOUT_SECONDS must be a number of seconds above 0 and at most 3600, got "${raw}"`);
  }
  return seconds * 1000;
}

/** `shutdownTimeoutMs`, or the problem printed and the process ended (the server's start). */
export function shutdownTimeoutOrExit(env) {
  try {
    return shutdownTimeoutMs(env);
  } catch (err) {
    console.error(err.message);
    process.exit(1);
  }
}

/** Resolves after `ms`, or at once when `ms` is not positive; the timer keeps no process alive. */
function after(ms) {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)).unref());
}

/**
 * Installs the SIGINT/SIGTERM handlers on `server` (a node:http server) and `app` (Next.js's
 * custom-server app). `exit` and `log` are the process's unless a caller gives its own.
 */
export function stopOnSignals({ server, app, timeoutMs, exit = (code) => process.exit(code), log = console }) {
  let stopping = false;
  /** The responses under way; each leaves the set when it closes. */
  const inFlight = new Set();
  // Before any other listener, so the header is set before Next.js writes the response.
  server.prependListener("request", (_req, res) => {
    if (stopping) return void res.setHeader("Connection", "close");
    inFlight.add(res);
    res.on("close", untrack);
  });
  /** A response's `close` listener (shared, so nothing is allocated per request for it). */
  function untrack() {
    inFlight.delete(this);
  }

  async function stop(signal) {
    const started = Date.now();
    const seconds = (ms) => (ms / 1000).toFixed(1);
    const hard = setTimeout(() => {
      log.error(`[server] not stopped within SHUTDOWN_TIMEOUT_SECONDS (${seconds(timeoutMs)} s): exiting now`);
      exit(1);
    }, timeoutMs);
    hard.unref();
    const softDeadline = started + timeoutMs - Math.min(5_000, timeoutMs / 2);
    log.info(`[server] ${signal}: stopping (new connections refused, requests under way answered, at most ${seconds(timeoutMs)} s)`);

    // The responses under way close their connections too: a keep-alive client would otherwise
    // send its next request on one just as the server closes it, and see it reset.
    for (const res of inFlight) if (!res.headersSent) res.setHeader("Connection", "close");
    // Stops listening and keeps the connections, as net.Server's close does. http.Server's own
    // close would also close the idle keep-alive connections at once, and a client that had just
    // had its answer would send its next request on one as it closes and see it reset: under load
    // that was a few requests per stop. A busy client sends within moments instead, and is answered
    // with `Connection: close`; what is still idle after IDLE_GRACE_MS (or a response that was
    // already streaming, once it ends) is closed then.
    const closed = new Promise((resolve) => net.Server.prototype.close.call(server, () => resolve(true)));
    let sweep;
    const grace = setTimeout(() => {
      server.closeIdleConnections();
      sweep = setInterval(() => server.closeIdleConnections(), 50);
    }, Math.min(IDLE_GRACE_MS, Math.max(0, softDeadline - Date.now())));
    const drained = await Promise.race([closed, after(softDeadline - Date.now()).then(() => false)]);
    clearTimeout(grace);
    clearInterval(sweep);
    if (!drained) {
      log.error("[server] requests still under way at the deadline: their connections are cut");
      server.closeAllConnections();
    }

    const until = AbortSignal.timeout(Math.max(1, softDeadline - Date.now()));
    let clean = drained;
    try {
      await Promise.race([app.close(), after(softDeadline - Date.now())]);
      clean = (await runShutdown(until)) && clean;
    } catch (err) {
      log.error("[server] stopping failed:", err);
      clean = false;
    }
    clearTimeout(hard);
    log.info(`[server] stopped ${clean ? "cleanly" : "with work abandoned"} in ${seconds(Date.now() - started)} s`);
    exit(clean ? 0 : 1);
  }

  for (const signal of ["SIGINT", "SIGTERM"]) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      void stop(signal);
    });
  }
}
