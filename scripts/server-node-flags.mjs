/**
 * V8 flags of the service's server process: `npm start` (scripts/start.mjs) and the one
 * `npm run bench` measures (bench/server.ts) run with the same.
 *
 * --max-semi-space-size=64 (MB; Node 20's default tops out at 16): every request allocates
 * tens of kilobytes of short-lived objects (Request/Response, web streams, rows, JSON), and a
 * larger young generation is scavenged less often. Measured on the note update at 32
 * connections: garbage collection 203 → 115 µs per request (docs/performance.md, change 25),
 * for up to ~130 MB more heap under load. Each scavenge pauses every request in flight for as
 * long as it takes to copy what survives, so this pays only while finished requests do not
 * survive (changes 27-29). 16 MB cost the writes 20-50 % more CPU per request while finished
 * requests still survived scavenges (sixth round); since changes 27-29 six alternating pairs put
 * 16 and 64 MB within a few per cent (eighth round), so the default may do again.
 *
 * --no-allocation-site-pretenuring: V8 otherwise learns, from the objects that did survive a
 * scavenge, to allocate objects from the same allocation sites directly in old space. Under load
 * that decision turns on for the request path's own objects, and everything young they point at
 * (the rest of the request) then survives every scavenge until a full collection: measured, ~4 MB
 * promoted per scavenge on the no-op route and 16-18 ms median pauses, against ~2 MB and 9-10 ms
 * without it (docs/performance.md, change 28). A server's long-lived objects are few and made at
 * start-up; it has nothing to gain from pretenuring.
 */
export const SERVER_NODE_FLAGS = ["--max-semi-space-size=64", "--no-allocation-site-pretenuring"];
