import { cache } from "react";
import { z } from "zod";
import { getDb } from "@/db/client";
import { checkoutView, type CheckoutView } from "@/lib/checkout/view";

/** Payment ids are UUIDs; anything else is a 404 before the database is asked. */
export const paymentIdSchema = z.uuid();

/**
 * The checkout view of one payment, or null when the id is malformed or unknown. Memoized per
 * request, so `generateMetadata` and the page share one database read.
 */
export const loadCheckoutView = cache(async (paymentId: string): Promise<CheckoutView | null> => {
  const id = paymentIdSchema.safeParse(paymentId);
  if (!id.success) return null;
  return checkoutView(await getDb(), id.data);
});
