#!/usr/bin/env node
/**
 * The production server `npm start` runs (scripts/start.mjs builds first when needed): Next.js's
 * request handler, through its custom-server API (`next()`), behind an HTTP server of our own, so
 * that requests Next.js cannot take get the API's answer instead of a bare 500
 * (scripts/method-guard.mjs), and so that every request tells the app the address of the
 * connection it came on (lib/http/peer.mjs). Otherwise it does what `next start` does:
 * production mode, PORT (3000) on every interface, a graceful stop on SIGINT/SIGTERM
 * (scripts/graceful-stop.mjs). Every request gets an id (X-Request-Id, both ways) that every log
 * line written while handling it carries, and one access line (log, docs/monitoring.md).
 */
import { randomBytes } from "node:crypto";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { RELAY_SECRET_ENV } from "../lib/http/methods.mjs";
import { PEER_SECRET_ENV, stampPeer } from "../lib/http/peer.mjs";
import { hstsHeader } from "../lib/http/security-headers.mjs";
import { inRequest, log, routeConsoleToLog } from "../log/logger.mjs";
import { REQUEST_ID_HEADER, requestIdOf } from "../log/request-id.mjs";
import { metrics } from "../lib/metrics/registry.mjs";
import { methodOf, routeOf } from "../lib/metrics/routes.mjs";
import { shutdownTimeoutOrExit, stopOnSignals } from "./graceful-stop.mjs";
import { methodGuard } from "./method-guard.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const port = Number(process.env.PORT || 3000);
// Read first: a wrong SHUTDOWN_TIMEOUT_SECONDS stops the start rather than the stop.
const shutdownMs = shutdownTimeoutOrExit(process.env);

// Before Next.js loads: it reads NODE_ENV when its modules load, as `next start` sets it first.
process.env.NODE_ENV = "production";
process.env.PORT = String(port);
// Only this process knows it: the route modules honour `x-relayed-method` from this server alone.
const secret = randomBytes(24).toString("base64url");
process.env[RELAY_SECRET_ENV] = secret;
// Likewise for `x-peer-address`: the connection's address, which the app cannot see (lib/http/client-address.ts).
const peerSecret = randomBytes(24).toString("base64url");
process.env[PEER_SECRET_ENV] = peerSecret;
// `next start` names its process so; scripts and docs find the server by it (`pgrep -a next-server`).
process.title = "next-server (scripts/server.mjs)";
// From here every line the process writes, Next.js's and the libraries' console output too, is a
// redacted log line of LOG_FORMAT (JSON by default here, as NODE_ENV is production).
routeConsoleToLog();

const { default: next } = await import("next");
const server = http.createServer();
// Over https every response tells browsers to keep to it (HSTS), from the runtime PUBLIC_BASE_URL:
// next.config.ts's headers are fixed at build time, and the proxy sees only pages.
const hsts = hstsHeader(process.env.PUBLIC_BASE_URL);
if (hsts) server.on("request", (_req, res) => res.setHeader("Strict-Transport-Security", hsts));
const app = next({ dev: false, dir: root, port, httpServer: server });
await app.prepare();
const guard = methodGuard(app.getRequestHandler(), secret);
// Every request's latency by method, route pattern and status (lib/metrics/routes.mjs keeps the
// route label to a bounded set). Made here first, so the route handlers' bundles find the same
// registry on globalThis (lib/metrics/registry.mjs) and /metrics shows these.
const { httpRequestDuration } = metrics();
const STARTED = Symbol("request start");
const ID = Symbol("request id");
function observe() {
  const req = this.req;
  const path = req.url.split("?", 1)[0];
  const labels = { method: methodOf(req.method), route: routeOf(path), status: String(this.statusCode) };
  const seconds = (performance.now() - req[STARTED]) / 1000;
  httpRequestDuration.observe(labels, seconds);
  // The query is left out: it is the client's, and may carry what a log must not.
  log.info({ requestId: req[ID], method: req.method, route: labels.route, path, status: this.statusCode, durationMs: Math.round(seconds * 1e4) / 10 }, "request");
}
server.on("request", (req, res) => {
  req[STARTED] = performance.now();
  const requestId = requestIdOf(req.headers[REQUEST_ID_HEADER]);
  req[ID] = requestId;
  res.setHeader("X-Request-Id", requestId);
  res.on("close", observe);
  stampPeer(req, peerSecret);
  // Everything the handler does, in whichever bundle, runs in this request's context (log/logger.mjs).
  inRequest(requestId, () => guard.request(req, res));
});
server.on("connect", guard.connect);
server.on("clientError", guard.clientError);
server.on("error", (err) => {
  log.fatal({ port, err }, `could not start the server on port ${port}: ${err.message}`);
  process.exit(1);
});
server.listen(port, () => log.info({ port }, `ready on http://localhost:${port}`));

stopOnSignals({ server, app, timeoutMs: shutdownMs });
