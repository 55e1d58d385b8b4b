import { PgTransaction } from "drizzle-orm/pg-core";
import type { Db, Tx } from "./client";
import { log } from "@/log/logger.mjs";

/** Work that must follow a commit: sending an event about a row, waking a worker. */
export type AfterCommit = () => unknown;

const registered = new WeakMap<object, AfterCommit[]>();

/**
 * Runs `work` in a transaction and then, only if it committed, the work registered on it with
 * `afterCommit`, in registration order. A transaction that throws (rolls back) drops its
 * registered work: nothing is ever sent about a change that did not happen. The one way the
 * service begins a transaction, so every transaction can take after-commit work.
 */
export async function inTransaction<T>(db: Db, work: (tx: Tx) => Promise<T>): Promise<T> {
  const after: AfterCommit[] = [];
  const result = await db.transaction(async (tx) => {
    registered.set(tx, after);
    return work(tx);
  });
  for (const fn of after) runSafely(fn);
  return result;
}

/**
 * Registers `fn` to run once `tx` has committed. Given the database handle itself (statements
 * that commit one by one), each statement has committed when it returned, so `fn` runs as soon
 * as the caller yields. A transaction not begun by `inTransaction` is refused, so no work can be
 * registered where it would silently never run.
 */
export function afterCommit(tx: Tx | Db, fn: AfterCommit): void {
  const list = registered.get(tx);
  if (list) {
    list.push(fn);
    return;
  }
  if (isTransaction(tx)) throw new Error("afterCommit: begin the transaction with inTransaction()");
  queueMicrotask(() => runSafely(fn));
}

/** Whether `tx` is an open transaction rather than the database handle itself (`Tx` is one type for both). */
export function isTransaction(tx: Tx | Db): boolean {
  const handle: unknown = tx;
  return handle instanceof PgTransaction;
}

/** After-commit work reports its own failures; one failing never stops the others. */
function runSafely(fn: AfterCommit): void {
  try {
    const r = fn();
    if (r instanceof Promise) r.catch((e: unknown) => log.error({ component: "after-commit", err: e }, "work after a commit failed"));
  } catch (e) {
    log.error({ component: "after-commit", err: e }, "work after a commit failed");
  }
}
