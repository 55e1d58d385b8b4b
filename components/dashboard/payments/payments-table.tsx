import Link from "next/link";
import type { PaymentRecord } from "@/lib/payments/schemas";
import { formatCoinAmount, formatMoney, formatUtc } from "../format";
import { coinName } from "../names";
import { ScrollRegion } from "./scroll-region";
import { StatusBadge } from "./status-badge";

const th = "whitespace-nowrap px-3 py-2 text-left text-xs font-semibold uppercase tracking-wide text-slate-600";
const td = "px-3 py-2 align-top text-sm text-slate-800";
const link = "font-medium text-indigo-800 underline underline-offset-2 focus-visible:outline-2 focus-visible:outline-indigo-700";

type Charge = NonNullable<PaymentRecord["platformCryptoCharge"]>;
const chargeOf = (p: PaymentRecord): Charge | undefined => p.platformCryptoCharge ?? p.contractCharge;

/** The coin the customer chose, by its catalogue name (the API's name in the tooltip), and the amount asked. */
function CoinCell({ charge }: { charge: Charge | undefined }) {
  if (!charge) return <span className="text-slate-600">Not chosen</span>;
  const coin = charge.coinName ? coinName(charge.coinName) : null;
  return (
    <>
      {coin ? <span title={coin.api}>{coin.label}</span> : "—"}
      <div className="text-xs tabular-nums text-slate-600">{formatCoinAmount(charge.amount, charge.coinName)}</div>
    </>
  );
}

/**
 * A page of payments, newest first; each one's name (or id) opens the payment. From a tablet's
 * width up a table; on a phone a list of cards, one payment each, that never scrolls sideways.
 * Both are rendered and CSS shows one: the hidden one is `display: none`, out of the
 * accessibility tree, so a screen reader meets each payment once.
 */
export function PaymentsTable({ items, basePath, label = "Payments" }: { items: PaymentRecord[]; basePath: string; label?: string }) {
  return (
    <>
      <div className="hidden md:block">
        <ScrollRegion label={`${label} table`}>
          <table className="min-w-full divide-y divide-slate-200">
            <caption className="sr-only">{label}, newest first</caption>
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
              {items.map((p) => (
                <tr key={p.id} data-payment-id={p.id}>
                  <td className={`${td} whitespace-nowrap`}>
                    <time dateTime={p.createdAt}>{formatUtc(p.createdAt)}</time>
                  </td>
                  <td className={td}>
                    <Link href={`${basePath}/${p.id}`} className={link}>
                      {p.name || "Unnamed payment"}
                    </Link>
                    <div className="font-mono text-xs text-slate-600">{p.id}</div>
                  </td>
                  <td className={td}>
                    <StatusBadge status={p.status} />
                  </td>
                  <td className={`${td} whitespace-nowrap text-right tabular-nums`}>{formatMoney(p.prePaymentAmount, p.currency)}</td>
                  <td className={`${td} whitespace-nowrap`}>
                    <CoinCell charge={chargeOf(p)} />
                  </td>
                  <td className={`${td} break-all`}>{p.customer?.email ?? <span className="text-slate-600">—</span>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      </div>
      <ul aria-label={label} className="space-y-3 md:hidden" data-testid="payment-cards">
        {items.map((p) => (
          <li key={p.id} data-payment-id={p.id} className="min-w-0 rounded-xl bg-white p-4 ring-1 ring-slate-200">
            <div className="flex items-start justify-between gap-3">
              <Link href={`${basePath}/${p.id}`} className={`${link} min-w-0 break-words`}>
                {p.name || "Unnamed payment"}
              </Link>
              <StatusBadge status={p.status} />
            </div>
            <dl className="mt-2 grid grid-cols-2 gap-x-3 gap-y-2 text-sm">
              <div>
                <dt className="text-xs text-slate-600">Amount</dt>
                <dd className="font-medium tabular-nums text-slate-900">{formatMoney(p.prePaymentAmount, p.currency)}</dd>
              </div>
              <div className="min-w-0">
                <dt className="text-xs text-slate-600">Coin</dt>
                <dd className="break-words text-slate-900">
                  <CoinCell charge={chargeOf(p)} />
                </dd>
              </div>
              <div className="col-span-2">
                <dt className="sr-only">Created</dt>
                <dd className="text-xs text-slate-600">
                  Created <time dateTime={p.createdAt}>{formatUtc(p.createdAt)}</time>
                  {p.customer?.email ? <span className="break-all"> · {p.customer.email}</span> : null}
                </dd>
              </div>
            </dl>
            <p className="mt-1 break-all font-mono text-xs text-slate-600">{p.id}</p>
          </li>
        ))}
      </ul>
    </>
  );
}
