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

export async function loadCustomers(tx: Tx, ids: number[]): Promise<Map<number, CustomerWithIps>> {
  const out = new Map<number, CustomerWithIps>();
  if (ids.length === 0) return out;
  const unique = [...new Set(ids)];
  const [rows, ips] = await Promise.all([
    tx.select().from(customers).where(inArray(customers.id, unique)),
    tx.select().from(customerIps).where(inArray(customerIps.customerId, unique)).orderBy(asc(customerIps.id)),
  ]);
  for (const c of rows) out.set(c.id, { ...c, ips: [] });
  for (const ip of ips) out.get(ip.customerId)?.ips.push(ip);
  return out;
}
