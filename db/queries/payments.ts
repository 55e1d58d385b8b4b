import { and, count, eq, gte, inArray, like, lte, sql, type SQL } from "drizzle-orm";
import type { Tx } from "../client";
import { paymentEvents, payments, type PaymentRow } from "../schema";
import type { Business } from "../schema";
import type { PaymentStatus } from "@/lib/payments/status";

/**
 * Which payments a business sees: a sub-business (one with a parent) sees the payments made
 * on its behalf; any other business sees its own, including those of its sub-businesses.
 */
export function paymentScope(business: Business): SQL {
  return business.parentBusinessId !== null
    ? eq(payments.onBehalfOfBusinessId, business.id)
    : eq(payments.businessId, business.id);
}

export async function insertPayment(tx: Tx, row: typeof payments.$inferInsert): Promise<PaymentRow> {
  const [created] = await tx.insert(payments).values(row).returning();
  return created;
}

export async function insertPaymentEvent(tx: Tx, row: typeof paymentEvents.$inferInsert): Promise<number> {
  const [event] = await tx.insert(paymentEvents).values(row).returning({ id: paymentEvents.id });
  return event.id;
}

export async function findPayment(tx: Tx, business: Business, id: string): Promise<PaymentRow | undefined> {
  const [row] = await tx
    .select()
    .from(payments)
    .where(and(eq(payments.id, id), paymentScope(business)))
    .limit(1);
  return row;
}

export async function setPaymentNote(tx: Tx, business: Business, id: string, note: string): Promise<PaymentRow | undefined> {
  const [row] = await tx
    .update(payments)
    .set({ note, updatedAt: new Date() })
    .where(and(eq(payments.id, id), paymentScope(business)))
    .returning();
  return row;
}

export type PaymentFilter = {
  fromTime?: Date;
  toTime?: Date;
  statuses?: PaymentStatus[];
  coins?: string[];
  fromAmount?: string;
  toAmount?: string;
  search?: string;
  onBehalfOfBusinessId?: number;
};

function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

function filterConditions(business: Business, f: PaymentFilter): SQL {
  const conds: (SQL | undefined)[] = [paymentScope(business)];
  if (f.onBehalfOfBusinessId !== undefined) conds.push(eq(payments.onBehalfOfBusinessId, f.onBehalfOfBusinessId));
  if (f.fromTime) conds.push(gte(payments.createdAt, f.fromTime));
  if (f.toTime) conds.push(lte(payments.createdAt, f.toTime));
  if (f.statuses?.length) conds.push(inArray(payments.status, f.statuses));
  if (f.coins?.length) conds.push(inArray(payments.selectedCoin, f.coins));
  if (f.fromAmount !== undefined) conds.push(gte(payments.amount, f.fromAmount));
  if (f.toAmount !== undefined) conds.push(lte(payments.amount, f.toAmount));
  if (f.search) conds.push(like(payments.searchText, `%${escapeLike(f.search.toLowerCase())}%`));
  return and(...conds)!;
}

/** Newest first (`createdAt desc, id desc`), matching the list indexes' order exactly. */
export async function listPayments(
  tx: Tx,
  business: Business,
  f: PaymentFilter,
  page: { number: number; size: number },
): Promise<{ rows: PaymentRow[]; total: number }> {
  const where = filterConditions(business, f);
  const [rows, [{ total }]] = await Promise.all([
    tx
      .select()
      .from(payments)
      .where(where)
      .orderBy(sql`${payments.createdAt} desc nulls last`, sql`${payments.id} desc nulls last`)
      .limit(page.size)
      .offset((page.number - 1) * page.size),
    tx.select({ total: count() }).from(payments).where(where),
  ]);
  return { rows, total };
}
