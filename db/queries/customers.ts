import type { Tx } from "../client";
import { customerIps, type CustomerIpRow, type CustomerRow } from "../schema";

export async function addCustomerIp(
  tx: Tx,
  row: { customerId: number; ip: string; userAgent: string | null; createdAt: Date },
): Promise<void> {
  await tx.insert(customerIps).values(row).onConflictDoNothing();
}

export type CustomerWithIps = CustomerRow & { ips: CustomerIpRow[] };

