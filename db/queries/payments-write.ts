import { and, eq, getTableColumns, isNull, sql } from "drizzle-orm";
import type { Tx } from "../client";
import { prepared } from "../prepared";
import { customerIps, customers, paymentEvents, payments, type Business, type CustomerIpRow, type PaymentRow } from "../schema";
import { RECORD_SELECTION, detailsQuery, foldDetails, type PaymentDetails } from "./payments-read";

/*
 * Writing payments: a new payment with its customer and first event, further events, the note,
 * and what the checkout records on a payment (the first visit, the customer, the chosen coin).
 */

/** The columns a new payment is written with (the rest start empty). */
const NEW_PAYMENT_COLUMNS = [
  "id", "businessId", "onBehalfOfBusinessId", "name", "description", "currency", "amount", "endAmount",
  "status", "offeredCoins", "paymentMethods", "metadata", "feeTransfers", "redirectUrl", "notifyUrl",
  "customerIp", "customerUserAgent", "timeline", "createdAt", "expiresAt", "updatedAt",
] as const satisfies (keyof typeof payments.$inferInsert)[];

export type NewPayment = Required<Pick<typeof payments.$inferInsert, (typeof NEW_PAYMENT_COLUMNS)[number]>>;

/**
 * A new payment, its customer (D9: found by email, case-insensitively, or created) with the IP
 * address it came from, and its PAYMENT_CREATED event, in ONE prepared statement: data-modifying
 * CTEs run as one atomic command, so no transaction (and no BEGIN/COMMIT round trips) is needed,
 * and the foreign keys between the new rows are checked when the statement ends.
 *
 * The customer is looked up first and inserted only when missing, so a returning customer's row
 * is not rewritten on every payment (an upsert's DO UPDATE wrote a new row version each time:
 * dead rows, and new entries in every index of `customers`, its trigram index's pending list
 * included, which each search then scanned). A concurrent first payment of the same email,
 * which this statement's snapshot cannot see, meets the insert's conflict branch: it waits for
 * the other transaction and returns that row, rather than leaving this payment without a
 * customer. The stored email keeps its first spelling (D9).
 */
export async function insertPaymentWithCustomer(
  tx: Tx,
  row: NewPayment,
  customer: {
    businessId: number;
    email: string | null;
    ip: string | null;
    userAgent: string | null;
    /** Where `ip` is (lib/geo/ip-location.ts), stored with it. */
    location: Pick<CustomerIpRow, "city" | "country" | "isp">;
  },
): Promise<{ payment: PaymentRow; eventId: number }> {
  const statement = prepared(tx, "insertPayment", () => {
    const ph = sql.placeholder;
    const found = tx.$with("found", { id: sql<number>`id`.as("id"), email: sql<string | null>`email`.as("email") }).as(sql`
      select id, email from ${customers}
      where business_id = ${ph("customerBusinessId")}::bigint and lower(email) = lower(${ph("email")}::text)`);
    const added = tx.$with("added", { id: sql<number>`id`.as("id"), email: sql<string | null>`email`.as("email") }).as(sql`
      insert into ${customers} (business_id, email)
      select ${ph("customerBusinessId")}::bigint, ${ph("email")}::text where not exists (select 1 from found)
      on conflict (business_id, lower(email)) do update set email = ${customers}.email
      returning id, email`);
    const c = tx.$with("c", { id: sql<number>`id`.as("id"), email: sql<string | null>`email`.as("email") }).as(sql`
      select id, email from found union all select id, email from added`);
    const ip = tx.$with("ip", { id: sql<number>`id`.as("id") }).as(sql`
      insert into ${customerIps} (customer_id, ip, user_agent, city, country, isp, created_at)
      select c.id, ${ph("ip")}::text, ${ph("userAgent")}::text, ${ph("city")}::text, ${ph("country")}::text,
        ${ph("isp")}::text, ${ph("at")}::timestamptz from c
      where ${ph("ip")}::text is not null
      on conflict do nothing
      returning id`);
    const event = tx.$with("e", { id: sql<number>`id`.as("id") }).as(sql`
      insert into ${paymentEvents} (payment_id, type, from_status, to_status, created_at)
      values (${ph("id")}::uuid, 'PAYMENT_CREATED', null, ${ph("status")}::text, ${ph("at")}::timestamptz)
      returning id`);
    const values = Object.fromEntries(NEW_PAYMENT_COLUMNS.map((k) => [k, ph(k)])) as unknown as NewPayment;
    return tx
      .with(found, added, c, ip, event)
      .insert(payments)
      .values({ ...values, customerId: sql`(select id from c)`, customerEmail: sql`(select email from c)` })
      .returning({ ...getTableColumns(payments), eventId: sql<number>`(select id from e)`.mapWith(Number) })
      .prepare("insert_payment");
  });
  const [created] = await statement.execute({
    ...row,
    customerBusinessId: customer.businessId,
    email: customer.email,
    ip: customer.ip,
    userAgent: customer.userAgent,
    city: customer.location.city,
    country: customer.location.country,
    isp: customer.location.isp,
    at: row.createdAt.toISOString(),
  });
  const { eventId, ...payment } = created;
  return { payment, eventId };
}

export async function insertPaymentEvent(tx: Tx, row: typeof paymentEvents.$inferInsert): Promise<number> {
  const [event] = await tx.insert(paymentEvents).values(row).returning({ id: paymentEvents.id });
  return event.id;
}

/**
 * Replaces the note and returns the payment's details as the update left them, in ONE statement
 * (an UPDATE in a CTE, the prepared details select behind it): undefined when the business has
 * no such payment. The select reads the snapshot from before the update, so the caller overlays
 * the note the update wrote (a record does not show `updatedAt`).
 */
export async function setPaymentNote(
  tx: Tx,
  business: Business,
  id: string,
  note: string,
  at: Date,
): Promise<PaymentDetails | undefined> {
  const sub = business.parentBusinessId !== null;
  const statement = prepared(tx, sub ? "setNote:sub" : "setNote", () => {
    const scope = sub ? payments.onBehalfOfBusinessId : payments.businessId;
    const ph = sql.placeholder;
    const updated = tx.$with("updated", { id: sql<string>`id`.as("id") }).as(sql`
      update ${payments} set ${sql.identifier(payments.note.name)} = ${ph("note")},
        ${sql.identifier(payments.updatedAt.name)} = ${ph("at")}::timestamptz
      where ${payments.id} = ${ph("id")} and ${scope} = ${ph("businessId")}
      returning ${payments.id}`);
    return detailsQuery(
      tx,
      and(eq(payments.id, ph("id")), sql`exists (select 1 from ${updated})`)!,
      [],
      RECORD_SELECTION,
      updated,
    ).prepare(sub ? "set_note_sub" : "set_note");
  });
  const [d] = foldDetails(await statement.execute({ id, businessId: business.id, note, at: at.toISOString() }));
  return d && { ...d, payment: { ...d.payment, note } };
}

/**
 * D9: the first checkout visit's IP address and user agent, written only while the payment has
 * none (a conditional UPDATE, so of concurrent first visits one wins). Returns the payment's
 * customer when this visit claimed it, undefined otherwise.
 */
export async function claimFirstVisit(
  tx: Tx,
  paymentId: string,
  ip: string,
  userAgent: string | null,
): Promise<{ customerId: number } | undefined> {
  const [claimed] = await tx
    .update(payments)
    .set({ customerIp: ip, customerUserAgent: userAgent })
    .where(and(eq(payments.id, paymentId), isNull(payments.customerIp)))
    .returning({ customerId: payments.customerId });
  return claimed;
}

/** Points the payment at `customerId` and stores the email typed on checkout. */
export async function setPaymentCustomer(tx: Tx, paymentId: string, customerId: number, email: string, at: Date, locale: string | null = null): Promise<void> {
  await tx.update(payments).set({ customerId, customerEmail: email, customerLocale: locale, updatedAt: at }).where(eq(payments.id, paymentId));
}

/** Records the coin the customer chose (and its payment method) on the payment; returns the row as updated. */
export async function setSelectedCoin(
  tx: Tx,
  paymentId: string,
  choice: { method: string; coin: string; at: Date },
): Promise<PaymentRow> {
  const [row] = await tx
    .update(payments)
    .set({ selectedPaymentMethod: choice.method, selectedCoin: choice.coin, updatedAt: choice.at })
    .where(eq(payments.id, paymentId))
    .returning();
  return row;
}
