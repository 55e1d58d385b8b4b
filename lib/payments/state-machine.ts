import type { Tx } from "@/db/client";
import { claimTransition, claimTransitions, findPaymentsByIds, type PaymentPatch } from "@/db/queries/payments-status";
import { insertPaymentEvent } from "@/db/queries/payments-write";
import type { PaymentRow } from "@/db/schema";
import { ApiError } from "@/lib/http/errors";
import { eventForStatus, type EventType } from "@/domain/events";
import type { PaymentStatus } from "@/domain/statuses";
import { canTransition } from "@/domain/transitions";
import { enqueueWebhook, enqueueWebhooks, type KnownBusiness } from "@/lib/payments/outbox";
import { enqueueCustomerEmails } from "@/lib/payments/customer-emails";
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
  opts: { at?: Date; patch?: PaymentPatch } = {},
): Promise<PaymentRow> {
  const from = payment.status;
  if (to === "AWAITING_PAYMENT" || !canTransition(from, to)) throw new TransitionRefused(from, to);
  const at = opts.at ?? new Date();
  const type = eventForStatus(to);
  const found = await claimTransition(tx, { id: payment.id, from, to, type, at, patch: opts.patch });
  if (!found) {
    throw new TransitionRefused(from, to, `The payment is no longer ${from}; it changed concurrently.`);
  }
  const row: PaymentRow = found.payment;
  await announceEvent(tx, row, found.eventId, type, at);
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
  const events = await claimTransitions(
    tx,
    allowed.map((c) => ({ id: c.payment.id, from: c.payment.status, at: c.at })),
    to,
    type,
  );
  if (events.length === 0) return [];
  const rows = await findPaymentsByIds(tx, events.map((e) => e.paymentId));
  const byId = new Map(rows.map((r) => [r.id, r]));
  const atOf = new Map(allowed.map((c) => [c.payment.id, c.at]));
  const announced = events
    .sort((a, b) => a.eventId - b.eventId)
    .map((e) => ({ payment: byId.get(e.paymentId)!, eventId: e.eventId, at: atOf.get(e.paymentId)! }));
  await enqueueWebhooks(tx, announced, type);
  await enqueueCustomerEmails(tx, announced, type);
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
  known?: KnownBusiness,
): Promise<void> {
  const eventId = await insertPaymentEvent(tx, { paymentId: payment.id, type, fromStatus: from, toStatus: payment.status, createdAt: at });
  await announceEvent(tx, payment, eventId, type, at, known);
}

/** What follows a written event, in the same transaction: its webhook and customer e-mail outbox rows, and its notice to the listeners. */
export async function announceEvent(
  tx: Tx,
  payment: PaymentRow,
  eventId: number,
  type: EventType,
  at: Date,
  known?: KnownBusiness,
): Promise<void> {
  await enqueueWebhook(tx, payment, eventId, type, at, known);
  await enqueueCustomerEmails(tx, [{ payment, eventId, at }], type);
  publishEvent(tx, payment, type);
}

function publishEvent(tx: Tx, payment: PaymentRow, type: EventType): void {
  publish(tx, { kind: "payment", type, paymentId: payment.id, status: payment.status, coin: payment.selectedCoin, expiresAt: payment.expiresAt });
}
