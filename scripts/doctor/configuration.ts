import { ConfigError, loadConfig, type Config } from "@/lib/config";
import { shutdownTimeoutMs } from "../graceful-stop.mjs";
import { fail, ok, warn, type CheckLine } from "./lines";

type Env = Record<string, string | undefined>;

const blank = (v: string | undefined) => v === undefined || v.trim() === "";

/**
 * The configuration as `npm start` reads it: every variable through lib/config's own parser,
 * with NODE_ENV=production as the production server always sets it (scripts/server.mjs), so
 * what production requires is required here too. The doctor changes nothing: outside
 * production lib/config would generate missing secrets into DATA_DIR/secrets.json, so there
 * they are generated in memory instead (the service makes and keeps its own on start).
 */
export function checkConfiguration(env: Env): { config: Config | null; lines: CheckLine[] } {
  const embedded = blank(env.DATABASE_URL);
  const serverEnv: Env = { ...env, NODE_ENV: "production", ...(embedded ? { DATA_DIR: ":memory:" } : {}) };
  const lines: CheckLine[] = [];
  let config: Config | null = null;
  try {
    config = loadConfig(serverEnv as NodeJS.ProcessEnv);
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    // ConfigError's message: a heading, then one "  - NAME: what is wrong" line per problem.
    for (const problem of e.message.split("\n").filter((l) => l.startsWith("  - "))) {
      const text = problem.slice(4);
      const colon = text.indexOf(": ");
      const name = colon > 0 && colon < 40 ? text.slice(0, colon) : "configuration";
      lines.push(fail(name, colon > 0 && colon < 40 ? text.slice(colon + 2) : text, "the service refuses to start until this is corrected in its environment"));
    }
  }
  try {
    shutdownTimeoutMs(env);
  } catch (e) {
    lines.push(fail("SHUTDOWN_TIMEOUT_SECONDS", (e as Error).message, "the server refuses to start: give a number of seconds (default 10)"));
  }
  for (const name of ["DATABASE_POOL_SIZE", "DATABASE_LIST_POOL_SIZE"]) {
    const v = env[name];
    if (!blank(v) && !(Number.isInteger(Number(v)) && Number(v) > 0)) {
      lines.push(warn(name, `"${v}" is not a whole number above 0, so it is ignored (the default is used)`, "set a positive whole number, or remove it"));
    }
  }
  if (!config) return { config, lines };

  const dataDir = env.DATA_DIR || "./.data";
  lines.unshift(
    ok(
      "configuration",
      config.production
        ? "every variable parses; production: PostgreSQL at DATABASE_URL, nothing generated"
        : `every variable parses; embedded database in ${dataDir} (one process; its secrets are generated and kept in ${dataDir}/secrets.json)`,
    ),
  );
  lines.push(...risks(env, config));
  return { config, lines };
}

/** Settings that parse but that an operator most likely does not want. */
function risks(env: Env, c: Config): CheckLine[] {
  const out: CheckLine[] = [];
  const https = c.publicBaseUrl.startsWith("https://");
  if (blank(env.PUBLIC_BASE_URL)) {
    out.push(warn("PUBLIC_BASE_URL", `not set: checkout links point at ${c.publicBaseUrl}, which customers cannot open`, "set the https:// address customers reach the service at"));
  } else if (!https) {
    out.push(
      warn(
        "PUBLIC_BASE_URL",
        `${c.publicBaseUrl} is plain http: customers' checkouts travel unencrypted and browsers get no HSTS`,
        "terminate TLS in front of the service (docs/deployment.md) and set the https:// address",
      ),
    );
  } else {
    out.push(ok("PUBLIC_BASE_URL", `${c.publicBaseUrl} (https: responses carry HSTS)`));
  }
  if (https && c.trustedProxies.length === 0) {
    out.push(
      warn(
        "TRUSTED_PROXIES",
        "not set, yet PUBLIC_BASE_URL is https, so a proxy most likely terminates TLS: every customer then shares its address (one sign-in limit for all)",
        "list the proxy's own address, e.g. TRUSTED_PROXIES=127.0.0.1 for Caddy or nginx on this machine",
      ),
    );
  }
  if (c.production && !c.adminToken) {
    out.push(warn("ADMIN_TOKEN", "not set: the admin API is off, and so are this CLI's other commands", "set 32 random characters (openssl rand -base64 32) to manage businesses and keys"));
  }
  if (!c.metricsToken) {
    out.push(warn("METRICS_TOKEN", "not set: /metrics answers 404, so nothing can be alerted on", "set 16+ random characters (openssl rand -hex 24) and give Prometheus the same token"));
  }
  if (c.webhookPrivateTargets) {
    out.push(
      warn(
        "WEBHOOK_ALLOW_PRIVATE_TARGETS",
        "on: any business's webhook may call this machine and your private network (loopback, 10.x, 192.168.x) over plain http",
        "turn it off unless every merchant server is on your own network",
      ),
    );
  }
  if (c.production && c.inngest.dev) {
    out.push(warn("INNGEST_DEV", "on in production: Inngest's calls to /api/inngest are not signed, so anyone can trigger the functions", "use INNGEST_EVENT_KEY and INNGEST_SIGNING_KEY instead"));
  }
  const driver = c.inngest.enabled
    ? `Inngest${c.inngest.dev ? " (dev mode)" : ""} at ${c.inngest.baseUrl ?? "Inngest Cloud"}`
    : "the embedded runner, in the service's process";
  out.push(ok("background work", driver));
  return out;
}
