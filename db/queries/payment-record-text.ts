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
  const p = Object.fromEntries(Object.keys(TEXT_SELECTION.payment).map((k) => [k, at(`payment.${k}`)])) as Record<
    keyof typeof TEXT_SELECTION.payment,
    number
  >;
  const customerId = at("customer.id");
  const email = at("customer.email");
  const ip = Object.fromEntries(Object.keys(TEXT_SELECTION.ip).map((k) => [k, at(`ip.${k}`)])) as Record<keyof typeof TEXT_SELECTION.ip, number>;
  const chargeColumns = Object.keys(TEXT_SELECTION.charge).map((k) => [k, at(`charge.${k}`)] as const);
  const transferColumns = Object.keys(TEXT_SELECTION.transfer).map((k) => [k, at(`transfer.${k}`)] as const);
  const chargeKey = at("charge.paymentId");
  const transferKey = at("transfer.id");
  const objectOf = <T>(row: Cells, columns: readonly (readonly [string, number])[]) => {
    const o: Record<string, unknown> = {};
    for (const [k, i] of columns) o[k] = row[i];
    return o as T;
  };

  const ipText = (r: Cells) =>
    `{"city":${str(r[ip.city])},"ip":${str(r[ip.ip])},"country":${str(r[ip.country])},"riskScore":${str(r[ip.riskScore])},"connectionType":${str(r[ip.connectionType])},"isp":${str(r[ip.isp])},"dateCreated":"${isoOfTimestamp(r[ip.createdAt] as string)}"}`;

  /** The record of the payment whose rows are rows[from, to). */
  function record(rows: Cells[], from: number, to: number): string {
    const r = rows[from];
    const status = r[p.status] as PaymentStatus;
    let text = `{"id":"${r[p.id]}","name":${str(r[p.name])},"description":${str(r[p.description])},"endAmount":${num(r[p.endAmount])},"prePaymentAmount":${num(r[p.amount])},"currency":${str(r[p.currency])},"status":${str(status)},"createdAt":"${isoOfTimestamp(r[p.createdAt] as string)}","expiresAt":"${isoOfTimestamp(r[p.expiresAt] as string)}","timeline":${r[p.timeline]},"metadata":${r[p.metadata] ?? "null"},"platformFee":${num(r[p.platformFee])},"note":${str(r[p.note])}`;
    if (r[customerId] !== null) {
      const ips: string[] = [];
      const seen: unknown[] = [];
      for (let i = from; i < to; i++) {
        const id = rows[i][ip.id];
        if (id !== null && !seen.includes(id)) {
          seen.push(id);
          ips.push(ipText(rows[i]));
        }
      }
      text += `,"customer":{"id":${r[customerId]},"email":${str(r[email])},"ipAddresses":[${ips.join(",")}]}`;
    }
    if (r[p.selectedPaymentMethod]) text += `,"selectedPaymentMethod":${str(r[p.selectedPaymentMethod])}`;
    if (r[chargeKey] !== null) {
      const transfers: RecordTransferRow[] = [];
      const seen: unknown[] = [];
      for (let i = from; i < to; i++) {
        const id = rows[i][transferKey];
        if (id !== null && !seen.includes(id)) {
          seen.push(id);
          transfers.push(objectOf<RecordTransferRow>(rows[i], transferColumns));
        }
      }
      const charge = chargeRecord(status, objectOf<RecordChargeRow>(r, chargeColumns), transfers);
      text += charge.platformCryptoCharge
        ? `,"platformCryptoCharge":${JSON.stringify(charge.platformCryptoCharge)}`
        : `,"contractCharge":${JSON.stringify(charge.contractCharge)}`;
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
