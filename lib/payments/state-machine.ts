import { and, eq, inArray, sql } from "drizzle-orm";
import { executeRows, type Tx } from "@/db/client";
import { insertPaymentEvent } from "@/db/queries/payments-write";
import { paymentEvents, payments, type Business, type PaymentRow } from "@/db/schema";
import { ApiError } from "@/lib/http/errors";
import { eventForStatus, type EventType } from "@/domain/events";
import type { PaymentStatus } from "@/domain/statuses";
import { canTransition } from "@/domain/transitions";
import { enqueueWebhook, enqueueWebhooks } from "@/lib/payments/outbox";
import { publish } from "@/lib/events/bus";

export class TransitionRefused extends ApiError {
  constructor(
    readonly from: PaymentStatus,
    readonly to: PaymentStatus,
    reason = `A ${from} payment cannot become ${to}.`,
  ) {
    super("conflict", 409, reason);
  }
}

type Patch = Partial<Omit<typeof payments.$inferInsert, "id" | "status" | "timeline">>;

/**
 * The one way a payment's status changes (`transitionMany` is its batch form, for expiry).
 * Checks the D3 table, then claims the change with a conditional UPDATE (`WHERE status =
 * from`), so of two racing writers (expiry and a payment, say) exactly one wins and the other
 * gets TransitionRefused. In the same statement the
 * timeline entry is appended and the event is written (a data-modifying CTE that inserts only
 * when the UPDATE claimed the row); in the same transaction the webhook outbox row follows.
 */
export async function transition(
  tx: Tx,
  payment: Pick<PaymentRow, "id" | "status">,
  to: PaymentStatus,
  opts: { at?: Date; patch?: Patch } = {},
): Promise<PaymentRow> {
  const from = payment.status;
  if (to === "AWAITING_PAYMENT" || !canTransition(from, to)) throw new TransitionRefused(from, to);
  const at = opts.at ?? new Date();
  const type = eventForStatus(to);
  const entry = JSON.stringify([{ time: at.toISOString(), paymentStatus: to }]);
  const moved = tx.$with("moved").as(
    tx
      .update(payments)
      .set({
        ...opts.patch,
        status: to,
        timeline: sql`${payments.timeline} || ${entry}::jsonb`,
        updatedAt: at,
      })
      .where(and(eq(payments.id, payment.id), eq(payments.status, from)))
      .returning(),
  );
  const event = tx.$with("event", { eventId: sql<number>`event_id`.as("event_id") }).as(sql`
    insert into ${paymentEvents} (payment_id, type, from_status, to_status, created_at)
    select ${payment.id}::uuid, ${type}::text, ${from}::text, ${to}::text, ${at.toISOString()}::timestamptz
    where exists (select 1 from moved)
    returning id as event_id`);
  const [found] = await tx.with(moved, event).select().from(moved).innerJoin(event, sql`true`);
  if (!found) {
    throw new TransitionRefused(from, to, `The payment is no longer ${from}; it changed concurrently.`);
  }
  const row: PaymentRow = found.moved;
  await announceEvent(tx, row, Number(found.event.eventId), type, at);
  return row;
}

/**
 * The same change for many payments at once (an expiry batch), with `transition`'s rules in one
 * statement: the D3 table decides which may change, each row is claimed only while still in the
 * status the caller saw (`status = from`, per row), and each claimed row gets its timeline
 * entry and its event; the outbox rows follow in the same transaction. A row that changed
 * concurrently is left out (no event) instead of refusing the whole batch. Returns the changed
 * payments.
 */
export async function transitionMany(
  tx: Tx,
  changes: { payment: Pick<PaymentRow, "id" | "status">; at: Date }[],
  to: PaymentStatus,
): Promise<PaymentRow[]> {
  if (to === "AWAITING_PAYMENT") return [];
  const allowed = changes.filter((c) => canTransition(c.payment.status, to));
  if (allowed.length === 0) return [];
  const type = eventForStatus(to);
  const due = JSON.stringify(
    allowed.map((c) => ({
      id: c.payment.id,
      from_status: c.payment.status,
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
  if (events.length === 0) return [];
  const rows = await tx.select().from(payments).where(inArray(payments.id, events.map((e) => e.payment_id)));
  const byId = new Map(rows.map((r) => [r.id, r]));
  const atOf = new Map(allowed.map((c) => [c.payment.id, c.at]));
  const announced = events
    .sort((a, b) => Number(a.event_id) - Number(b.event_id))
    .map((e) => ({ payment: byId.get(e.payment_id)!, eventId: Number(e.event_id), at: atOf.get(e.payment_id)! }));
  await enqueueWebhooks(tx, announced, type);
  for (const { payment } of announced) publishEvent(tx, payment, type);
  return announced.map((a) => a.payment);
}

/**
 * Writes an event (a status change, creation or method selection) and its webhook outbox row,
 * in the caller's transaction.
 */
export async function recordEvent(
  tx: Tx,
  payment: PaymentRow,
  type: EventType,
  from: PaymentStatus | null,
  at: Date,
  business?: Business,
): Promise<void> {
  const eventId = await insertPaymentEvent(tx, { paymentId: payment.id, type, fromStatus: from, toStatus: payment.status, createdAt: at });
  await announceEvent(tx, payment, eventId, type, at, business);
}

/** What follows a written event, in the same transaction: its webhook outbox row, and its notice to the listeners. */
export async function announceEvent(
  tx: Tx,
  payment: PaymentRow,
  eventId: number,
  type: EventType,
  at: Date,
  business?: Business,
): Promise<void> {
  await enqueueWebhook(tx, payment, eventId, type, at, business);
  publishEvent(tx, payment, type);
}

function publishEvent(tx: Tx, payment: PaymentRow, type: EventType): void {
  publish(tx, { kind: "payment", type, paymentId: payment.id, status: payment.status, expiresAt: payment.expiresAt });
}
