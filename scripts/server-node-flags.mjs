/**
 * V8 flags of the service's server process: `npm start` (scripts/start.mjs) and the one
 * `npm run bench` measures (bench/server.ts) run with the same.
 *
 * --max-semi-space-size=16 (MB; Node 20's own ceiling, pinned so that another Node's default
 * does not change it silently): the young generation's size sets how long each scavenge pauses
 * every request in flight. Under load ~5 MB of each request's objects outlive the next scavenge
 * (they are promoted, and only a full collection frees them), so a scavenge's pause grows with
 * the time since the last one. With 64 MB (change 25) garbage collection cost ~25 % less CPU but
 * paused 11-16 ms at the median and 40-65 ms at worst, which made the p99 of every route at 8
 * connections; with 16 MB the pauses are ~4-5 ms (at worst ~20 ms) and the p99s fell by a
 * fifth to a third (docs/performance.md, change 27).
 */
export const SERVER_NODE_FLAGS = ["--max-semi-space-size=16"];
