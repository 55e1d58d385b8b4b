/**
 * V8 flags of the service's server process: `npm start` (scripts/start.mjs) and the one
 * `npm run bench` measures (bench/server.ts) run with the same.
 *
 * No --max-semi-space-size: V8's default young generation. A 64 MB one costs the same CPU now
 * that finished requests no longer survive scavenges, and its longer pauses lengthen the lists'
 * tails and hold ~130 MB more heap (docs/performance.md, Deliberate optimisations).
 *
 * --no-allocation-site-pretenuring: V8 otherwise learns, from the objects that did survive a
 * scavenge, to allocate objects from the same allocation sites directly in old space. Under load
 * that decision turns on for the request path's own objects, and everything young they point at
 * (the rest of the request) then survives every scavenge until a full collection: measured, ~4 MB
 * promoted per scavenge on the no-op route and 16-18 ms median pauses, against ~2 MB and 9-10 ms
 * without it (docs/performance.md). A server's long-lived objects are few and made at
 * start-up; it has nothing to gain from pretenuring.
 */
export const SERVER_NODE_FLAGS = ["--no-allocation-site-pretenuring"];
