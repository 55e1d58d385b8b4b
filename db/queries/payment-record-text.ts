import { sql } from "drizzle-orm";
import type { Tx } from "../client";
import { prepared } from "../prepared";
import { payments } from "../schema";
import type { RecordChargeRow, RecordTransferRow } from "./payments";
import { NEWEST_FIRST, RECORD_SELECTION, detailsQuery } from "./payments";
import { chargeRecord } from "@/lib/payments/charge-record";
import type { PaymentStatus } from "@/lib/payments/status";
import { toJsonNumber } from "@/lib/money/decimal";

/*
 * The Payment record as JSON text, written here from the details statement's cells as the
 * driver hands them over: the third definition of the record, for list pages on PGlite only
 * (lib/payments/read.ts). `toPaymentRecord` (lib/payments/record.ts) stays the definition of
 * every other response and webhook, and PostgreSQL's lists are written by PostgreSQL
 * (payment-record-json.ts); test/payments-list-records.test.ts holds all three to the same
 * record, key order included, on both databases.
 *
 * Why a third: on PGlite the records are built on the server's request thread, the bound of the
 * status and time lists at 32 connections (docs/performance.md, sixteenth round). The general
 * path there parses `timeline` and `metadata` (JSON.parse) only to write them again, makes two
 * Dates per payment and one per IP address from text only to write text again, maps every cell
 * into nested objects, builds the record object and serialises it. Here the jsonb columns come
 * as the database's text and go into the record as they are, timestamps are rewritten as text,
 * and the record is one concatenated string. The charge part, the only one with logic
 * (`isUnderpaid`, the coin amounts), is still built by `chargeRecord`.
 */

/** The details statement's selection with the jsonb columns as their text (no JSON.parse). */
const TEXT_SELECTION = {
  ...RECORD_SELECTION,
  payment: {
    ...RECORD_SELECTION.payment,
    timeline: sql<string>`${payments.timeline}::text`,
    metadata: sql<string | null>`${payments.metadata}::text`,
  },
};

const str = (v: unknown) => JSON.stringify(v ?? null);

/** A numeric's text as the record's JSON number (`toJsonNumber`, then `JSON.stringify`). */
const num = (text: unknown) => JSON.stringify(toJsonNumber(text as string | null));

/**
 * A timestamptz's text as `new Date(text).toISOString()` writes it. The session's usual form
 * (`2026-11-24 12:34:56.789+00`: DateStyle ISO, TimeZone UTC, at most milliseconds as the
 * columns hold) is rewritten without a Date; any other form (another time zone) goes through
 * one, exactly as drizzle decodes the column for `toPaymentRecord`.
 */
export function isoOfTimestamp(text: string): string {
  const n = text.length;
  if (n >= 22 && n <= 26 && text.charCodeAt(10) === 32 && text.endsWith("+00") && (n === 22 || text.charCodeAt(19) === 46)) {
    const fraction = n === 22 ? "000" : (text.slice(20, n - 3) + "00").slice(0, 3);
    return `${text.slice(0, 10)}T${text.slice(11, 19)}.${fraction}Z`;
  }
  return new Date(text).toISOString();
}

type Cells = unknown[];

/** A column's index in the statement's rows, by its path in the selection ("payment.id"). */
function indexer(fields: { path: string[] }[]) {
  const byPath = new Map(fields.map((f, i) => [f.path.join("."), i]));
  return (path: string) => {
    const i = byPath.get(path);
    if (i === undefined) throw new Error(`The details statement has no column ${path}`);
    return i;
  };
}

/**
 * Writes records from the statement's rows (one per payment × IP address × transfer, a payment's
 * rows together, its IPs and transfers in id order as `foldDetails` reads them). Charge and
 * transfer cells are what drizzle would decode them to already (text, numeric as text, integers,
 * booleans), so `chargeRecord` takes them as they are.
 */
function recordWriter(fields: { path: string[] }[]) {
  const at = indexer(fields);
  /** Each selected column of one joined table: its index in the rows, by its key in the selection. */
  const columnsOf = <T extends keyof typeof TEXT_SELECTION>(table: T) =>
    Object.fromEntries(Object.keys(TEXT_SELECTION[table]).map((k) => [k, at(`${table}.${k}`)])) as Record<keyof (typeof TEXT_SELECTION)[T], number>;
  const p = columnsOf("payment");
  const customer = columnsOf("customer");
  const ip = columnsOf("ip");
  const charge = columnsOf("charge");
  const transfer = columnsOf("transfer");
  /** A joined table's row as drizzle would map it (its cells need no decoding: see above). */
  const objectOf = <T>(row: Cells, columns: Record<string, number>) => {
    const o: Record<string, unknown> = {};
    for (const k in columns) o[k] = row[columns[k]];
    return o as T;
  };
  /** One item per distinct `key` cell in rows[from, to), in order of appearance (none for a null key: no joined row). */
  function distinct<T>(rows: Cells[], from: number, to: number, key: number, item: (row: Cells) => T): T[] {
    const items: T[] = [];
    const seen: unknown[] = [];
    for (let i = from; i < to; i++) {
      const id = rows[i][key];
      if (id !== null && !seen.includes(id)) {
        seen.push(id);
        items.push(item(rows[i]));
      }
    }
    return items;
  }

  const ipText = (r: Cells) =>
    `{"city":${str(r[ip.city])},"ip":${str(r[ip.ip])},"country":${str(r[ip.country])},"riskScore":${str(r[ip.riskScore])},"connectionType":${str(r[ip.connectionType])},"isp":${str(r[ip.isp])},"dateCreated":"${isoOfTimestamp(r[ip.createdAt] as string)}"}`;

  /** The record of the payment whose rows are rows[from, to). */
  function record(rows: Cells[], from: number, to: number): string {
    const r = rows[from];
    const status = r[p.status] as PaymentStatus;
    let text = `{"id":"${r[p.id]}","name":${str(r[p.name])},"description":${str(r[p.description])},"endAmount":${num(r[p.endAmount])},"prePaymentAmount":${num(r[p.amount])},"currency":${str(r[p.currency])},"status":${str(status)},"createdAt":"${isoOfTimestamp(r[p.createdAt] as string)}","expiresAt":"${isoOfTimestamp(r[p.expiresAt] as string)}","timeline":${r[p.timeline]},"metadata":${r[p.metadata] ?? "null"},"platformFee":${num(r[p.platformFee])},"note":${str(r[p.note])}`;
    if (r[customer.id] !== null) {
      const ips = distinct(rows, from, to, ip.id, ipText);
      text += `,"customer":{"id":${r[customer.id]},"email":${str(r[customer.email])},"ipAddresses":[${ips.join(",")}]}`;
    }
    if (r[p.selectedPaymentMethod]) text += `,"selectedPaymentMethod":${str(r[p.selectedPaymentMethod])}`;
    if (r[charge.paymentId] !== null) {
      const transfers = distinct(rows, from, to, transfer.id, (row) => objectOf<RecordTransferRow>(row, transfer));
      const part = chargeRecord(status, objectOf<RecordChargeRow>(r, charge), transfers);
      text += part.platformCryptoCharge
        ? `,"platformCryptoCharge":${JSON.stringify(part.platformCryptoCharge)}`
        : `,"contractCharge":${JSON.stringify(part.contractCharge)}`;
    }
    if (r[p.onBehalfOfBusinessId] !== null) text += `,"onBehalfOfBusinessId":${r[p.onBehalfOfBusinessId]}`;
    if (r[p.netAmountUsd] !== null) text += `,"netAmountUsd":${num(r[p.netAmountUsd])}`;
    return `${text}}`;
  }

  return (rows: Cells[]): string[] => {
    const out: string[] = [];
    for (let from = 0; from < rows.length; ) {
      const id = rows[from][p.id];
      let to = from + 1;
      while (to < rows.length && rows[to][p.id] === id) to++;
      out.push(record(rows, from, to));
      from = to;
    }
    return out;
  };
}

/**
 * The records of a list page's payments as JSON text written here, newest first, in one named
 * statement whose text and plan do not depend on how many ids or which (as the details').
 */
export async function paymentRecordsText(tx: Tx, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const statement = prepared(tx, "paymentRecordsText", () => {
    const byIds = sql`${payments.id} = any(${sql.placeholder("ids")}::uuid[])`;
    // The selection's type is the details' only to reuse its joins: its rows never reach drizzle's mapping.
    const s = detailsQuery(tx, byIds, NEWEST_FIRST, TEXT_SELECTION as unknown as typeof RECORD_SELECTION).prepare("payment_records_text");
    // drizzle hands the driver's rows to customResultMapper as they are, instead of mapping them.
    const internal = s as unknown as { fields: { path: string[] }[]; customResultMapper?: (rows: Cells[]) => unknown };
    internal.customResultMapper = recordWriter(internal.fields);
    return s;
  });
  return (await statement.execute({ ids })) as unknown as string[];
}
