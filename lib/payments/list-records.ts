import { databaseKind, type Tx } from "@/db/client";
import { sqlRecords } from "@/db/queries/payment-records-sql";
import { loadPaymentDetails } from "@/db/queries/payments-read";
import { paymentRecord } from "./record";

/**
 * How a list page's records become JSON text: the records of payments by id, newest first (the
 * page's order), each the text of the Payment record `paymentRecord` defines. One interface,
 * two writers, held to each other field by field for every shape a record takes by
 * test/payments-list-records.test.ts.
 */
export type ListRecordsWriter = (tx: Tx, ids: string[]) => Promise<string[]>;

/** The records built here from the details statement, exactly as a fetch builds its record. */
export const builtRecords: ListRecordsWriter = async (tx, ids) => {
  const details = await loadPaymentDetails(tx, ids);
  return ids.map((id) => JSON.stringify(paymentRecord(details.get(id)!)));
};

export const LIST_RECORDS_WRITERS = { built: builtRecords, sql: sqlRecords } satisfies Record<string, ListRecordsWriter>;

/**
 * PostgreSQL writes the records itself (db/queries/payment-records-sql.ts says why); on PGlite,
 * whose backend runs inside the server's process, they are built.
 */
export function listRecordsWriter(): ListRecordsWriter {
  return databaseKind() === "postgres" ? sqlRecords : builtRecords;
}
