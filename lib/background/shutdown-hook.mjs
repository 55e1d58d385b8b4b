// What the production server (scripts/server.mjs, scripts/graceful-stop.mjs) and
// instrumentation.ts agree on about stopping. Plain JavaScript: the server runs unbundled,
// outside Next.js's build.
//
// Next.js bundles instrumentation apart from the server script, with its own instance of every
// module, so the server cannot import the runner or the database that instrumentation started.
// The process has one globalThis: instrumentation leaves its stop there under a registered
// symbol (as the event bus keeps its listeners, lib/events/bus.ts), and the server calls it once
// the requests under way are answered.

const HOOK = Symbol.for("cryptopay.shutdown");

/** Sets what the server runs last when it stops (instrumentation's: background work, then the database). */
export function onShutdown(fn) {
  globalThis[HOOK] = fn;
}

/**
 * Runs the stop `onShutdown` set, once (a second call finds none); `until` aborts when its
 * share of SHUTDOWN_TIMEOUT_SECONDS is spent. Resolves to whether it finished everything (true
 * when nothing was set).
 */
export async function runShutdown(until) {
  const fn = globalThis[HOOK];
  globalThis[HOOK] = undefined;
  return fn ? fn(until) : true;
}
