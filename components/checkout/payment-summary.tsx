import type { ReactNode } from "react";
import type { CheckoutView } from "@/lib/checkout/view";
import { formatFiat, formatUtcTime, rateLine } from "./format";

type Charge = NonNullable<CheckoutView["charge"]>;

/** When the rate was locked, and when its market inputs were read if that was another second. */
function QuotedAt({ charge }: { charge: Charge }) {
  const quoted = formatUtcTime(charge.quotedAt);
  const read = charge.rateAt ? formatUtcTime(charge.rateAt) : null;
  return (
    <span className="mt-0.5 block text-xs font-normal break-normal text-slate-500">
      <span className="block whitespace-nowrap" data-testid="quoted-at">
        Quoted at <time dateTime={charge.quotedAt}>{quoted}</time>
      </span>
      {read && read !== quoted ? (
        <span className="block whitespace-nowrap">
          Market rate of <time dateTime={charge.rateAt!}>{read}</time>
        </span>
      ) : null}
    </span>
  );
}

/** The details panel: total, coin, locked rate, and what was paid and is due once something arrived. */
export function PaymentSummary({ view }: { view: CheckoutView }) {
  const c = view.charge;
  if (!c) return null;
  const rows: [string, ReactNode, string?][] = [
    ["Total", formatFiat(view.amount, view.currency)],
    ["Pay with", `${c.name} (${c.symbol})${c.standard ? ` on ${c.networkName}` : ""}`],
    ["Amount", `${c.amount} ${c.symbol}`],
    [
      "Exchange rate",
      <>
        <span data-testid="exchange-rate">{rateLine(c.symbol, c.exchangeRate, view.currency)}</span>
        <QuotedAt charge={c} />
      </>,
    ],
  ];
  if (c.paid !== "0") {
    rows.push(["Received", `${c.paid} ${c.symbol}`]);
    if (c.due !== "0" && view.status !== "COMPLETED") rows.push(["Still due", `${c.due} ${c.symbol}`, "amount-due"]);
  }
  return (
    <dl className="divide-y divide-slate-100 rounded-xl text-sm ring-1 ring-slate-200">
      {rows.map(([label, value, testId]) => (
        <div key={label} className="flex justify-between gap-4 px-3 py-2">
          <dt className="text-slate-500">{label}</dt>
          <dd className="text-right font-medium break-all text-slate-900 tabular-nums" data-testid={testId}>
            {value}
          </dd>
        </div>
      ))}
    </dl>
  );
}
