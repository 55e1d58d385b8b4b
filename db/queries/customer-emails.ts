import { and, asc, eq, inArray, isNull, lte, or, sql } from "drizzle-orm";
import type { Tx } from "@/db/client";
import { customerEmailAttempts, customerEmails, type CustomerEmailAttemptRow, type CustomerEmailRow } from "@/db/schema";

/** The outbox rows of a status change; a row whose idempotency key exists already is skipped (the same event told twice). */
export async function insertCustomerEmails(tx: Tx, rows: (typeof customerEmails.$inferInsert)[]): Promise<CustomerEmailRow[]> {
  if (rows.length === 0) return [];
  return tx.insert(customerEmails).values(rows).onConflictDoNothing({ target: customerEmails.idempotencyKey }).returning();
}

const due = (now: Date) =>
  and(
    eq(customerEmails.status, "pending"),
    lte(customerEmails.nextAttemptAt, now),
    or(isNull(customerEmails.lockedUntil), lte(customerEmails.lockedUntil, now)),
  );

/**
 * Claims up to `limit` due e-mails for `leaseMs` (`FOR UPDATE SKIP LOCKED`: workers never share a
 * row); a worker that dies mid-send leaves its rows to be retaken once the lease ends.
 */
export async function claimDueEmails(tx: Tx, now: Date, limit: number, leaseMs: number): Promise<CustomerEmailRow[]> {
  const ids = tx.select({ id: customerEmails.id }).from(customerEmails).where(due(now)).orderBy(asc(customerEmails.nextAttemptAt)).limit(limit).for("update", { skipLocked: true });
  return tx
    .update(customerEmails)
    .set({ lockedUntil: new Date(now.getTime() + leaseMs) })
    .where(inArray(customerEmails.id, ids))
    .returning();
}

/** Without an SMTP server: every due e-mail is kept as not sent, with why. Returns how many. */
export async function keepDueEmailsUnsent(tx: Tx, now: Date, why: string): Promise<number> {
  const rows = await tx
    .update(customerEmails)
    .set({ status: "unsent", nextAttemptAt: null, lockedUntil: null, lastError: why, updatedAt: now })
    .where(due(now))
    .returning({ id: customerEmails.id });
  return rows.length;
}

/** One attempt and the e-mail's new state, in one statement. */
export async function recordEmailAttempt(
  tx: Tx,
  attempt: typeof customerEmailAttempts.$inferInsert,
  set: Pick<CustomerEmailRow, "status" | "nextAttemptAt" | "lastError" | "sentAt">,
): Promise<CustomerEmailRow> {
  const inserted = tx.$with("attempt").as(tx.insert(customerEmailAttempts).values(attempt).returning({ id: customerEmailAttempts.id }));
  const [row] = await tx
    .with(inserted)
    .update(customerEmails)
    .set({ ...set, attempts: sql`${customerEmails.attempts} + 1`, lockedUntil: null, updatedAt: attempt.attemptedAt })
    .where(eq(customerEmails.id, attempt.emailId))
    .returning();
  return row;
}

export type CustomerEmailWithAttempts = CustomerEmailRow & { attemptLog: CustomerEmailAttemptRow[] };

/** A payment's e-mails, oldest first, each with its attempts. */
export async function listPaymentEmails(tx: Tx, paymentId: string): Promise<CustomerEmailWithAttempts[]> {
  const emails = await tx.select().from(customerEmails).where(eq(customerEmails.paymentId, paymentId)).orderBy(asc(customerEmails.id));
  if (emails.length === 0) return [];
  const attempts = await tx
    .select()
    .from(customerEmailAttempts)
    .where(
      inArray(
        customerEmailAttempts.emailId,
        emails.map((e) => e.id),
      ),
    )
    .orderBy(asc(customerEmailAttempts.id));
  return emails.map((e) => ({ ...e, attemptLog: attempts.filter((a) => a.emailId === e.id) }));
}
