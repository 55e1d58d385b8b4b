import { useTranslations } from "next-intl";
import type { CheckoutView } from "@/lib/checkout/view";
import { isTerminal } from "@/domain/transitions";
import { statusMessage, type Tone } from "./status-message";
import { StatusIcon } from "./status-icon";

const BAR: Record<Tone, string> = {
  neutral: "bg-slate-50 text-slate-800 border-slate-200",
  info: "bg-sky-50 text-sky-900 border-sky-200",
  warning: "bg-amber-50 text-amber-900 border-amber-200",
  success: "bg-emerald-50 text-emerald-900 border-emerald-200",
  danger: "bg-red-50 text-red-900 border-red-200",
};

/**
 * The payment's status, as a live region: when the page refreshes with a new status, screen
 * readers announce it. Open payments get a compact bar, final ones a full outcome screen.
 */
export function StatusBanner({ view }: { view: CheckoutView }) {
  const msg = statusMessage(view, useTranslations("checkout.status"));
  const final = isTerminal(view.status);
  return (
    <div role="status" aria-live="polite" aria-atomic="true" data-testid="payment-status" data-status={view.status}>
      {final ? (
        <div className="flex flex-col items-center px-6 pt-8 pb-2 text-center">
          <StatusIcon tone={msg.tone} status={view.status} />
          <h2 className="mt-4 text-xl font-semibold text-slate-900">{msg.title}</h2>
          <p className="mt-2 max-w-sm text-sm text-slate-600">{msg.detail}</p>
        </div>
      ) : (
        <div className={`flex items-start gap-3 border-y px-6 py-3 ${BAR[msg.tone]}`}>
          <StatusIcon tone={msg.tone} status={view.status} small />
          <div className="min-w-0">
            <h2 className="text-sm font-semibold">{msg.title}</h2>
            <p className="text-sm opacity-90">{msg.detail}</p>
          </div>
        </div>
      )}
    </div>
  );
}
