import { useTranslations } from "next-intl";
import type { CheckoutView } from "@/lib/checkout/view";
import { CoinPicker } from "./coin-picker";
import { ConfirmationProgress } from "./confirmation-progress";
import { PaymentInstructions } from "./payment-instructions";
import { PaymentSummary } from "./payment-summary";
import { RedirectNotice } from "./redirect-notice";

type Charge = NonNullable<CheckoutView["charge"]>;

/** Money that arrived after the payment closed: recorded on the payment, never applied to it. */
function LateNotice({ charge, status }: { charge: Charge | null; status: CheckoutView["status"] }) {
  const t = useTranslations("checkout.late");
  if (!charge?.late) return null;
  const what = { amount: charge.late, symbol: charge.symbol };
  return (
    <p role="note" className="rounded-xl bg-amber-50 px-4 py-3 text-sm text-amber-900 ring-1 ring-amber-200">
      <strong className="font-semibold">{status === "EXPIRED" ? t("afterExpiry", what) : t("afterClose", what)}</strong> {t("detail")}
    </p>
  );
}

function Instructions({ charge, remaining }: { charge: Charge; remaining: boolean }) {
  const t = useTranslations("checkout.instructions");
  return (
    <>
      <PaymentInstructions
        coinName={charge.name}
        symbol={charge.symbol}
        amount={remaining ? charge.due : charge.amount}
        address={charge.address}
        uri={charge.uri}
        tokenContract={charge.tokenContract}
        networkName={charge.networkName}
        standard={charge.standard}
        comment={charge.comment}
        heading={remaining ? t("sendRemaining", { symbol: charge.symbol }) : t("sendExactly", { coin: charge.name })}
      />
      {/* Solana Pay: the link and QR code carry the payment's reference; an address typed by hand does not. */}
      {charge.transferRequest ? (
        <p role="note" className="text-center text-xs text-slate-600" data-testid="transfer-request-note">
          {t("transferRequestNote")}
        </p>
      ) : null}
    </>
  );
}

/** What the customer does or sees next, by status. */
export function CheckoutBody({ view }: { view: CheckoutView }) {
  const t = useTranslations("checkout");
  const c = view.charge;
  switch (view.status) {
    case "AWAITING_PAYMENT":
      if (!c) {
        return (
          <section aria-labelledby="choose-heading">
            <h2 id="choose-heading" className="mb-3 text-sm font-semibold text-slate-700">
              {t("choose.heading")}
            </h2>
            <CoinPicker paymentId={view.id} coins={view.coins} />
          </section>
        );
      }
      return (
        <div className="space-y-6">
          <Instructions charge={c} remaining={false} />
          <p className="text-center text-xs text-slate-500">
            {t("instructions.rateLocked")}
          </p>
          <PaymentSummary view={view} />
          {view.canCancel && view.coins.length > 1 ? (
            <details className="group rounded-xl ring-1 ring-slate-200">
              <summary className="cursor-pointer list-none rounded-xl px-3 py-2.5 text-sm font-medium text-slate-700 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600">
                {/* "›" is mirrored in right-to-left text, so there it turns the other way to point down. */}
                <span aria-hidden="true" className="me-1 inline-block transition group-open:rotate-90 rtl:group-open:-rotate-90">
                  ›
                </span>
                {t("choose.different")}
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
                {t("redirect.back")}
              </a>
            </p>
          ) : null}
        </div>
      );
  }
}
