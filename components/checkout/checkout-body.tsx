import type { CheckoutView } from "@/lib/checkout/view";
import { CoinPicker } from "./coin-picker";
import { ConfirmationProgress } from "./confirmation-progress";
import { PaymentInstructions } from "./payment-instructions";
import { PaymentSummary } from "./payment-summary";
import { RedirectNotice } from "./redirect-notice";

type Charge = NonNullable<CheckoutView["charge"]>;

/** Money that arrived after the payment closed: recorded on the payment, never applied to it. */
function LateNotice({ charge, status }: { charge: Charge | null; status: CheckoutView["status"] }) {
  if (!charge?.late) return null;
  const when = status === "EXPIRED" ? "after expiry" : "after this payment closed";
  return (
    <p role="note" className="rounded-xl bg-amber-50 px-4 py-3 text-sm text-amber-900 ring-1 ring-amber-200">
      <strong className="font-semibold">
        {charge.late} {charge.symbol} received {when}.
      </strong>{" "}
      It is recorded with this payment but does not change it; contact the merchant about a refund.
    </p>
  );
}

function Instructions({ charge, remaining }: { charge: Charge; remaining: boolean }) {
  return (
    <PaymentInstructions
      coinName={charge.name}
      symbol={charge.symbol}
      amount={remaining ? charge.due : charge.amount}
      address={charge.address}
      uri={charge.uri}
      tokenContract={charge.tokenContract}
      networkName={charge.networkName}
      standard={charge.standard}
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
          <LateNotice charge={c} status={view.status} />
          <PaymentSummary view={view} />
          {view.redirectUrl ? <RedirectNotice redirectUrl={view.redirectUrl} /> : null}
        </div>
      );
    case "EXPIRED":
    case "CANCELLED":
    case "FAILED":
      return (
        <div className="space-y-4">
          <LateNotice charge={c} status={view.status} />
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
