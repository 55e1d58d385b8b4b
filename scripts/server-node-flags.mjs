/**
 * V8 flags of the service's server process: `npm start` (scripts/start.mjs) and the one
 * `npm run bench` measures (bench/server.ts) run with the same.
 *
 * --max-semi-space-size=64 (MB; Node 20's default tops out at 16): every request allocates
 * tens of kilobytes of short-lived objects (Request/Response, web streams, rows, JSON), and a
 * larger young generation is scavenged less often. Measured on the note update at 32
 * connections: garbage collection 203 → 115 µs per request (docs/performance.md, change 25),
 * for up to ~130 MB more heap under load. The price in latency: under load ~5 MB of finished
 * requests survive each scavenge (a retention not yet found), so each of the rarer scavenges
 * pauses longer (11-16 ms at the median against 4-5 ms at 16 MB). 16 MB was tried again and
 * cost the writes 20-50 % more CPU per request (docs/performance.md, sixth round).
 */
export const SERVER_NODE_FLAGS = ["--max-semi-space-size=64"];
