import type { Sql } from "postgres";
import { log } from "@/log/logger.mjs";

/*
 * VACUUM and ANALYZE for the embedded database. PGlite is PostgreSQL's single-user backend: no
 * autovacuum launcher runs beside it, so on its own it never vacuums a table (dead row versions
 * of every status change and note stay in the tables and their indexes, and pages never become
 * all-visible) and never analyzes one (the planner has no column statistics: it guesses every
 * filter's selectivity, and a list's estimated total above 10 000 is a guess too).
 *
 * This applies autovacuum's own rules, with the database's autovacuum_* settings: a table is
 * vacuumed when its dead rows (or rows inserted since its last vacuum) pass threshold + scale
 * factor × its rows, and analyzed when the rows changed since its last analyze pass theirs, or
 * when it holds data and was never vacuumed or analyzed (`reltuples` still -1): the counters
 * start again at zero with each start, so a store restarted often might never pass a threshold.
 *
 * It runs through the service's own connection (postgres.js, one connection to PGlite's one
 * session), so its statements queue with the requests' in order: never inside a request's
 * transaction (which holds the connection) nor between the messages of one of its queries.
 * Requests wait while a statement runs: on the 2-core bench machine, at a million payments,
 * ANALYZE of payments took ~1.4 s, a VACUUM of 100 000 dead rows ~1.5 s and of 20 000 ~0.1 s
 * (docs/decisions.md). PostgreSQL runs its own autovacuum and needs none of this.
 */
const DUE = `
  with t as (
    select format('%I.%I', s.schemaname, s.relname) as name, greatest(c.reltuples, 0) as n,
      s.n_dead_tup, s.n_ins_since_vacuum, s.n_mod_since_analyze,
      c.reltuples < 0 and pg_relation_size(c.oid) > 0 as never_analyzed
    from pg_stat_user_tables s join pg_class c on c.oid = s.relid)
  select name,
    n_dead_tup > current_setting('autovacuum_vacuum_threshold')::float8
        + current_setting('autovacuum_vacuum_scale_factor')::float8 * n
      or n_ins_since_vacuum > current_setting('autovacuum_vacuum_insert_threshold')::float8
        + current_setting('autovacuum_vacuum_insert_scale_factor')::float8 * n as vacuum,
    n_mod_since_analyze > current_setting('autovacuum_analyze_threshold')::float8
        + current_setting('autovacuum_analyze_scale_factor')::float8 * n
      or never_analyzed as analyze
  from t order by name`;

type Due = { name: string; vacuum: boolean; analyze: boolean };

/** One round: vacuums and analyzes what is due, a table per statement; resolves with the statements it ran. */
export async function maintain(sql: Sql): Promise<string[]> {
  // The session's own counts reach the shared statistics at most once a second otherwise.
  await sql.unsafe("select pg_stat_force_next_flush()").simple();
  const due = (await sql.unsafe<Due[]>(DUE)).filter((t) => t.vacuum || t.analyze);
  const ran: string[] = [];
  for (const t of due) {
    const statement = t.vacuum ? `vacuum${t.analyze ? " (analyze)" : ""} ${t.name}` : `analyze ${t.name}`;
    const started = performance.now();
    // The simple protocol: VACUUM refuses to run inside a transaction block.
    await sql.unsafe(statement).simple();
    ran.push(statement);
    const durationMs = Math.round(performance.now() - started);
    log.info({ component: "database", statement, durationMs }, `embedded database: ${statement} took ${durationMs} ms`);
  }
  return ran;
}

/**
 * Runs `maintain` every `intervalMs` (one round at a time) until the returned function is
 * called; that function resolves once a round in progress has ended. The timer keeps no
 * process alive.
 */
export function startMaintenance(sql: Sql, intervalMs = 60_000): () => Promise<void> {
  let round: Promise<unknown> = Promise.resolve();
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    round = maintain(sql)
      .catch((err) => log.error({ component: "database", err }, "embedded database: maintenance failed"))
      .finally(() => (running = false));
  }, intervalMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await round;
  };
}
