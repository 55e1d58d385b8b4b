import type { useTranslations } from "next-intl";
import type { CheckoutView } from "@/lib/checkout/view";

export type Tone = "neutral" | "info" | "warning" | "success" | "danger";

export type StatusMessage = { tone: Tone; title: string; detail: string };

type StatusText = ReturnType<typeof useTranslations<"checkout.status">>;

/** What the customer is told about each status: a short title and one sentence, in their language. */
export function statusMessage(view: CheckoutView, t: StatusText): StatusMessage {
  const c = view.charge;
  const symbol = c?.symbol ?? "";
  switch (view.status) {
    case "AWAITING_PAYMENT":
      return c
        ? { tone: "info", title: t("awaitingTitle"), detail: t("awaitingDetail", { amount: c.amount, symbol }) }
        : { tone: "neutral", title: t("chooseTitle"), detail: t("chooseDetail") };
    case "PENDING": {
      if (c?.held) return { tone: "warning", title: t("heldTitle"), detail: t("heldDetail") };
      const required = c?.requiredConfirmations ?? 0;
      const count = Math.min(c?.confirmations ?? 0, required);
      const still = c && c.isUnderpaid && c.due !== "0" ? ` ${t("stillDue", { due: c.due, symbol })}` : "";
      return { tone: "info", title: t("pendingTitle"), detail: `${t("pendingDetail", { count, required })}${still}` };
    }
    case "PROCESSING":
      return { tone: "info", title: t("processingTitle"), detail: t("processingDetail") };
    case "UNDERPAID":
      return {
        tone: "warning",
        title: t("underpaidTitle"),
        detail: c ? t("underpaidDetail", { paid: c.paid, due: c.due, symbol }) : t("underpaidDetailPlain"),
      };
    case "COMPLETED":
      return { tone: "success", title: t("completedTitle"), detail: t("completedDetail") };
    case "EXPIRED":
      return c && c.paid !== "0"
        ? { tone: "warning", title: t("expiredTitle"), detail: t("expiredPaidDetail", { paid: c.paid, symbol }) }
        : { tone: "neutral", title: t("expiredTitle"), detail: t("expiredDetail") };
    case "CANCELLED":
      return { tone: "neutral", title: t("cancelledTitle"), detail: t("cancelledDetail") };
    case "FAILED":
      return { tone: "danger", title: t("failedTitle"), detail: t("failedDetail") };
  }
}
