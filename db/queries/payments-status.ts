import { and, asc, eq, inArray, lte, sql } from "drizzle-orm";
import type { EventType } from "@/domain/events";
import type { PaymentStatus } from "@/domain/statuses";
import { executeRows, type Tx } from "../client";
import { paymentEvents, payments, type PaymentRow } from "../schema";

/*
 * Changing a payment's status: the row locks taken before a decision, the due batches expiry
 * claims, and the claim-and-event statements of the state machine (lib/payments/state-machine.ts
 * decides which changes are allowed; these only write them).
 */

/** Columns a status change may set besides status and timeline. */
export type PaymentPatch = Partial<Omit<typeof payments.$inferInsert, "id" | "status" | "timeline">>;

/** A payment's row, locked for update until the transaction ends (undefined: no such payment). */
export async function lockPayment(tx: Tx, paymentId: string): Promise<PaymentRow | undefined> {
  const [payment] = await tx.select().from(payments).where(eq(payments.id, paymentId)).for("update").limit(1);
  return payment;
}

/** What a due payment is claimed with: enough to move it through the state machine. */
export type DuePayment = Pick<PaymentRow, "id" | "status" | "expiresAt">;

/**
 * Up to `limit` payments in one of `statuses` whose `expiresAt` has passed at `now`, oldest
 * expiry first, locked with `FOR UPDATE SKIP LOCKED` (rows another sweeper holds are left to it).
 */
export async function lockDuePayments(
  tx: Tx,
  statuses: readonly PaymentStatus[],
  now: Date,
  limit: number,
): Promise<DuePayment[]> {
  return tx
    .select({ id: payments.id, status: payments.status, expiresAt: payments.expiresAt })
    .from(payments)
    .where(and(inArray(payments.status, [...statuses]), lte(payments.expiresAt, now)))
    .orderBy(asc(payments.expiresAt))
    .limit(limit)
    .for("update", { skipLocked: true });
}

/** One payment, locked for update, if it is in one of `statuses` and its `expiresAt` has passed at `now`. */
export async function lockDuePayment(
  tx: Tx,
  paymentId: string,
  statuses: readonly PaymentStatus[],
  now: Date,
): Promise<DuePayment | undefined> {
  const [p] = await tx
    .select({ id: payments.id, status: payments.status, expiresAt: payments.expiresAt })
    .from(payments)
    .where(and(inArray(payments.id, [paymentId]), inArray(payments.status, [...statuses]), lte(payments.expiresAt, now)))
    .for("update");
  return p;
}

/**
 * One status change in ONE statement: a conditional UPDATE (`WHERE id AND status = from`) that
 * appends the timeline entry, and a data-modifying CTE that inserts the event only when the
 * UPDATE claimed the row. Undefined when the payment was no longer `from` (nothing written).
 */
export async function claimTransition(
  tx: Tx,
  change: { id: string; from: PaymentStatus; to: PaymentStatus; type: EventType; at: Date; patch?: PaymentPatch },
): Promise<{ payment: PaymentRow; eventId: number } | undefined> {
  const { id, from, to, type, at } = change;
  const entry = JSON.stringify([{ time: at.toISOString(), paymentStatus: to }]);
  const moved = tx.$with("moved").as(
    tx
      .update(payments)
      .set({
        ...change.patch,
        status: to,
        timeline: sql`${payments.timeline} || ${entry}::jsonb`,
        updatedAt: at,
      })
      .where(and(eq(payments.id, id), eq(payments.status, from)))
      .returning(),
  );
  const event = tx.$with("event", { eventId: sql<number>`event_id`.as("event_id") }).as(sql`
    insert into ${paymentEvents} (payment_id, type, from_status, to_status, created_at)
    select ${id}::uuid, ${type}::text, ${from}::text, ${to}::text, ${at.toISOString()}::timestamptz
    where exists (select 1 from moved)
    returning id as event_id`);
  const [found] = await tx.with(moved, event).select().from(moved).innerJoin(event, sql`true`);
  if (!found) return undefined;
  return { payment: found.moved, eventId: Number(found.event.eventId) };
}

/**
 * Many payments' change to `to` in ONE statement (an expiry batch): each row is claimed only
 * while still in its own `from` status, gets its timeline entry (at its own time) and its event.
 * A row that changed concurrently is left out. Returns the events written, in no order.
 */
export async function claimTransitions(
  tx: Tx,
  changes: { id: string; from: PaymentStatus; at: Date }[],
  to: PaymentStatus,
  type: EventType,
): Promise<{ eventId: number; paymentId: string }[]> {
  if (changes.length === 0) return [];
  const due = JSON.stringify(
    changes.map((c) => ({
      id: c.id,
      from_status: c.from,
      at: c.at.toISOString(),
      entry: [{ time: c.at.toISOString(), paymentStatus: to }],
    })),
  );
  const events = await executeRows<{ event_id: number | string; payment_id: string }>(
    tx,
    sql`
    with due as (
      select * from jsonb_to_recordset(${due}::jsonb) as d(id uuid, from_status text, at timestamptz, entry jsonb)
    ), moved as (
      update ${payments} set status = ${to}::text, timeline = ${payments.timeline} || due.entry, updated_at = due.at
      from due
      where ${payments.id} = due.id and ${payments.status} = due.from_status
      returning ${payments.id} as id, due.from_status, due.at
    )
    insert into ${paymentEvents} (payment_id, type, from_status, to_status, created_at)
    select id, ${type}::text, from_status, ${to}::text, at from moved
    returning id as event_id, payment_id`,
  );
  return events.map((e) => ({ eventId: Number(e.event_id), paymentId: e.payment_id }));
}

/** Whole payment rows by id, in no order (ids without a payment are left out). */
export async function findPaymentsByIds(tx: Tx, ids: string[]): Promise<PaymentRow[]> {
  return tx.select().from(payments).where(inArray(payments.id, ids));
}
