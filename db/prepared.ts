import type { Tx } from "./client";
import { withCompiledRowMapping } from "./row-mapping";

const cache = new WeakMap<object, Map<string, unknown>>();
/** Statements kept per handle; past this (many list filter shapes) a statement is built per call. */
const MAX_PER_HANDLE = 500;

/**
 * A statement prepared once per database handle: drizzle builds its SQL text (and the row
 * mapping, compiled by db/row-mapping.ts) once instead of on every call, which for the wide joins of the hot paths costs more
 * CPU than the database's own work. Values go in through `sql.placeholder`. A transaction is a
 * handle of its own, so inside one the statement is prepared for that transaction.
 */
export function prepared<T>(tx: Tx, name: string, build: () => T): T {
  let statements = cache.get(tx);
  if (!statements) cache.set(tx, (statements = new Map()));
  let statement = statements.get(name) as T | undefined;
  if (statement === undefined) {
    statement = withCompiledRowMapping(build());
    if (statements.size < MAX_PER_HANDLE) statements.set(name, statement);
  }
  return statement;
}

/**
 * A prepared statement whose best plan depends on its values (a list filter: one customer's
 * email vs half the store's status), sent to PostgreSQL unnamed: drizzle still builds its text
 * once, and PostgreSQL plans every execution for the values it gets. Named statements (every
 * other prepared one) may settle on a generic plan after five executions, which for primary-key
 * lookups and inserts saves the planning on every request. drizzle has no option for this; its
 * postgres.js statement keeps the choice in `prepare`.
 */
export function plannedPerExecution<T>(statement: T): T {
  const s = statement as { prepare?: unknown };
  if (typeof s.prepare === "boolean") s.prepare = false;
  return statement;
}
