import { useLocale, useTranslations } from "next-intl";
import type { CheckoutView } from "@/lib/checkout/view";
import { Countdown } from "./countdown";
import { formatFiat } from "./format";

/**
 * The merchant as customers should recognise them: their logo, or the first letter of their
 * name on their accent colour. The name is written beside it, so the logo is decorative (alt="").
 */
function MerchantMark({ merchant }: { merchant: CheckoutView["merchant"] }) {
  if (merchant.logoUrl) {
    // A plain <img>: Next's image optimiser would decode and re-encode the upload (docs/decisions.md), and the logo is already small.
    // eslint-disable-next-line @next/next/no-img-element
    return <img src={merchant.logoUrl} alt="" height={40} className="h-10 w-auto max-w-32 shrink-0 object-contain" data-testid="merchant-logo" />;
  }
  return (
    <span aria-hidden="true" className="flex size-10 shrink-0 items-center justify-center rounded-xl bg-brand text-lg font-bold text-white">
      {[...merchant.displayName.trim()][0]?.toUpperCase() ?? "?"}
    </span>
  );
}

/** Who is paid what: the merchant, what is paid for and the amount, with the time left while it is open. */
export function CheckoutHeader({ view, showCountdown, serverNow }: { view: CheckoutView; showCountdown: boolean; serverNow: number }) {
  const t = useTranslations("checkout.page");
  const locale = useLocale();
  return (
    <header className="px-6 pt-6 pb-5">
      <div className="flex items-center justify-between gap-3">
        <div className="flex min-w-0 items-center gap-3">
          <MerchantMark merchant={view.merchant} />
          <p className="min-w-0 text-base font-semibold break-words text-slate-900" data-testid="merchant-name">
            {view.merchant.displayName}
          </p>
        </div>
        {view.testMode ? (
          <span className="shrink-0 rounded-full bg-amber-100 px-2.5 py-0.5 text-xs font-bold tracking-wide text-amber-900 uppercase ring-1 ring-amber-300 ring-inset">
            {t("testMode")}
          </span>
        ) : null}
      </div>
      <h1 className="mt-4 text-lg font-semibold break-words text-slate-900">{view.name ?? t("defaultName")}</h1>
      <p className="mt-1 flex flex-wrap items-baseline gap-x-2" data-testid="fiat-amount">
        <span className="text-4xl font-bold tracking-tight text-slate-900 tabular-nums">{formatFiat(view.amount, view.currency, locale)}</span>
        <span className="text-sm font-medium text-slate-500">{view.currency}</span>
      </p>
      {showCountdown ? (
        <div className="mt-4">
          <Countdown expiresAt={view.expiresAt} serverNow={serverNow} />
        </div>
      ) : null}
    </header>
  );
}
