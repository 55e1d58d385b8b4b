/**
 * A bare `node:http` server for bench/closed-loop-tail.ts: every request costs COST_MS of CPU on
 * the one thread, then gets a small JSON answer. No framework, no database, nothing to wait for.
 *
 * WRITE=inline answers in the request's own callback, as a route with no I/O does (the `noop`
 * route); WRITE=deferred does the same work there but writes the answer after the poll phase
 * (`setImmediate`), so that the answers of all requests read in one poll go out together, as they
 * do when one database read unblocks many requests at once.
 */
import http from "node:http";

const cost = Number(process.env.COST_MS ?? 1);
const deferred = process.env.WRITE === "deferred";
const body = '{"data":{"ok":true},"message":null,"errors":null}';

function spin(ms) {
  const end = performance.now() + ms;
  while (performance.now() < end);
}

function answer(res) {
  res.writeHead(200, { "content-type": "application/json" });
  res.end(body);
}

const server = http.createServer((_req, res) => {
  spin(cost);
  if (deferred) setImmediate(answer, res);
  else answer(res);
});
server.listen(Number(process.env.PORT ?? 0), "127.0.0.1", () => {
  process.send?.({ port: server.address().port });
});
