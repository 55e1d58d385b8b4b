import { readFileSync } from "node:fs";
import path from "node:path";
import type { Db } from "@/db/client";
import { latestAppliedMigration, ping } from "@/db/queries/operations";
import { chainsHealth } from "@/lib/chains/health";
import { ratesReport } from "@/lib/rates/report";

/*
 * Readiness (`GET /readyz`): the instance can serve when its database answers and carries every
 * migration this build knows. Chains and rates are reported beside, never failing it: a stalled
 * node or a stale provider takes some coins off the checkout, while the API, the dashboard and
 * every other coin still work, and a load balancer that drained every instance would take
 * those down too.
 */

/** A probe that waits longer than this is answered "not ready" (a load balancer's own timeout is often 5 s). */
export const READY_TIMEOUT_MS = 4_000;

export type JournalEntry = { tag: string; when: number };

let journalCache: JournalEntry | undefined;

/** The latest migration of this build's journal (db/migrations/meta/_journal.json), read once. */
export function latestJournalEntry(): JournalEntry {
  if (!journalCache) {
    const file = path.join(process.cwd(), "db", "migrations", "meta", "_journal.json");
    const { entries } = JSON.parse(readFileSync(file, "utf8")) as { entries: JournalEntry[] };
    journalCache = entries.reduce((a, b) => (b.when > a.when ? b : a));
  }
  return journalCache;
}

export type ReadinessCheck = { ok: boolean; problem: string | null };

export type Readiness = {
  status: "ready" | "not ready";
  checks: { database: ReadinessCheck; migrations: ReadinessCheck & { latest: string } };
  /** Reported, not judged: each configured chain's state and lag (null when it could not be read). */
  chains: { chain: string; state: string; lag: number | null }[] | null;
  /** Reported, not judged: the rates' source and how many coins and currencies cannot be priced now. */
  rates: { source: string; unusableCoins: number; unusableCurrencies: number } | null;
};

function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** The database's and the migrations' checks; each failure says what is wrong. */
export async function readinessChecks(getDb: () => Promise<Db>, journal = latestJournalEntry(), timeoutMs = READY_TIMEOUT_MS) {
  const migrations = { ok: false, problem: "not checked: the database did not answer", latest: journal.tag };
  let db: Db;
  try {
    db = await withTimeout(getDb(), timeoutMs, "the database");
    await withTimeout(ping(db), timeoutMs, "the database");
  } catch (e) {
    return { db: null, checks: { database: { ok: false, problem: message(e) }, migrations } };
  }
  try {
    const applied = await withTimeout(latestAppliedMigration(db), timeoutMs, "the database");
    const ok = applied !== null && applied >= journal.when;
    Object.assign(migrations, { ok, problem: ok ? null : `migration ${journal.tag} is not applied` });
  } catch (e) {
    migrations.problem = `the migrations table could not be read: ${message(e)}`;
  }
  return { db, checks: { database: { ok: true, problem: null }, migrations } };
}

/** The whole answer of /readyz. */
export async function readiness(getDb: () => Promise<Db>, now = new Date(), journal = latestJournalEntry()): Promise<Readiness> {
  const { db, checks } = await readinessChecks(getDb, journal);
  const ready = checks.database.ok && checks.migrations.ok;
  let chains: Readiness["chains"] = null;
  let rates: Readiness["rates"] = null;
  if (db) {
    chains = await chainsHealth(db, now)
      .then((all) => all.filter((h) => h.configured).map((h) => ({ chain: h.chain, state: h.state, lag: h.lag })))
      .catch(() => null);
    rates = await ratesReport(db, now)
      .then((r) => ({
        source: r.source,
        unusableCoins: r.coins.filter((c) => !c.usable).length,
        unusableCurrencies: r.currencies.filter((c) => !c.usable).length,
      }))
      .catch(() => null);
  }
  return { status: ready ? "ready" : "not ready", checks, chains, rates };
}
