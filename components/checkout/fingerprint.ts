import type { CheckoutView } from "@/lib/checkout/view";

/**
 * What makes the rendered checkout change. The page renders it; the poller compares it with
 * the polled state and refreshes the page when they differ.
 */
export function viewFingerprint(view: CheckoutView): string {
  const c = view.charge;
  return JSON.stringify([
    view.status,
    view.needsEmail,
    view.canCancel,
    view.expiresAt,
    view.coins.filter((coin) => !coin.available).map((coin) => coin.coin),
    c && [c.coin, c.address, c.amount, c.paid, c.due, c.isUnderpaid, c.confirmations, c.requiredConfirmations, c.transfers],
  ]);
}
