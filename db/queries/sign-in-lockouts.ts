import { and, eq, gt, sql } from "drizzle-orm";
import type { Tx } from "../client";
import { signInLockouts } from "../schema";

/** When the email address's sign-in is locked until, or null while it is not locked at `now`. */
export async function lockedUntil(tx: Tx, email: string, now: Date): Promise<Date | null> {
  const [row] = await tx
    .select({ lockedUntil: signInLockouts.lockedUntil })
    .from(signInLockouts)
    .where(and(eq(signInLockouts.email, email), gt(signInLockouts.lockedUntil, now)));
  return row?.lockedUntil ?? null;
}

/**
 * Counts a failed sign-in in one statement, so concurrent failures (from any instance) each
 * count: a failure after the window has passed opens a new window; the `maxFailures`-th within
 * the window locks the address for `windowMs` and starts the count afresh. Returns the lock's
 * end when this failure locked it, else null.
 */
export async function recordFailure(tx: Tx, email: string, now: Date, maxFailures: number, windowMs: number): Promise<Date | null> {
  // Raw SQL parameters bypass the column's Date mapping: times go in as ISO text, cast.
  const time = (d: Date) => sql`${d.toISOString()}::timestamptz`;
  const until = new Date(now.getTime() + windowMs);
  const windowOpen = sql`${signInLockouts.windowStartedAt} > ${time(new Date(now.getTime() - windowMs))}`;
  const counted = sql`case when ${windowOpen} then ${signInLockouts.failures} + 1 else 1 end`;
  const locks = sql`${counted} >= ${maxFailures}`;
  const [row] = await tx
    .insert(signInLockouts)
    .values({ email, failures: 1, windowStartedAt: now, lockedUntil: maxFailures <= 1 ? until : null })
    .onConflictDoUpdate({
      target: signInLockouts.email,
      set: {
        failures: sql`case when ${locks} then 0 else ${counted} end`,
        windowStartedAt: sql`case when ${windowOpen} and not (${locks}) then ${signInLockouts.windowStartedAt} else ${time(now)} end`,
        lockedUntil: sql`case when ${locks} then ${time(until)} else ${signInLockouts.lockedUntil} end`,
      },
    })
    .returning({ lockedUntil: signInLockouts.lockedUntil });
  return row?.lockedUntil && row.lockedUntil.getTime() === until.getTime() ? until : null;
}

/** Clears the address's count and any lock (a successful sign-in, the operator's unlock); true when it was locked at `now`. */
export async function clearFailures(tx: Tx, email: string, now = new Date()): Promise<boolean> {
  const [row] = await tx.delete(signInLockouts).where(eq(signInLockouts.email, email)).returning({ lockedUntil: signInLockouts.lockedUntil });
  return Boolean(row?.lockedUntil && row.lockedUntil > now);
}
