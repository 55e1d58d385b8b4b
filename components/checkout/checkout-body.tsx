import { toBaseUnits } from "@/lib/chains/amounts";
import { paymentUri } from "@/lib/chains/payment-uri";
import type { CheckoutView } from "@/lib/checkout/view";
import { CoinPicker } from "./coin-picker";
import { ConfirmationProgress } from "./confirmation-progress";
import { PaymentInstructions } from "./payment-instructions";
import { PaymentSummary } from "./payment-summary";
import { RedirectNotice } from "./redirect-notice";

type Charge = NonNullable<CheckoutView["charge"]>;

/** The wallet URI for what is still due after a partial payment (the view's `uri` is for the full quote). */
function dueUri(charge: Charge): string {
  return paymentUri(charge.coin, charge.address, toBaseUnits(charge.coin, charge.due));
}

function Instructions({ charge, remaining }: { charge: Charge; remaining: boolean }) {
  return (
    <PaymentInstructions
      coinName={charge.name}
      symbol={charge.symbol}
      amount={remaining ? charge.due : charge.amount}
      address={charge.address}
      uri={remaining ? dueUri(charge) : charge.uri}
      heading={remaining ? `Send the remaining ${charge.symbol} to complete your payment` : `Send exactly this amount of ${charge.name}`}
    />
  );
}

/** What the customer does or sees next, by status. */
export function CheckoutBody({ view }: { view: CheckoutView }) {
  const c = view.charge;
  switch (view.status) {
    case "AWAITING_PAYMENT":
      if (!c) {
        return (
          <section aria-labelledby="choose-heading">
            <h2 id="choose-heading" className="mb-3 text-sm font-semibold text-slate-700">
              Select a cryptocurrency
            </h2>
            <CoinPicker paymentId={view.id} coins={view.coins} />
          </section>
        );
      }
      return (
        <div className="space-y-6">
          <Instructions charge={c} remaining={false} />
          <p className="text-center text-xs text-slate-500">
            Rate locked for this payment. Send the exact amount in one transfer; network fees are paid on top.
          </p>
          <PaymentSummary view={view} />
          {view.canCancel && view.coins.length > 1 ? (
            <details className="group rounded-xl ring-1 ring-slate-200">
              <summary className="cursor-pointer list-none rounded-xl px-3 py-2.5 text-sm font-medium text-slate-700 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600">
                <span aria-hidden="true" className="mr-1 inline-block transition group-open:rotate-90">
                  ›
                </span>
                Pay with a different coin
              </summary>
              <div className="p-3 pt-1">
                <CoinPicker paymentId={view.id} coins={view.coins} current={c.coin} />
              </div>
            </details>
          ) : null}
        </div>
      );
    case "PENDING":
      if (!c) return null;
      return (
        <div className="space-y-6">
          <ConfirmationProgress confirmations={c.confirmations} required={c.requiredConfirmations} />
          {c.isUnderpaid && c.due !== "0" ? <Instructions charge={c} remaining /> : null}
          <PaymentSummary view={view} />
        </div>
      );
    case "PROCESSING":
      return c ? (
        <div className="space-y-6">
          <ConfirmationProgress confirmations={c.requiredConfirmations} required={c.requiredConfirmations} />
          <PaymentSummary view={view} />
        </div>
      ) : null;
    case "UNDERPAID":
      if (!c) return null;
      return (
        <div className="space-y-6">
          <Instructions charge={c} remaining />
          <PaymentSummary view={view} />
        </div>
      );
    case "COMPLETED":
      return (
        <div className="space-y-4">
          <PaymentSummary view={view} />
          {view.redirectUrl ? <RedirectNotice redirectUrl={view.redirectUrl} /> : null}
        </div>
      );
    case "EXPIRED":
    case "CANCELLED":
    case "FAILED":
      return (
        <div className="space-y-4">
          <PaymentSummary view={view} />
          {view.redirectUrl ? (
            <p className="text-center">
              <a
                href={view.redirectUrl}
                className="text-sm font-semibold text-indigo-700 underline underline-offset-4 hover:text-indigo-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
              >
                Return to the merchant
              </a>
            </p>
          ) : null}
        </div>
      );
  }
}
