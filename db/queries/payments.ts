import { and, asc, count, eq, getTableColumns, type WithSubquery, gte, inArray, isNotNull, lte, sql, type SQL } from "drizzle-orm";
import { executeRows, type Tx } from "../client";
import { prepared } from "../prepared";
import { charges, customerIps, customers, paymentEvents, payments, transfers, type PaymentRow } from "../schema";
import type { Business, ChargeRow, TransferRow } from "../schema";
import { RECORD_CUSTOMER_COLUMNS, RECORD_IP_COLUMNS, type CustomerWithIps } from "./customers";
import { recordsJsonStatement } from "./payment-record-json";
import type { PaymentStatus } from "@/lib/payments/status";
import { isTerminal } from "@/lib/payments/transitions";

/**
 * Which payments a business sees: a sub-business (one with a parent) sees the payments made
 * on its behalf; any other business sees its own, including those of its sub-businesses.
 */
export function paymentScope(business: Business): SQL {
  return business.parentBusinessId !== null
    ? eq(payments.onBehalfOfBusinessId, business.id)
    : eq(payments.businessId, business.id);
}

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
  customer: { businessId: number; email: string | null; ip: string | null; userAgent: string | null },
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
      insert into ${customerIps} (customer_id, ip, user_agent, created_at)
      select c.id, ${ph("ip")}::text, ${ph("userAgent")}::text, ${ph("at")}::timestamptz from c
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
    at: row.createdAt.toISOString(),
  });
  const { eventId, ...payment } = created;
  return { payment, eventId };
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

/**
 * The payment columns a Payment record shows (`toPaymentRecord`), plus `selectedCoin` (whether the
 * charge applies). The details statement reads only these and the RECORD_* columns of the joined
 * tables: the rest (offered coins, payment methods, fee transfers, URLs, the search text,
 * derivation paths, timestamps nobody shows…) would be sent and decoded for every payment of a
 * list page and thrown away.
 */
export const RECORD_PAYMENT_COLUMNS = [
  "id", "onBehalfOfBusinessId", "name", "description", "note", "currency", "amount", "endAmount", "platformFee",
  "netAmountUsd", "status", "selectedPaymentMethod", "selectedCoin", "metadata", "timeline", "createdAt", "expiresAt",
] as const satisfies readonly (keyof PaymentRow)[];

export type RecordPaymentRow = Pick<PaymentRow, (typeof RECORD_PAYMENT_COLUMNS)[number]>;

/** The charge columns its part of a Payment record is built from (`chargeRecord`, `detectionInput`). */
export const RECORD_CHARGE_COLUMNS = [
  "paymentId", "coin", "chargeType", "address", "walletName", "quotedUnits", "exchangeRate", "requiredConfirmations",
  "tolerancePercent",
] as const satisfies readonly (keyof ChargeRow)[];
/** The transfer columns a Payment record shows or judges the status by (plus `id`, which orders and dedupes them). */
export const RECORD_TRANSFER_COLUMNS = [
  "id", "txId", "amount", "confirmations", "blockNumber", "fromAddress", "toAddress", "dropped", "late",
] as const satisfies readonly (keyof TransferRow)[];

export type RecordChargeRow = Pick<ChargeRow, (typeof RECORD_CHARGE_COLUMNS)[number]>;
export type RecordTransferRow = Pick<TransferRow, (typeof RECORD_TRANSFER_COLUMNS)[number]>;

function pick<T extends object, K extends keyof T>(from: T, keys: readonly K[]): Pick<T, K> {
  return Object.fromEntries(keys.map((k) => [k, from[k]])) as Pick<T, K>;
}

/** The details statement's selection: each joined table's RECORD_* columns (bench/details-decode.ts measures it against whole rows). */
export const RECORD_SELECTION = {
  payment: pick(getTableColumns(payments), RECORD_PAYMENT_COLUMNS),
  customer: pick(getTableColumns(customers), RECORD_CUSTOMER_COLUMNS),
  ip: pick(getTableColumns(customerIps), RECORD_IP_COLUMNS),
  charge: pick(getTableColumns(charges), RECORD_CHARGE_COLUMNS),
  transfer: pick(getTableColumns(transfers), RECORD_TRANSFER_COLUMNS),
};

/** What a Payment record is built from: the row, its customer (with IP addresses), its charge (with transfers). */
export type PaymentDetails = {
  payment: RecordPaymentRow;
  customer: CustomerWithIps | undefined;
  /** Only for a payment with a selected coin. */
  charge: { charge: RecordChargeRow; transfers: RecordTransferRow[] } | undefined;
};

export const NEWEST_FIRST = [sql`${payments.createdAt} desc nulls last`, sql`${payments.id} desc nulls last`];

/**
 * Payments matching `where` with everything their records show, in ONE statement: left joins to
 * the customer, its IP addresses, the charge and its transfers (a payment's row repeats once per
 * IP × transfer and is folded back by `foldDetails`). Payments come in `order`; IPs and
 * transfers by id.
 */
export function detailsQuery(tx: Tx, where: SQL, order: SQL[] = [], selection = RECORD_SELECTION, ...ctes: WithSubquery[]) {
  return (ctes.length ? tx.with(...ctes) : tx)
    .select(selection)
    .from(payments)
    .leftJoin(customers, eq(customers.id, payments.customerId))
    .leftJoin(customerIps, eq(customerIps.customerId, customers.id))
    .leftJoin(charges, and(eq(charges.paymentId, payments.id), isNotNull(payments.selectedCoin)))
    .leftJoin(transfers, eq(transfers.paymentId, charges.paymentId))
    .where(where)
    .orderBy(...order, asc(customerIps.id), asc(transfers.id));
}

type DetailsRow = Awaited<ReturnType<typeof detailsQuery>>[number];

function foldDetails(rows: DetailsRow[]): PaymentDetails[] {
  const out = new Map<string, PaymentDetails & { ipIds: Set<number>; transferIds: Set<number> }>();
  for (const r of rows) {
    let d = out.get(r.payment.id);
    if (!d) {
      d = {
        payment: r.payment,
        customer: r.customer ? { ...r.customer, ips: [] } : undefined,
        charge: r.charge ? { charge: r.charge, transfers: [] } : undefined,
        ipIds: new Set(),
        transferIds: new Set(),
      };
      out.set(r.payment.id, d);
    }
    if (r.ip && d.customer && !d.ipIds.has(r.ip.id)) {
      d.ipIds.add(r.ip.id);
      d.customer.ips.push(r.ip);
    }
    if (r.transfer && d.charge && !d.transferIds.has(r.transfer.id)) {
      d.transferIds.add(r.transfer.id);
      d.charge.transfers.push(r.transfer);
    }
  }
  return [...out.values()].map(({ payment, customer, charge }) => ({ payment, customer, charge }));
}

/** One payment of the business with its details (fetch: one statement). */
export async function findPaymentDetails(tx: Tx, business: Business, id: string): Promise<PaymentDetails | undefined> {
  // paymentScope(), with the business id as a value of the prepared statement.
  const sub = business.parentBusinessId !== null;
  const statement = prepared(tx, sub ? "paymentDetails:sub" : "paymentDetails", () =>
    detailsQuery(
      tx,
      and(
        eq(payments.id, sql.placeholder("id")),
        eq(sub ? payments.onBehalfOfBusinessId : payments.businessId, sql.placeholder("businessId")),
      )!,
    ).prepare(sub ? "payment_details_sub" : "payment_details"),
  );
  const [d] = foldDetails(await statement.execute({ id, businessId: business.id }));
  return d;
}

/**
 * Payments' details by id, newest first, in one named statement (`id = any($ids)`): its text and
 * plan do not depend on how many ids or which, so PostgreSQL parses it once and may keep a
 * generic plan (primary-key lookups, then the joins). A list page's ids come from a statement of
 * their own (`listPayments`), so only that small one is planned per execution.
 */
async function detailsByIds(tx: Tx, ids: string[]): Promise<PaymentDetails[]> {
  if (ids.length === 0) return [];
  const statement = prepared(tx, "paymentDetailsByIds", () =>
    detailsQuery(tx, sql`${payments.id} = any(${sql.placeholder("ids")}::uuid[])`, NEWEST_FIRST).prepare("payment_details_by_ids"),
  );
  return foldDetails(await statement.execute({ ids }));
}

/**
 * The records of a list page's payments as JSON text written by PostgreSQL
 * (db/queries/payment-record-json.ts), newest first, in one named statement whose text and plan
 * do not depend on how many ids or which (as `detailsByIds`).
 */
export async function paymentRecordsJson(tx: Tx, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const statement = prepared(tx, "paymentRecordsJson", () =>
    recordsJsonStatement(tx, sql`${payments.id} = any(${sql.placeholder("ids")}::uuid[])`, NEWEST_FIRST).prepare("payment_records_json"),
  );
  return (await statement.execute({ ids })).map((r) => r.record);
}

/** Details of payments already loaded (a webhook body, a list's payments), by id. */
export async function loadPaymentDetails(tx: Tx, ids: string[]): Promise<Map<string, PaymentDetails>> {
  const details = await detailsByIds(tx, [...new Set(ids)]);
  return new Map(details.map((d) => [d.payment.id, d]));
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

/** The list's WHERE, values included. */
function filterConditions(business: Business, f: PaymentFilter): SQL {
  const conds: (SQL | undefined)[] = [paymentScope(business)];
  if (f.onBehalfOfBusinessId !== undefined) conds.push(eq(payments.onBehalfOfBusinessId, f.onBehalfOfBusinessId));
  if (f.fromTime) conds.push(gte(payments.createdAt, f.fromTime));
  if (f.toTime) conds.push(lte(payments.createdAt, f.toTime));
  if (f.statuses?.length) conds.push(inArray(payments.status, f.statuses));
  if (f.coins?.length) conds.push(inArray(payments.selectedCoin, f.coins));
  if (f.fromAmount !== undefined) conds.push(gte(payments.amount, f.fromAmount));
  if (f.toAmount !== undefined) conds.push(lte(payments.amount, f.toAmount));
  if (f.search) conds.push(searchMatches(searchPattern(f.search)));
  return and(...conds)!;
}

function searchPattern(search: string): string {
  return `%${escapeLike(search.toLowerCase())}%`;
}

/**
 * `searchString`: a case-insensitive substring of the payment's name, description or note
 * (`payments_search_trgm_idx`), or of its customer's email (`customers_email_trgm_idx`, then
 * `payments_customer_idx`). PostgreSQL ORs the two bitmaps; the email side reads one index
 * entry per customer, not one per payment. A search's pages find their matches by
 * `searchSides`; this WHERE serves what counts a search on its own (a page past its last match).
 */
function searchMatches(pattern: Value<string> | SQL): SQL {
  return sql`(${textMatches(pattern)} or ${customerMatches(pattern)})`;
}

const textMatches = (pattern: Value<string> | SQL) => sql`${payments.searchText} like ${pattern}`;
const emailMatches = (pattern: Value<string> | SQL) => sql`lower(${customers.email}) like ${pattern}`;
const customerMatches = (pattern: Value<string> | SQL) =>
  sql`${payments.customerId} = any(array(select ${customers.id} from ${customers} where ${emailMatches(pattern)}))`;

/** Up to this many matches `totalCount` is an exact count; above it, the planner's estimate. */
export const EXACT_COUNT_LIMIT = 10_000;
/** How long an estimate above EXACT_COUNT_LIMIT is reused for the same business and filter. */
const ESTIMATE_TTL_MS = 10_000;

/** A value, or a named statement's parameter. */
type Value<T> = T | ReturnType<typeof sql.placeholder>;
/** A page's size. */
type Limit = Value<number>;

/** The page's ids: newest first (`createdAt desc, id desc`, the list indexes' order). */
function pageIdsStatement(tx: Tx, where: SQL, limit: Limit, offset: number) {
  return tx.select({ id: payments.id }).from(payments).where(where).orderBy(...NEWEST_FIRST).limit(limit).offset(offset);
}

/**
 * A search's page ids with the number of matches in each row (`count(*) over ()`), for a search
 * narrowed by other filters too (a plain one: `namedSearchPage`), planned for its values. A
 * trigram search finds every match through the GIN index before it can sort them, so counting
 * them there costs next to nothing, where a separate count would search again. Unfiltered and
 * status lists are different: their page stops after 20 rows of an index walk, and counting
 * would read every match.
 *
 * The matches are the two lookups, each narrowed by the other filters, appended: the customer's
 * side is an index-only scan of `payments_customer_idx`, which includes the status and
 * `createdAt` it is most often narrowed by. The OR of the two in one bitmap read the row of every
 * payment the customer's lookup found, to check the other filters; with a pattern in many
 * addresses the bitmap went lossy, and every row of its pages was read: 6.1 s on PostgreSQL at a
 * million payments for a pattern in half the store's addresses and one status, 0.14 s this way.
 * The text side leaves out the payments whose customer matches, which the other side holds: the
 * two are disjoint, so no step has to find the payments in both, which a `UNION` did by sorting
 * or hashing every match (for a pattern in every payment's name, ~0.3 s more than the OR took,
 * where this form costs ~0.1 s more; docs/performance.md, change 43).
 */
function searchPageIdsStatement(tx: Tx, business: Business, f: PaymentFilter, limit: number, offset: number) {
  const others = filterConditions(business, { ...f, search: undefined });
  const matches = searchSides(sql`${payments.id}, ${payments.createdAt}`, searchPattern(f.search!), others);
  return matchesPage(tx, sql`(${matches}) m`, undefined, limit, offset);
}

/**
 * `columns` of the payments a search matches, each once: those whose text matches but whose
 * customer's email does not, then those whose customer's email matches (an index-only scan of
 * `payments_customer_idx`), each side narrowed by `others`. The two sides are disjoint, so no
 * step has to find the payments matched both ways; the text side's `not exists` looks up only
 * the customers of its own matches, or none when it has none.
 */
function searchSides(columns: SQL, pattern: Value<string> | SQL, others?: SQL): SQL {
  const where = (match: SQL) => (others ? sql`${others} and ${match}` : match);
  const customerDoesNotMatch = sql`not exists (select 1 from ${customers} where ${customers.id} = ${payments.customerId} and ${emailMatches(pattern)})`;
  return sql`select ${columns} from ${payments} where ${where(sql`${textMatches(pattern)} and ${customerDoesNotMatch}`)}
    union all select ${columns} from ${payments} where ${where(customerMatches(pattern))}`;
}

/** A page of `matches` (a subquery `m` of ids and their `created_at`), newest first, with their count. */
function matchesPage(tx: Tx, matches: SQL, where: SQL | undefined, limit: Limit | SQL, offset: number | SQL) {
  return (
    tx
      .select({ id: sql<string>`m.id`.as("id"), total: sql<number>`count(*) over ()`.mapWith(Number).as("total") })
      .from(matches)
      .where(where)
      .orderBy(sql`m.created_at desc nulls last`, sql`m.id desc nulls last`)
      // drizzle types a limit and an offset as a number or a placeholder, and writes any SQL given.
      .limit(limit as Limit)
      .offset(offset as number)
  );
}

/** The count of matches, stopping after EXACT_COUNT_LIMIT + 1 rows. */
function cappedCountStatement(tx: Tx, where: SQL) {
  return tx.select({ total: count().as("total") }).from(tx.select({ one: sql`1` }).from(payments).where(where).limit(EXACT_COUNT_LIMIT + 1).as("m"));
}

/**
 * The page's ids with the capped count in each row, for when the total is not known yet: one
 * statement instead of two (the count is an uncorrelated subquery, run once). Not a window count
 * over the first EXACT_COUNT_LIMIT + 1 rows: materialising those for the window cost ~3× the
 * separate count on PostgreSQL.
 */
function countedPageIdsStatement(tx: Tx, where: SQL, limit: Limit, offset: number) {
  return tx
    .select({ id: payments.id, total: sql<number>`(${cappedCountStatement(tx, where)})`.mapWith(Number).as("total") })
    .from(payments)
    .where(where)
    .orderBy(...NEWEST_FIRST)
    .limit(limit)
    .offset(offset);
}

/** Whether a list is of the account's own payments, narrowed by no coin and no amount. */
function ownScopeWithoutCoinOrAmount(business: Business, f: PaymentFilter): boolean {
  return (
    business.parentBusinessId === null &&
    f.onBehalfOfBusinessId === undefined &&
    !f.coins?.length &&
    f.fromAmount === undefined &&
    f.toAmount === undefined
  );
}

/**
 * The shape of a first page whose best plan is the same whatever the filter's values: the
 * account's own payments, newest first, narrowed at most by one status and a `createdAt` range.
 * The list indexes (`payments_business_created_idx`, `payments_business_status_created_idx`)
 * hold exactly that order for every business, status and range, so the page walks one of them
 * and stops after `size` entries whether a status is common or rare, a range long or empty.
 * Undefined for every other list: several statuses, coins, amounts, a search or a
 * sub-business's scope, whose best plan depends on the values.
 */
function firstPageShape(business: Business, f: PaymentFilter, page: { number: number; size: number }): string | undefined {
  const plain = page.number === 1 && ownScopeWithoutCoinOrAmount(business, f) && !f.search && (f.statuses?.length ?? 0) <= 1;
  return plain ? `${f.statuses?.length ? "status" : "all"}${f.fromTime ? ":from" : ""}${f.toTime ? ":to" : ""}` : undefined;
}

/**
 * A first page of such a shape (`firstPageShape`) as a named statement, values as parameters:
 * PostgreSQL parses it once per connection and settles on its generic plan, the walk of the
 * shape's index (a parameter for the page size makes the planner assume a tenth of the matches
 * are wanted, which still leaves that walk the cheapest: no other plan avoids the sort).
 * Planning the page anew for its inline values cost more than running it: in PGlite 0.24-0.42
 * ms of planning for 0.06-0.08 ms of execution, and 1.67 against 0.60 ms per status page in all
 * (docs/performance.md, change 37). Later pages are planned for their offset, inline.
 */
function namedFirstPage(tx: Tx, shape: string, f: PaymentFilter, counted: boolean) {
  const name = `listFirstPage:${shape}:${counted ? "counted" : "page"}`;
  return prepared(tx, name, () => {
    const ph = sql.placeholder;
    const where = and(
      sql`${payments.businessId} = ${ph("businessId")}`,
      f.statuses?.length ? sql`${payments.status} = ${ph("status")}` : undefined,
      f.fromTime ? sql`${payments.createdAt} >= ${ph("fromTime")}::timestamptz` : undefined,
      f.toTime ? sql`${payments.createdAt} <= ${ph("toTime")}::timestamptz` : undefined,
    )!;
    const query = counted ? countedPageIdsStatement(tx, where, ph("size"), 0) : pageIdsStatement(tx, where, ph("size"), 0);
    return query.prepare(name.replace(/\W/g, "_"));
  });
}

/**
 * Whether a list is a search and nothing else, on the account's own payments, with a run of three
 * ASCII letters or digits: one trigram at least whatever the database's locale, so the trigram
 * indexes have an entry to look up (with none, a GIN scan reads the whole index).
 */
function isPlainSearch(business: Business, f: PaymentFilter): boolean {
  return !!f.search && /[a-z0-9]{3}/i.test(f.search) && ownScopeWithoutCoinOrAmount(business, f) && !f.statuses?.length && !f.fromTime && !f.toTime;
}

/**
 * A page of a plain search (`isPlainSearch`) as a named statement, its pattern a parameter. It
 * runs on its generic plan: the two trigram lookups, whatever the pattern. Planning a search for
 * its inline pattern cost ~0.15-0.35 ms of a ~0.75-1.0 ms statement at a million payments on
 * PostgreSQL (docs/performance.md, change 38). PostgreSQL's list connection asks for generic
 * plans (change 35's setting); PGlite gets one because the statement hides its values from the
 * planner (`unseen`).
 *
 * The matches are found in a subquery that knows nothing of the account (`offset 0` keeps
 * PostgreSQL from merging it into the outer query), so no plan can walk the account's list index
 * instead: for a generic plan the account's share of the store is a guess, and with many
 * accounts that walk looks cheap, and reads every payment of a large one.
 */
function namedSearchPage(tx: Tx) {
  return prepared(tx, "listSearchPage", () => {
    const ph = sql.placeholder;
    return plainSearchPageStatement(tx, ph("pattern"), ph("businessId"), ph("size"), ph("offset")).prepare("list_search_page");
  });
}

/**
 * A value the planner cannot see: an InitPlan's output, known only when the statement runs. A
 * named statement's custom plan, made for its values, then costs what its generic plan costs,
 * and after its first five executions the plan cache keeps the generic one. PGlite has no
 * `plan_cache_mode` of its own for lists (its one session runs every statement), and a search's
 * custom plan, knowing the pattern and the page size, always looked cheaper: it planned each
 * search anew, ~0.3 ms of its thread at a million payments (docs/performance.md, change 42).
 */
function unseen(value: Value<number> | Value<string>, type: "text" | "bigint"): SQL {
  return sql`(select ${value}::${sql.raw(type)})`;
}

/**
 * `namedSearchPage`'s statement, with parameters or (for EXPLAIN) values. Its matches are the
 * two lookups appended (`searchSides`) rather than `searchMatches`' OR: on its own the
 * customer's side is an index-only scan of `payments_customer_idx` (which includes the columns a
 * page needs), where the OR's bitmap read every matching payment's row, one page each, to sort
 * the matches and count them, and the page then needs only its own rows. (Until change 43 a
 * `UNION` of the two hashed every match to drop those found both ways: a search for a pattern in
 * half the store's addresses took 0.38 s on PostgreSQL at a million payments, 0.17 s appended.)
 */
function plainSearchPageStatement(tx: Tx, pattern: Value<string>, businessId: Value<number>, limit: Limit, offset: Value<number>) {
  const like = unseen(pattern, "text");
  const columns = sql`${payments.id}, ${payments.businessId}, ${payments.createdAt}`;
  const matches = sql`(${searchSides(columns, like)} offset 0) m`;
  return matchesPage(tx, matches, sql`m.business_id = ${unseen(businessId, "bigint")}`, unseen(limit, "bigint"), unseen(offset, "bigint"));
}

/**
 * The list's statements as they run (values inline; the second statement's ids are `$1` in the
 * service): exported so the bench can EXPLAIN them. `matches` is
 * the statement whose planner estimate stands in for the count above EXACT_COUNT_LIMIT.
 */
export function listPaymentQueries(tx: Tx, business: Business, f: PaymentFilter, page: { number: number; size: number }) {
  const where = filterConditions(business, f);
  const offset = (page.number - 1) * page.size;
  return {
    // A plain search runs with parameters on its generic plan (namedSearchPage), which at a
    // million payments has the nodes of this plan for its values.
    page: isPlainSearch(business, f)
      ? plainSearchPageStatement(tx, searchPattern(f.search!), business.id, page.size, offset)
      : f.search
        ? searchPageIdsStatement(tx, business, f, page.size, offset)
        : pageIdsStatement(tx, where, page.size, offset),
    countedPage: countedPageIdsStatement(tx, where, page.size, offset),
    /**
     * The second statement, for the page's ids (the service runs it named, `$1` for the array):
     * their details (PGlite) or their records as JSON (PostgreSQL; lib/payments/read.ts).
     */
    details: (ids: string[], asJson: boolean) => {
      const byIds = sql`${payments.id} = any(array[${sql.join(ids.map((id) => sql`${id}`), sql`, `)}]::uuid[])`;
      return asJson ? recordsJsonStatement(tx, byIds, NEWEST_FIRST) : detailsQuery(tx, byIds, NEWEST_FIRST);
    },
    cappedCount: cappedCountStatement(tx, where),
    matches: tx.select({ one: sql`1` }).from(payments).where(where),
  };
}

/**
 * A statement run with its values written into its text, unnamed: planned for those values, and
 * sent without parameters. postgres.js sends a statement that has parameters and is not named
 * (and known) as Parse/Describe first and waits for the parameter types before it binds, holding
 * up every query queued behind it on that connection: two round trips, and with PGlite's one
 * connection, the whole server's queries waiting on each list. Values are literals escaped by
 * drizzle (quotes doubled; PostgreSQL and PGlite keep standard_conforming_strings on, so a
 * backslash is an ordinary character).
 */
async function withValuesInline<T>(tx: Tx, statement: { getSQL(): SQL }): Promise<T[]> {
  return executeRows<T>(tx, statement.getSQL().inlineParams());
}

/** The planner's row estimate of a statement (EXPLAIN without ANALYZE: nothing runs). */
async function estimatedRows(tx: Tx, statement: SQL): Promise<number> {
  // postgres.js decodes the json column: one row holding the plan.
  const [row] = await executeRows<Record<string, [{ Plan: { "Plan Rows": number } }]>>(tx, sql`explain (format json) ${statement}`.inlineParams());
  const [plan] = Object.values(row)[0];
  return Math.round(plan.Plan["Plan Rows"]);
}

/** Recent estimates of filters with more than EXACT_COUNT_LIMIT matches (bounded). */
const estimates = new Map<string, { rows: number; until: number }>();

/**
 * How long after its `toTime` a range is settled. A payment's `createdAt` is the time its create
 * request began (lib/payments/create.ts), so a payment committed later can still carry a time
 * inside a range that has just ended; an hour is far beyond any request (or lock wait) here.
 */
export const SETTLED_AFTER_MS = 3_600_000;

/**
 * Whether the set of payments a filter matches can no longer change: a range of `createdAt` that
 * ended more than SETTLED_AFTER_MS ago, narrowed only by columns written once when the payment is
 * created (account, `onBehalfOfBusinessId`, `amount`) — payments are never deleted. Status, coin
 * and the searched text change over a payment's life, so a filter on any of them is never settled.
 */
function isSettled(f: PaymentFilter, now: number): boolean {
  return f.toTime !== undefined && f.toTime.getTime() < now - SETTLED_AFTER_MS && !f.statuses?.length && !f.coins?.length && !f.search;
}

/**
 * Whether a filter's matches can only grow: it narrows by columns written once when the payment
 * is created (account, `onBehalfOfBusinessId`, `amount`, a `createdAt` range) and, if by status,
 * only by terminal ones, which a payment enters once and never leaves. Payments are never
 * deleted. Coin and searched text can change while a payment is open, and an open status is
 * left, so a filter on any of them can lose matches.
 */
function onlyGains(f: PaymentFilter): boolean {
  return !f.coins?.length && !f.search && (f.statuses ?? []).every(isTerminal);
}

/**
 * Filters that only gain matches (`onlyGains`) and were once counted above EXACT_COUNT_LIMIT:
 * they stay above it, so they are never counted again and only their estimate is refreshed.
 * Counting 10 001 index entries took 1.5-2.5 ms of PostgreSQL and 7-25 ms of PGlite's one
 * session at a million payments, every ESTIMATE_TTL_MS, holding up every query queued behind
 * it (docs/performance.md, change 36). Bounded as `settledCounts`.
 */
const aboveLimit = new Map<string, true>();
const ABOVE_LIMIT_MAX = 10_000;

/**
 * Exact counts (at most EXACT_COUNT_LIMIT) of settled filters, kept: a closed period's report is
 * asked for again and again, and counting its ~3 000 index entries was most of such a list's
 * cost in the database (PGlite's WebAssembly above all; docs/performance.md, change 32). Bounded:
 * the oldest entry goes first.
 */
const settledCounts = new Map<string, number>();
const SETTLED_COUNTS_MAX = 10_000;

/** Sets `key` in a map kept to `max` entries, the oldest going first. */
function setBounded<V>(map: Map<string, V>, max: number, key: string, value: V): void {
  if (map.size >= max) map.delete(map.keys().next().value!);
  map.set(key, value);
}

/**
 * One page of a business's payments (their ids, newest first), and `total`: exact when the page is the
 * last one (fewer rows than the page size) or when at most EXACT_COUNT_LIMIT payments match;
 * above that the planner's estimate, reused for ESTIMATE_TTL_MS (counting a million rows exactly
 * costs far more than the page; see docs/performance.md). Never less than the rows up to and
 * including this page. The exact count of a settled filter (`isSettled`) is counted once and kept;
 * a filter that only gains matches (`onlyGains`) is no longer counted once it is above the limit.
 */
export async function listPayments(
  tx: Tx,
  business: Business,
  f: PaymentFilter,
  page: { number: number; size: number },
): Promise<{ ids: string[]; total: number }> {
  const before = (page.number - 1) * page.size;
  // Rows up to this page exist only if the page has any: one past the end proves nothing.
  const atLeast = (rows: number) => Math.max(EXACT_COUNT_LIMIT + 1, rows > 0 ? before + rows : 0);
  const filterKey = JSON.stringify([business.id, business.parentBusinessId !== null, f]);
  const now = Date.now();
  const recent = estimates.get(filterKey);
  const fresh = recent && recent.until > now ? recent.rows : undefined;
  const settled = isSettled(f, now);
  const known = settled ? settledCounts.get(filterKey) : undefined;
  const counted = known !== undefined || aboveLimit.has(filterKey);
  // The filter's WHERE with its values, built only when a statement of them runs.
  let whereSql: SQL | undefined;
  const where = () => (whereSql ??= filterConditions(business, f));

  // The page's ids. A plain search (`isPlainSearch`) and the first page of a plain filter
  // (`firstPageShape`) by named statements, whose generic plan is their best for every value;
  // any other page planned for the filter's values on every execution (a kept
  // generic plan would be wrong for a status set, a coin or a far offset). The caller loads
  // their records by a named statement whose plan is kept (planning the joins on every
  // execution cost more than running them).
  const withCount = !f.search && fresh === undefined && !counted;
  const shape = firstPageShape(business, f, page);
  let rows: { id: string; total?: string | number }[];
  if (isPlainSearch(business, f)) {
    rows = await namedSearchPage(tx).execute({ pattern: searchPattern(f.search!), businessId: business.id, size: page.size, offset: before });
  } else if (shape) {
    rows = await namedFirstPage(tx, shape, f, withCount).execute({
      size: page.size,
      businessId: business.id,
      status: f.statuses?.[0],
      fromTime: f.fromTime?.toISOString(),
      toTime: f.toTime?.toISOString(),
    });
  } else {
    rows = await withValuesInline(
      tx,
      f.search
        ? searchPageIdsStatement(tx, business, f, page.size, before)
        : withCount
          ? countedPageIdsStatement(tx, where(), page.size, before)
          : pageIdsStatement(tx, where(), page.size, before),
    );
  }
  const pageIds = rows.map((r) => ({
    id: r.id,
    ...(r.total !== undefined ? { total: Number(r.total) } : {}),
  }));
  const ids = pageIds.map((r) => r.id);

  // A search counts every match exactly; a short page is the last one, and ends the count.
  if (f.search && pageIds.length > 0) return { ids, total: pageIds[0].total! };
  if (known !== undefined) return { ids, total: known };
  // An exact total, kept when the filter is settled.
  const exactly = (total: number) => {
    if (settled) setBounded(settledCounts, SETTLED_COUNTS_MAX, filterKey, total);
    return { ids, total };
  };
  if (ids.length < page.size && (ids.length > 0 || page.number === 1)) return exactly(before + ids.length);
  if (fresh !== undefined) return { ids, total: Math.max(fresh, atLeast(ids.length)) };

  if (!counted) {
    // A page past the last match carries no count: then it is counted on its own.
    let total = pageIds[0]?.total;
    if (total === undefined) {
      const [row] = await withValuesInline<{ total: string | number }>(tx, cappedCountStatement(tx, where()));
      total = Number(row.total);
    }
    if (total <= EXACT_COUNT_LIMIT) return exactly(total);
    if (onlyGains(f)) setBounded(aboveLimit, ABOVE_LIMIT_MAX, filterKey, true);
  }
  const estimate = await estimatedRows(tx, tx.select({ one: sql`1` }).from(payments).where(where()).getSQL());
  setBounded(estimates, 1000, filterKey, { rows: estimate, until: Date.now() + ESTIMATE_TTL_MS });
  return { ids, total: Math.max(estimate, atLeast(ids.length)) };
}

/** Committed status and expiry of payments by id (the Inngest driver and functions). */
export type PaymentState = { id: string; status: PaymentStatus; expiresAt: Date };

export async function paymentStates(db: Tx, ids: string[]): Promise<Map<string, PaymentState>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: payments.id, status: payments.status, expiresAt: payments.expiresAt })
    .from(payments)
    .where(inArray(payments.id, ids));
  return new Map(rows.map((r) => [r.id, r]));
}
