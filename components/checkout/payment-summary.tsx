import type { CheckoutView } from "@/lib/checkout/view";
import { formatFiat, rateLine } from "./format";

/** The details panel: total, coin, locked rate, and what was paid and is due once something arrived. */
export function PaymentSummary({ view }: { view: CheckoutView }) {
  const c = view.charge;
  if (!c) return null;
  const rows: [string, string, string?][] = [
    ["Total", formatFiat(view.amount, view.currency)],
    ["Pay with", `${c.name} (${c.symbol})`],
    ["Amount", `${c.amount} ${c.symbol}`],
    ["Exchange rate", rateLine(c.symbol, c.exchangeRate, view.currency), "exchange-rate"],
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
