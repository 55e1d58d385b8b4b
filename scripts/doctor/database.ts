import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import type { Db } from "@/db/client";
import { postgresConnection } from "@/db/postgres-url";
import { latestAppliedMigration, ping } from "@/db/queries/operations";
import { endpointOf } from "@/lib/chains/health";
import type { Config } from "@/lib/config";
import { latestJournalEntry, type Readiness } from "@/lib/health/readiness";
import { serverOf } from "../admin-cli";
import { fail, ok, reasonOf, warn, withTimeout, type CheckLine } from "./lines";

type Env = Record<string, string | undefined>;

/**
 * The database answers and carries every migration of this build (its journal,
 * db/migrations/meta/_journal.json): the same two checks /readyz makes (lib/health/readiness.ts),
 * over a connection of the doctor's own that migrates nothing. The embedded database lives
 * inside the service's process, so there the running service's /readyz is asked instead.
 */
export async function checkDatabase(config: Config, env: Env, timeoutMs: number): Promise<CheckLine[]> {
  if (!config.databaseUrl) return embedded(env, timeoutMs);
  const { url, host } = postgresConnection(config.databaseUrl);
  const where = endpointOf(url);
  const client = postgres(url, {
    max: 1,
    connect_timeout: Math.max(1, Math.ceil(timeoutMs / 1000)),
    onnotice: () => {},
    ...(host ? { host } : {}),
  });
  try {
    const db = drizzle({ client }) as unknown as Db;
    // The statements /readyz makes (lib/health/readiness.ts), asked here one by one: readiness keeps
    // only the outer message ("Failed query: select 1"), and the reason an operator acts on is its cause's.
    try {
      await withTimeout(ping(db), timeoutMs);
    } catch (e) {
      const problem = reasonOf(e).text;
      return [fail("database", `${where}: ${problem}`, databaseFix(problem)), fail("migrations", "not checked: the database did not answer", "fix the database first")];
    }
    const database = ok("database", `${where} answers`);
    const journal = latestJournalEntry();
    let applied: number | null;
    try {
      applied = await withTimeout(latestAppliedMigration(db), timeoutMs);
    } catch (e) {
      const problem = reasonOf(e).text;
      // An empty database has no migrations table at all.
      const detail = /does not exist/.test(problem) ? "none applied: the database is empty (no drizzle.__drizzle_migrations table)" : `the migrations table cannot be read: ${problem}`;
      return [database, fail("migrations", detail, START_TO_MIGRATE)];
    }
    if (applied === null || applied < journal.when) return [database, fail("migrations", `${journal.tag} (this build's latest) is not applied`, START_TO_MIGRATE)];
    if (applied > journal.when) {
      return [
        database,
        warn("migrations", `the database carries migrations newer than this build's latest (${journal.tag})`, "a newer version migrated it: run that version here too (docs/deployment.md, upgrades)"),
      ];
    }
    return [database, ok("migrations", `every migration of this build is applied (latest ${journal.tag})`)];
  } finally {
    await client.end({ timeout: 1 }).catch(() => {});
  }
}

const START_TO_MIGRATE = "start the service of this version once: it applies its migrations on start-up";

function databaseFix(problem: string): string {
  if (/ECONNREFUSED/.test(problem)) return "nothing listens there: start PostgreSQL (systemctl start postgresql) or correct the host and port in DATABASE_URL";
  if (/ENOTFOUND|EAI_AGAIN/.test(problem)) return "the host name in DATABASE_URL does not resolve";
  if (/password authentication|no password|SASL/i.test(problem)) return "PostgreSQL refused the user or password in DATABASE_URL";
  if (/database ".*" does not exist/.test(problem)) return "create it (sudo -u postgres createdb -O <user> <name>) or correct DATABASE_URL";
  if (/role ".*" does not exist/.test(problem)) return "create the role (sudo -u postgres createuser -P <user>) or correct DATABASE_URL";
  if (/pg_hba|no encryption/i.test(problem)) return "PostgreSQL's pg_hba.conf does not let this machine in as this user";
  if (/did not answer|timeout/i.test(problem)) return "PostgreSQL accepts no connection or never answers: is it running, and does a firewall let this machine through?";
  return "check DATABASE_URL and that PostgreSQL runs";
}

/** The embedded database, through the running service's /readyz (the server `npm start` runs here, or BASE_URL). */
async function embedded(env: Env, timeoutMs: number): Promise<CheckLine[]> {
  const server = serverOf(env).url;
  const dataDir = env.DATA_DIR || "./.data";
  let body: Readiness;
  try {
    const res = await withTimeout(fetch(`${server}/readyz`, { signal: AbortSignal.timeout(timeoutMs), headers: { accept: "application/json" } }), timeoutMs);
    body = (await res.json()) as Readiness;
    if (!body?.checks?.database) throw new Error(`${server}/readyz answered ${res.status} without the readiness checks: is it this service?`);
  } catch (e) {
    return [
      warn(
        "database",
        `embedded in ${dataDir}: only the service's own process opens it, and no service answers at ${server} (${reasonOf(e).text})`,
        "start the service (npm start) and run the doctor again, or set BASE_URL (or PORT) to where it runs",
      ),
    ];
  }
  return judge(body.checks, `embedded in ${dataDir}`, ` (as the service's ${server}/readyz says)`);
}

/** The service's own readiness checks as the doctor's lines. */
function judge(checks: Readiness["checks"], where: string, via: string): CheckLine[] {
  const { database, migrations } = checks;
  if (!database.ok) {
    const problem = database.problem ?? "did not answer";
    return [fail("database", `${where}: ${problem}${via}`, "see the service's log (journalctl -u payments)"), fail("migrations", "not checked: the database did not answer", "fix the database first")];
  }
  return [
    ok("database", `${where} answers${via}`),
    migrations.ok ? ok("migrations", `every migration of this build is applied (latest ${migrations.latest})`) : fail("migrations", migrations.problem ?? `${migrations.latest} is not applied`, START_TO_MIGRATE),
  ];
}
