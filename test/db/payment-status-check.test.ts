import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { payments } from "@/db/schema";
import { PAYMENT_STATUSES, type PaymentStatus } from "@/domain/statuses";
import { createPayment, newBusiness } from "../helpers";

/** The PostgreSQL error under drizzle's wrapper (DrizzleQueryError keeps it as `cause`). */
async function databaseError(work: Promise<unknown>): Promise<{ code?: string; constraint_name?: string }> {
  const e = await work.then(
    () => undefined,
    (err: unknown) => err as { cause?: unknown },
  );
  expect(e, "the database accepted the statement").toBeDefined();
  return ((e as { cause?: unknown }).cause ?? e) as { code?: string; constraint_name?: string };
}

describe("payments.status holds only the statuses of the vocabulary (payments_status_check)", () => {
  it("refuses an update to a status outside PAYMENT_STATUSES, and leaves the row as it was", async () => {
    const db = await getDb();
    const { id } = await createPayment(await newBusiness());
    const err = await databaseError(
      db.update(payments).set({ status: "PAID" as PaymentStatus }).where(eq(payments.id, id)),
    );
    expect(err.code).toBe("23514"); // check_violation
    expect(err.constraint_name).toBe("payments_status_check");
    const [row] = await db.select({ status: payments.status }).from(payments).where(eq(payments.id, id));
    expect(row.status).toBe("AWAITING_PAYMENT");
  });

  it("refuses a new payment with an unknown status, and the status' case matters", async () => {
    const db = await getDb();
    const { id } = await createPayment(await newBusiness());
    for (const status of ["UNKNOWN", "completed", ""]) {
      const copy = randomUUID();
      const err = await databaseError(
        db.execute(sql`
          insert into ${payments} (id, business_id, customer_id, currency, amount, end_amount, status, offered_coins,
            timeline, created_at, expires_at, updated_at)
          select ${copy}::uuid, business_id, customer_id, currency, amount, end_amount, ${status}, offered_coins,
            timeline, created_at, expires_at, updated_at
          from ${payments} where id = ${id}::uuid`),
      );
      expect(err.code, status).toBe("23514");
      expect(err.constraint_name, status).toBe("payments_status_check");
      expect(await db.select().from(payments).where(eq(payments.id, copy))).toEqual([]);
    }
  });

  it("accepts every status of PAYMENT_STATUSES", async () => {
    const db = await getDb();
    const { id } = await createPayment(await newBusiness());
    for (const status of PAYMENT_STATUSES) {
      await db.update(payments).set({ status }).where(eq(payments.id, id));
      const [row] = await db.select({ status: payments.status }).from(payments).where(eq(payments.id, id));
      expect(row.status).toBe(status);
    }
  });
});
