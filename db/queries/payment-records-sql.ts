import { and, eq, isNotNull, sql, type SQL } from "drizzle-orm";
import { COINS } from "@/domain/coins";
import type { Tx } from "../client";
import { prepared } from "../prepared";
import { charges, customerIps, customers, payments, transfers } from "../schema";
import { NEWEST_FIRST, paymentsByIds } from "./payments-read";

/*
 * The Payment record as JSON text, written by PostgreSQL: list pages on PostgreSQL only, behind
 * the one interface of list records (lib/payments/list-records.ts). `paymentRecord`
 * (lib/payments/record.ts) is the definition of the record; test/payments-list-records.test.ts
 * holds this statement's records to it field by field, key order included, for every shape a
 * record takes.
 *
 * Why PostgreSQL writes them: a list page spent ~38 % of the server's one thread turning joined
 * rows into JSON (postgres.js decoding ~45 columns per joined row, row mapping, folding, records,
 * JSON.stringify; docs/performance.md). PostgreSQL writes the same text on cores of its own and
 * the server only joins 20 strings. At a million payments and 8 connections, building the
 * records from the details statement instead cost the server 17-36 % more CPU per list and put
 * the unfiltered, status and time lists' p99 13-48 % higher, the search's the same (medians of
 * eight alternating runs of each). On PGlite, one WebAssembly backend inside the server's
 * process, the statement is no faster, so there the records are built.
 *
 * Text is concatenated rather than built with json_build_object so that keys keep the record's
 * order, optional keys are left out (not null), and numbers keep their JSON number form.
 */

/** A text or uuid column (or null) as a JSON string. */
const str = (e: SQL | unknown) => sql`coalesce(to_json(${e})::text, 'null')`;
/** A numeric as a JSON number, without trailing zeros (`Number()` of the column in the record). */
const num = (e: SQL | unknown) => sql`coalesce(trim_scale(${e})::text, 'null')`;
/** A timestamp as `Date.prototype.toISOString()` writes it (columns hold milliseconds). */
const iso = (e: SQL | unknown) => sql`('"' || to_char(${e} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || '"')`;

type Field = { key: string; value: SQL; when?: SQL };

/**
 * A JSON object's text from fields in order; a field with `when` is present only when it holds.
 * One `concat` (one result written once) rather than a chain of `||`, each of which copies the
 * text so far; concat reads a NULL as empty, which leaves out a field whose `when` fails.
 */
function object(fields: Field[]): SQL {
  const parts = fields.flatMap(({ key, value, when }, i) => {
    const name = sql.raw(`'${i === 0 ? "{" : ","}"${key}":'`);
    return when ? [sql`case when ${when} then ${name} || ${value} end`] : [name, value];
  });
  return sql`concat(${sql.join([...parts, sql.raw(`'}'`)], sql`, `)})`;
}

/**
 * Each coin's base unit (10^-decimals, exact numeric) and network, from COINS: coin amounts are
 * stored in base units and shown as whole coins (`unitsToDecimal`); multiplying by the unit is
 * exact where dividing could round. CASE expressions, not a VALUES table joined per payment: a
 * join to it was hashed again for every payment of the page.
 */
const unit = sql`(case ${charges.coin} ${sql.raw(Object.entries(COINS).map(([name, c]) => `when '${name}' then 1e-${c.decimals}`).join(" "))} end)`;
const network = sql`(case ${charges.coin} ${sql.raw(
  Object.entries(COINS)
    .filter(([, c]) => c.network)
    .map(([name, c]) => `when '${name}' then '${c.network}'`)
    .join(" "),
)} end)`;

const ipAddress = object([
  { key: "city", value: str(customerIps.city) },
  { key: "ip", value: str(customerIps.ip) },
  { key: "country", value: str(customerIps.country) },
  { key: "riskScore", value: sql`coalesce(to_json(${customerIps.riskScore})::text, 'null')` },
  { key: "connectionType", value: str(customerIps.connectionType) },
  { key: "isp", value: str(customerIps.isp) },
  { key: "dateCreated", value: iso(customerIps.createdAt) },
]);

/** The customer's IP addresses, oldest first (the details statement's order). */
const ipList = sql`lateral (
  select string_agg(${ipAddress}, ',' order by ${customerIps.id}) as list
  from ${customerIps} where ${customerIps.customerId} = ${customers.id}) as ips`;

/** A column of a transaction's first transfer (its transfers share them: they are the transaction's). */
const first = (column: unknown) => sql`(array_agg(${column} order by ${transfers.id}))[1]`;

/**
 * One on-chain transaction, from its standing transfers grouped by hash (`paymentRecord`'s
 * `toTransaction`): `id` the hash, `amount` the sum of what it paid to the address, the rest
 * the first transfer's.
 */
const transaction = object([
  { key: "amount", value: num(sql`sum(${transfers.amount}) * ${unit}`) },
  { key: "toAddress", value: str(first(transfers.toAddress)) },
  { key: "id", value: str(transfers.txHash) },
  { key: "confirmations", value: sql`${first(transfers.confirmations)}::text` },
  { key: "blockNumber", value: str(first(transfers.blockNumber)) },
  { key: "network", value: str(network), when: sql`${network} is not null` },
  { key: "fromAddress", value: str(first(transfers.fromAddress)) },
  { key: "tokenName", value: str(charges.coin) },
]);

/**
 * The charge's standing (not dropped) transfers as transactions, one per hash in the order each
 * was first recorded, in one ordered aggregate (the record shows the first of them and all of
 * them), and `seen`, the sum `decideStatus` compares with the threshold (late transfers never
 * count).
 */
const transferSummary = sql`lateral (
  select array_agg(tx.json order by tx.first) as standing, coalesce(sum(tx.seen), 0) as seen
  from (select min(${transfers.id}) as first, sum(${transfers.amount}) filter (where not ${transfers.late}) as seen, ${transaction} as json
    from ${transfers} where ${transfers.paymentId} = ${charges.paymentId} and not ${transfers.dropped}
    group by ${transfers.txHash}) as tx) as tr`;

/**
 * `isUnderpaid` as `decideStatus` decides it: something seen, but less than the threshold
 * quoted − floor(quoted × tolerance / 100). `div` is exact integer division (the values are never
 * negative, so it is the floor). decideStatus raises a threshold of 0 to one base unit; that
 * cannot change this answer, as anything seen is at least one unit.
 */
const isUnderpaid = sql`(tr.seen > 0 and tr.seen < ${charges.quotedUnits} - div(${charges.quotedUnits} * ${charges.tolerancePercent}, 100))::text`;

const chargeFields = (platform: boolean) =>
  object([
    { key: "amount", value: num(sql`${charges.quotedUnits} * ${unit}`) },
    { key: "coinName", value: str(charges.coin) },
    { key: "exchangeRate", value: num(charges.exchangeRate) },
    { key: "isUnderpaid", value: isUnderpaid },
    { key: "address", value: str(charges.address) },
    { key: "transaction", value: sql`tr.standing[1]`, when: sql`tr.standing is not null` },
    { key: "walletName", value: str(charges.walletName) },
    ...(platform ? [{ key: "transactions", value: sql`('[' || coalesce(array_to_string(tr.standing, ','), '') || ']')` }] : []),
  ]);

const customer = object([
  { key: "id", value: sql`${customers.id}::text` },
  { key: "email", value: str(customers.email) },
  { key: "ipAddresses", value: sql`('[' || coalesce(ips.list, '') || ']')` },
]);

const chargeType = sql`${charges.chargeType} = 'PLATFORM_CRYPTO'`;

const PAYMENT_RECORD_JSON = object([
  { key: "id", value: str(payments.id) },
  { key: "name", value: str(payments.name) },
  { key: "description", value: str(payments.description) },
  { key: "endAmount", value: num(payments.endAmount) },
  { key: "prePaymentAmount", value: num(payments.amount) },
  { key: "currency", value: str(payments.currency) },
  { key: "status", value: str(payments.status) },
  { key: "createdAt", value: iso(payments.createdAt) },
  { key: "expiresAt", value: iso(payments.expiresAt) },
  { key: "timeline", value: sql`${payments.timeline}::text` },
  { key: "metadata", value: sql`coalesce(${payments.metadata}::text, 'null')` },
  { key: "platformFee", value: num(payments.platformFee) },
  { key: "note", value: str(payments.note) },
  { key: "customer", value: customer, when: sql`${customers.id} is not null` },
  { key: "selectedPaymentMethod", value: str(payments.selectedPaymentMethod), when: sql`${payments.selectedPaymentMethod} is not null` },
  { key: "platformCryptoCharge", value: chargeFields(true), when: sql`${charges.paymentId} is not null and ${chargeType}` },
  { key: "contractCharge", value: chargeFields(false), when: sql`${charges.paymentId} is not null and not (${chargeType})` },
  { key: "onBehalfOfBusinessId", value: sql`${payments.onBehalfOfBusinessId}::text`, when: sql`${payments.onBehalfOfBusinessId} is not null` },
  { key: "netAmountUsd", value: num(payments.netAmountUsd), when: sql`${payments.netAmountUsd} is not null` },
]);

/** Records of the payments `where` selects, as JSON text (one `record` column), in `order`. */
export function recordsSqlStatement(tx: Tx, where: SQL, order: SQL[]) {
  return tx
    .select({ record: sql<string>`${PAYMENT_RECORD_JSON}` })
    .from(payments)
    .leftJoin(customers, eq(customers.id, payments.customerId))
    .leftJoin(charges, and(eq(charges.paymentId, payments.id), isNotNull(payments.selectedCoin)))
    .leftJoin(ipList, sql`true`)
    .leftJoin(transferSummary, sql`true`)
    .where(where)
    .orderBy(...order);
}

/**
 * The records of payments by id as JSON text written by PostgreSQL, newest first, in one named
 * statement whose text and plan do not depend on how many ids or which (as the details
 * statement's, `loadPaymentDetails`).
 */
export async function sqlRecords(tx: Tx, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const statement = prepared(tx, "paymentRecordsJson", () =>
    recordsSqlStatement(tx, paymentsByIds(sql.placeholder("ids")), NEWEST_FIRST).prepare("payment_records_json"),
  );
  return (await statement.execute({ ids })).map((r) => r.record);
}
