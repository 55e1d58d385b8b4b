import { getDb } from "@/db/client";
import { checkoutView } from "@/lib/checkout/view";
import { paymentIdSchema } from "../load";

const NO_STORE = { "cache-control": "no-store" };

/**
 * What the checkout page polls: the payment's CheckoutView (never description, note, metadata
 * or keys), uncached. An unknown or malformed id is a 404 ProblemDetails.
 */
export async function GET(_req: Request, ctx: { params: Promise<{ paymentId: string }> }) {
  const { paymentId } = await ctx.params;
  const id = paymentIdSchema.safeParse(paymentId);
  const view = id.success ? await checkoutView(await getDb(), id.data) : null;
  if (!view) {
    return Response.json(
      { type: "/docs#problem-not-found", title: "Not found", status: 404, detail: "No such payment." },
      { status: 404, headers: { ...NO_STORE, "content-type": "application/problem+json; charset=utf-8" } },
    );
  }
  return Response.json(view, { headers: NO_STORE });
}
