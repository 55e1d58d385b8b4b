import type { Tx } from "../client";
import { customerIps, type CustomerIpRow, type CustomerRow } from "../schema";

export async function addCustomerIp(
  tx: Tx,
  row: Pick<CustomerIpRow, "customerId" | "ip" | "userAgent" | "city" | "country" | "isp" | "createdAt">,
): Promise<void> {
  await tx.insert(customerIps).values(row).onConflictDoNothing();
}

/** The customer columns a Payment record shows. */
export const RECORD_CUSTOMER_COLUMNS = ["id", "email"] as const satisfies readonly (keyof CustomerRow)[];
/** The IP address columns a Payment record shows (plus `id`, which orders and dedupes them). */
export const RECORD_IP_COLUMNS = [
  "id", "ip", "city", "country", "riskScore", "connectionType", "isp", "createdAt",
] as const satisfies readonly (keyof CustomerIpRow)[];

/** A customer as a Payment record shows it: what the details statement loads. */
export type CustomerWithIps = Pick<CustomerRow, (typeof RECORD_CUSTOMER_COLUMNS)[number]> & {
  ips: Pick<CustomerIpRow, (typeof RECORD_IP_COLUMNS)[number]>[];
};

