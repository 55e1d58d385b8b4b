import Link from "next/link";
import type { PaymentRecord } from "@/lib/payments/schemas";
import { formatCoin, formatMoney, formatUtc } from "./format";
import { ScrollRegion } from "./scroll-region";
import { StatusBadge } from "./status-badge";

const th = "whitespace-nowrap px-3 py-2 text-left text-xs font-semibold uppercase tracking-wide text-slate-600";
const td = "px-3 py-2 align-top text-sm text-slate-800";

/** A page of payments, newest first; each row's name (or id) opens the payment. */
export function PaymentsTable({ items, basePath }: { items: PaymentRecord[]; basePath: string }) {
  return (
    <ScrollRegion label="Payments table">
      <table className="min-w-full divide-y divide-slate-200">
        <caption className="sr-only">Payments, newest first</caption>
        <thead className="bg-slate-50">
          <tr>
            <th scope="col" className={th}>Created (UTC)</th>
            <th scope="col" className={th}>Payment</th>
            <th scope="col" className={th}>Status</th>
            <th scope="col" className={`${th} text-right`}>Amount</th>
            <th scope="col" className={th}>Coin</th>
            <th scope="col" className={th}>Customer</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {items.map((p) => {
            const charge = p.platformCryptoCharge ?? p.contractCharge;
            return (
              <tr key={p.id} data-payment-id={p.id}>
                <td className={`${td} whitespace-nowrap`}>
                  <time dateTime={p.createdAt}>{formatUtc(p.createdAt)}</time>
                </td>
                <td className={td}>
                  <Link href={`${basePath}/${p.id}`} className="font-medium text-indigo-800 underline underline-offset-2 focus-visible:outline-2 focus-visible:outline-indigo-700">
                    {p.name || "Unnamed payment"}
                  </Link>
                  <div className="font-mono text-xs text-slate-600">{p.id}</div>
                </td>
                <td className={td}>
                  <StatusBadge status={p.status} />
                </td>
                <td className={`${td} whitespace-nowrap text-right tabular-nums`}>{formatMoney(p.prePaymentAmount, p.currency)}</td>
                <td className={`${td} whitespace-nowrap`}>
                  {charge ? (
                    <>
                      {charge.coinName}
                      <div className="text-xs tabular-nums text-slate-600">{formatCoin(charge.amount)}</div>
                    </>
                  ) : (
                    <span className="text-slate-500">Not chosen</span>
                  )}
                </td>
                <td className={`${td} break-all`}>{p.customer?.email ?? <span className="text-slate-500">—</span>}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </ScrollRegion>
  );
}
