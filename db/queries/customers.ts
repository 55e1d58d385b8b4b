import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Tx } from "../client";
import { customerIps, customers, type CustomerIpRow, type CustomerRow } from "../schema";

/** D9: the business's customer with this email (case-insensitive), created when new; without email, a new customer. */
export async function findOrCreateCustomer(tx: Tx, businessId: number, email: string | null): Promise<CustomerRow> {
  if (email === null) {
    const [row] = await tx.insert(customers).values({ businessId, email: null }).returning();
    return row;
  }
  // Returning customers are the common case: one read; a new one is inserted; a concurrent
  // insert of the same email loses the unique index race and reads the winner's row.
  const find = async () =>
    (
      await tx
        .select()
        .from(customers)
        .where(and(eq(customers.businessId, businessId), sql`lower(${customers.email}) = lower(${email})`))
        .limit(1)
    )[0];
  const existing = await find();
  if (existing) return existing;
  const [inserted] = await tx.insert(customers).values({ businessId, email }).onConflictDoNothing().returning();
  return inserted ?? (await find())!;
}

export async function addCustomerIp(
  tx: Tx,
  row: { customerId: number; ip: string; userAgent: string | null; createdAt: Date },
): Promise<void> {
  await tx.insert(customerIps).values(row).onConflictDoNothing();
}

export type CustomerWithIps = CustomerRow & { ips: CustomerIpRow[] };

