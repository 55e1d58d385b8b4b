/** Runs once per server process before it takes requests: configuration, migrations, first run. */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { config } = await import("@/lib/config");
  config(); // throws a ConfigError listing every problem: the server does not start half-configured
  const { getDb } = await import("@/db/client");
  const { bootstrapFirstRun } = await import("@/lib/admin/bootstrap");
  await bootstrapFirstRun(await getDb());
  const { startEmbeddedRunner } = await import("@/lib/background/runner");
  startEmbeddedRunner(getDb);
}
