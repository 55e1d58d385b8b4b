import type { CheckoutView } from "@/lib/checkout/view";

export type Tone = "neutral" | "info" | "warning" | "success" | "danger";

export type StatusMessage = { tone: Tone; title: string; detail: string };

/** What the customer is told about each status: a short title and one sentence. */
export function statusMessage(view: CheckoutView): StatusMessage {
  const c = view.charge;
  const coin = c ? `${c.symbol}` : "";
  switch (view.status) {
    case "AWAITING_PAYMENT":
      return c
        ? { tone: "info", title: "Awaiting payment", detail: `Send ${c.amount} ${coin} to the address below.` }
        : { tone: "neutral", title: "Choose how to pay", detail: "Pick a cryptocurrency to see the amount and the address." };
    case "PENDING": {
      const n = Math.min(c?.confirmations ?? 0, c?.requiredConfirmations ?? 0);
      const m = c?.requiredConfirmations ?? 0;
      const still = c && c.isUnderpaid && c.due !== "0" ? ` ${c.due} ${coin} is still due.` : "";
      return {
        tone: "info",
        title: "Payment detected",
        detail: `Waiting for confirmations: ${n} of ${m} confirmation${m === 1 ? "" : "s"}.${still}`,
      };
    }
    case "PROCESSING":
      return { tone: "info", title: "Payment confirmed", detail: "Your payment is confirmed; we are finalising it." };
    case "UNDERPAID":
      return {
        tone: "warning",
        title: "Partial payment received",
        detail: c ? `You sent ${c.paid} ${coin}. ${c.due} ${coin} is still due.` : "Part of the amount is still due.",
      };
    case "COMPLETED":
      return { tone: "success", title: "Payment complete", detail: "Thank you! Your payment has been received and confirmed." };
    case "EXPIRED":
      return c && c.paid !== "0"
        ? {
            tone: "warning",
            title: "Payment expired",
            detail: `The time to pay ran out before the full amount arrived. We received ${c.paid} ${coin}; please contact the merchant to settle it.`,
          }
        : { tone: "neutral", title: "Payment expired", detail: "The time to pay ran out. Please don't send any funds to this payment." };
    case "CANCELLED":
      return { tone: "neutral", title: "Payment cancelled", detail: "This payment was cancelled. Please don't send any funds to it." };
    case "FAILED":
      return {
        tone: "danger",
        title: "Payment failed",
        detail: "The transfer was dropped by the network (replaced or reversed). If you believe you paid, contact the merchant.",
      };
  }
}
