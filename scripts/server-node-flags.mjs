/**
 * V8 flags of the service's server process: `npm start` (scripts/start.mjs) and the one
 * `npm run bench` measures (bench/server.ts) run with the same.
 *
 * No --max-semi-space-size: V8's default young generation (16 MB at most in Node 20). From
 * change 25 to change 33 the server ran with 64 MB, which halved garbage collection's share of a
 * write while finished requests still survived scavenges; since changes 27-29 they do not, the
 * two sizes cost the same CPU (eighth and tenth rounds), and the default's shorter pauses gave
 * the lists shorter tails (docs/performance.md, change 33) and the server ~130 MB less heap.
 *
 * --no-allocation-site-pretenuring: V8 otherwise learns, from the objects that did survive a
 * scavenge, to allocate objects from the same allocation sites directly in old space. Under load
 * that decision turns on for the request path's own objects, and everything young they point at
 * (the rest of the request) then survives every scavenge until a full collection: measured, ~4 MB
 * promoted per scavenge on the no-op route and 16-18 ms median pauses, against ~2 MB and 9-10 ms
 * without it (docs/performance.md, change 28). A server's long-lived objects are few and made at
 * start-up; it has nothing to gain from pretenuring.
 */
export const SERVER_NODE_FLAGS = ["--no-allocation-site-pretenuring"];
