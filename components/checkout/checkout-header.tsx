import type { CheckoutView } from "@/lib/checkout/view";
import { Countdown } from "./countdown";
import { formatFiat } from "./format";

/** Who is paid what: the display name and the amount, with the time left while it is open. */
export function CheckoutHeader({ view, showCountdown, serverNow }: { view: CheckoutView; showCountdown: boolean; serverNow: number }) {
  return (
    <header className="px-6 pt-6 pb-5">
      <div className="flex items-center justify-between gap-3">
        <p className="text-xs font-semibold tracking-widest text-slate-500 uppercase">Checkout</p>
        {view.testMode ? (
          <span className="rounded-full bg-amber-100 px-2.5 py-0.5 text-xs font-bold tracking-wide text-amber-900 uppercase ring-1 ring-amber-300 ring-inset">
            Test mode
          </span>
        ) : null}
      </div>
      <h1 className="mt-3 text-lg font-semibold break-words text-slate-900">{view.name ?? "Payment"}</h1>
      <p className="mt-1 flex flex-wrap items-baseline gap-x-2" data-testid="fiat-amount">
        <span className="text-4xl font-bold tracking-tight text-slate-900 tabular-nums">{formatFiat(view.amount, view.currency)}</span>
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
