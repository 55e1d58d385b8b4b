import type { Tx } from "./client";

const cache = new WeakMap<object, Map<string, unknown>>();
/** Statements kept per handle; past this (many list filter shapes) a statement is built per call. */
const MAX_PER_HANDLE = 500;

/**
 * A statement prepared once per database handle: drizzle builds its SQL text once instead of on
 * every call, which for the wide joins of the hot paths costs more CPU than the database's own
 * work. Values go in through `sql.placeholder`. A transaction is a handle of its own, so inside
 * one the statement is prepared for that transaction.
 */
export function prepared<T>(tx: Tx, name: string, build: () => T): T {
  let statements = cache.get(tx);
  if (!statements) cache.set(tx, (statements = new Map()));
  let statement = statements.get(name) as T | undefined;
  if (statement === undefined) {
    statement = build();
    if (statements.size < MAX_PER_HANDLE) statements.set(name, statement);
  }
  return statement;
}
