import { and, eq, sql } from "drizzle-orm";
import type { Tx } from "../client";
import { customerIps, customers, type CustomerIpRow, type CustomerRow } from "../schema";

export async function addCustomerIp(
  tx: Tx,
  row: Pick<CustomerIpRow, "customerId" | "ip" | "userAgent" | "city" | "country" | "isp" | "createdAt">,
): Promise<void> {
  await tx.insert(customerIps).values(row).onConflictDoNothing();
}

/** The business's customer with this email, compared case-insensitively (D9), if there is one. */
export async function findCustomerIdByEmail(tx: Tx, businessId: number, email: string): Promise<number | undefined> {
  const [existing] = await tx
    .select({ id: customers.id })
    .from(customers)
    .where(and(eq(customers.businessId, businessId), sql`lower(${customers.email}) = lower(${email})`))
    .limit(1);
  return existing?.id;
}

/** Stores an email on a customer; false when there is no such customer. */
export async function updateCustomerEmail(tx: Tx, customerId: number, email: string): Promise<boolean> {
  const [updated] = await tx.update(customers).set({ email }).where(eq(customers.id, customerId)).returning();
  return updated !== undefined;
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

