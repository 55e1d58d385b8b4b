import { z } from "zod";
import type { Db } from "@/db/client";
import { EXACT_COUNT_LIMIT } from "@/db/queries/payments-list";
import { listTransfers } from "@/db/queries/charges";
import { findDelivery } from "@/db/queries/webhooks";
import type { Business } from "@/db/schema";
import { authorize } from "@/lib/accounts/authorize";
import { can } from "@/lib/accounts/roles";
import { listBusinessDeliveries, redeliverOne, type deliveryView } from "@/lib/webhooks/delivery-log";
import { notFound } from "@/lib/http/errors";
import { paymentEmails, type CustomerEmailView } from "@/lib/emails/log";
import { parseWith } from "@/lib/http/parse";
import { parseListQuery, type ListPaymentsQuery } from "@/lib/payments/list-query";
import { getPayment, listPayments, updateNote } from "@/lib/payments/read";
import { NoteRequestSchema, type PaymentRecord } from "@/lib/payments/schemas";

/*
 * The dashboard's Payments section, over the API's own service functions (no second code path):
 * each function first checks the signed-in user's membership and role (`authorize`: 404 for
 * anyone outside the business, 403 for a role without the permission), then calls what the
 * merchant API or the operator API calls. Errors are ApiErrors: pages turn them into a 404 or
 * the schema's field errors, server actions into their form's result (`asUser`).
 */

export type WebhookDelivery = ReturnType<typeof deliveryView>;

/** A delivery log shows at most this many deliveries of one payment (one per event and endpoint). */
export const DELIVERIES_SHOWN = 100;

const PaymentId = z.uuid();

/** A payment id from a URL or a form: a malformed one is as unknown as another business's. */
function paymentIdOf(value: unknown): string {
  const parsed = PaymentId.safeParse(value);
  if (!parsed.success) throw notFound(`No payment ${String(value).slice(0, 80)} exists for this business.`);
  return parsed.data;
}

/**
 * Webhook deliveries are kept under the business the event was sent for: the sub-business a
 * payment was made on behalf of, else the payment's own (lib/payments/outbox.ts).
 */
function deliveryOwner(business: Business, payment: PaymentRecord): number {
  return payment.onBehalfOfBusinessId ?? business.id;
}

export type PaymentsPage = {
  query: ListPaymentsQuery;
  items: PaymentRecord[];
  pageNumber: number;
  pageSize: number;
  totalCount: number;
  totalPages: number;
  /** `totalCount` is the planner's estimate (above EXACT_COUNT_LIMIT matches), not a count. */
  totalIsEstimate: boolean;
};

/**
 * A page of the business's payments: the URL's query read with the list API's own parser
 * (`parseListQuery`: the same names, defaults and field errors as `GET …/payments`), then the
 * API's `listPayments`.
 */
export async function listDashboardPayments(db: Db, userId: string, businessId: unknown, search: URLSearchParams): Promise<PaymentsPage> {
  const { business } = await authorize(db, userId, businessId, "view");
  const query = parseListQuery(search);
  const page = await listPayments(db, business, query);
  return {
    query,
    items: page.items.map((text) => JSON.parse(text) as PaymentRecord),
    pageNumber: page.pageNumber,
    pageSize: page.pageSize,
    totalCount: page.totalCount,
    totalPages: page.totalPages,
    totalIsEstimate: page.totalCount > EXACT_COUNT_LIMIT,
  };
}

export type PaymentDetail = {
  payment: PaymentRecord;
  deliveries: WebhookDelivery[];
  deliveriesTotal: number;
  /** The e-mails the customer was sent (or is to be, or could not be), oldest first, with their attempts. */
  emails: CustomerEmailView[];
  /**
   * Transfers that cannot count whatever their confirmations, with why (a Monero sender's
   * unlock_time, or more confirmations advised than the payment waits for): the merchant settles
   * them by hand, so the page names them; the API's record has no field for it.
   */
  held: { txId: string; reason: string }[];
  canEditNote: boolean;
  canRedeliver: boolean;
};

/**
 * One payment's record (the API's `getPayment`) with its webhook deliveries and their attempts
 * (the operator API's `listBusinessDeliveries`, narrowed to the payment), newest first, and the
 * customer e-mails it gave rise to.
 */
export async function dashboardPayment(db: Db, userId: string, businessId: unknown, paymentId: unknown): Promise<PaymentDetail> {
  const { business, role } = await authorize(db, userId, businessId, "view");
  const payment = await getPayment(db, business, paymentIdOf(paymentId));
  const [log, emails, transfers] = await Promise.all([
    listBusinessDeliveries(db, deliveryOwner(business, payment), { paymentId: payment.id, PageNumber: 1, PageSize: DELIVERIES_SHOWN }),
    paymentEmails(db, payment.id),
    listTransfers(db, payment.id),
  ]);
  return {
    payment,
    deliveries: log.items,
    deliveriesTotal: log.totalCount,
    emails,
    held: transfers.flatMap((t) => (t.held && !t.dropped ? [{ txId: t.txId, reason: t.held }] : [])),
    canEditNote: can(role, "edit-notes"),
    canRedeliver: can(role, "manage-webhooks"),
  };
}

/**
 * Replaces the payment's internal note (owners and developers): the body checked by the API's
 * `NoteRequestSchema`, written by the API's `updateNote`. Answers the payment's record.
 */
export async function editPaymentNote(db: Db, userId: string, businessId: unknown, paymentId: unknown, note: unknown): Promise<PaymentRecord> {
  const { business } = await authorize(db, userId, businessId, "edit-notes");
  const id = paymentIdOf(paymentId);
  const input = parseWith(NoteRequestSchema, { note }, "Note");
  return updateNote(db, business, id, input.note);
}

/**
 * One more attempt of a delivery of this payment's webhooks now, with the same message id (the
 * operator API's `redeliverOne`), for owners and developers. The delivery must be one of this
 * payment's: an id of any other is unknown here.
 */
export async function redeliverPaymentWebhook(
  db: Db,
  userId: string,
  businessId: unknown,
  paymentId: unknown,
  deliveryId: unknown,
): Promise<WebhookDelivery> {
  const { business } = await authorize(db, userId, businessId, "manage-webhooks");
  const payment = await getPayment(db, business, paymentIdOf(paymentId));
  const text = String(deliveryId);
  const id = /^[1-9][0-9]{0,15}$/.test(text) ? Number(text) : null;
  const owner = deliveryOwner(business, payment);
  const delivery = id !== null && Number.isSafeInteger(id) ? await findDelivery(db, owner, id) : undefined;
  if (!delivery || delivery.paymentId !== payment.id) throw notFound(`No webhook delivery ${text.slice(0, 40)} exists for this payment.`);
  return redeliverOne(db, owner, delivery.id);
}
