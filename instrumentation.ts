/** Runs once per server process before it takes requests: configuration, migrations, first run. */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { config } = await import("@/lib/config");
  const { describeRateSource } = await import("@/lib/config/rates");
  const { addSecrets, log } = await import("@/log/logger.mjs");
  try {
    const cfg = config();
    // Those an embedded start generated (DATA_DIR/secrets.json) are in no environment variable.
    addSecrets([cfg.adminToken, cfg.metricsToken, new TextDecoder().decode(cfg.apiKeySecret)]);
    log.info({ component: "rates" }, describeRateSource(cfg.rates));
  } catch (e) {
    // The server must not run half-configured: print the list of problems and stop.
    log.fatal({ component: "config" }, e instanceof Error ? e.message : String(e));
    const proc = (globalThis as { process?: { exit(code: number): never } }).process;
    proc?.exit(1);
  }
  const { getDb } = await import("@/db/client");
  const { bootstrapFirstRun } = await import("@/lib/businesses/bootstrap");
  await bootstrapFirstRun(await getDb());
  // Background work: the embedded runner, or Inngest when INNGEST_EVENT_KEY/INNGEST_DEV is set.
  // Started here and nowhere else: the driver subscribes to the event bus's process-wide registry
  // (lib/events/bus.ts), so it hears the changes of every bundle (route handlers, server actions,
  // Inngest functions) without any of them wiring it.
  // The payment counters of /metrics hear the bus the same way (lib/health/payment-counters.ts).
  const { countPaymentEvents } = await import("@/lib/health/payment-counters");
  countPaymentEvents();
  const { startBackground } = await import("@/lib/background/driver");
  await startBackground(getDb);
  // What the server runs when it stops, once the requests under way are answered (scripts/server.mjs):
  // this bundle's runner and database are out of the server script's reach, so the step is left
  // on globalThis for it (lib/background/shutdown-hook.mjs).
  const { onShutdown } = await import("@/lib/background/shutdown-hook.mjs");
  const { shutdown } = await import("@/lib/background/shutdown");
  onShutdown(shutdown);
}
