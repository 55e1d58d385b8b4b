import type { ReactNode } from "react";
import type { PaymentRecord } from "@/lib/payments/schemas";
import { formatMoney, formatUtc } from "../format";
import { chargeTypeName } from "../names";
import { NamedValue } from "../named-value";
import { ScrollRegion } from "./scroll-region";
import { StatusBadge } from "./status-badge";

export const card = "rounded-xl bg-white p-4 ring-1 ring-slate-200";
export const h3 = "mb-3 text-base font-semibold text-slate-900";
const dt = "text-sm text-slate-600";
const dd = "text-sm font-medium text-slate-900 break-words";

/** A label and its value, in a definition list. */
export function Item({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt className={dt}>{label}</dt>
      <dd className={dd}>{children}</dd>
    </div>
  );
}

const none = <span className="font-normal text-slate-600">—</span>;

/** Amounts and dates of a payment. */
export function PaymentAmounts({ payment: p }: { payment: PaymentRecord }) {
  return (
    <section aria-labelledby="amounts" className={card}>
      <h3 id="amounts" className={h3}>Amounts</h3>
      <dl className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
        <Item label="Requested">{formatMoney(p.prePaymentAmount, p.currency)}</Item>
        <Item label="Final amount">{formatMoney(p.endAmount, p.currency)}</Item>
        <Item label="Platform fee">{p.platformFee === null || p.platformFee === undefined ? none : formatMoney(p.platformFee, p.currency)}</Item>
        <Item label="Net, in USD (after the fee)">{p.netAmountUsd === undefined ? none : formatMoney(p.netAmountUsd, "USD")}</Item>
        <Item label="Created">
          <time dateTime={p.createdAt}>{formatUtc(p.createdAt)}</time>
        </Item>
        <Item label="Expires">
          <time dateTime={p.expiresAt}>{formatUtc(p.expiresAt)}</time>
        </Item>
        <Item label="Payment method">{p.selectedPaymentMethod ? <NamedValue named={chargeTypeName(p.selectedPaymentMethod)} stacked /> : none}</Item>
        {p.onBehalfOfBusinessId !== undefined ? <Item label="On behalf of business">{p.onBehalfOfBusinessId}</Item> : null}
        {p.description ? <Item label="Description">{p.description}</Item> : null}
      </dl>
    </section>
  );
}

/** Every status the payment has been in, oldest first. */
export function PaymentTimeline({ payment }: { payment: PaymentRecord }) {
  return (
    <section aria-labelledby="timeline" className={card}>
      <h3 id="timeline" className={h3}>Timeline</h3>
      <ol className="space-y-2 border-l-2 border-slate-200 pl-4">
        {(payment.timeline ?? []).map((t, i) => (
          <li key={i} className="flex flex-wrap items-center gap-2 text-sm">
            <StatusBadge status={t.paymentStatus} />
            <time dateTime={t.time} className="text-slate-700">{formatUtc(t.time)}</time>
          </li>
        ))}
      </ol>
    </section>
  );
}

/** The customer: email, and each IP address seen with where it is and its ISP, when known. */
export function PaymentCustomer({ payment }: { payment: PaymentRecord }) {
  const c = payment.customer;
  const ips = c?.ipAddresses ?? [];
  return (
    <section aria-labelledby="customer" className={card}>
      <h3 id="customer" className={h3}>Customer</h3>
      <dl className="mb-3 grid gap-3 sm:grid-cols-2">
        <Item label="Email">{c?.email ?? none}</Item>
      </dl>
      {ips.length === 0 ? (
        <p className="text-sm text-slate-700">No IP address recorded.</p>
      ) : (
        <ScrollRegion label="Customer IP addresses">
          <table className="min-w-full text-sm">
            <caption className="sr-only">IP addresses of the customer</caption>
            <thead className="bg-slate-50 text-left text-slate-600">
              <tr>
                <th scope="col" className="px-3 py-2">IP address</th>
                <th scope="col" className="px-3 py-2">Country</th>
                <th scope="col" className="px-3 py-2">City</th>
                <th scope="col" className="px-3 py-2">ISP</th>
                <th scope="col" className="px-3 py-2">First seen (UTC)</th>
              </tr>
            </thead>
            <tbody>
              {ips.map((ip, i) => (
                <tr key={`${ip.ip}-${i}`} className="border-t border-slate-100">
                  <td className="px-3 py-2 font-mono">{ip.ip ?? "—"}</td>
                  <td className="px-3 py-2">{ip.country ?? "Unknown"}</td>
                  <td className="px-3 py-2">{ip.city ?? "Unknown"}</td>
                  <td className="px-3 py-2">{ip.isp ?? "Unknown"}</td>
                  <td className="whitespace-nowrap px-3 py-2">{formatUtc(ip.dateCreated)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      )}
      {ips.length > 0 ? (
        // The databases' CC BY 4.0 licences ask for this credit where their results are shown.
        <p className="mt-2 text-xs text-slate-700">
          <a href="https://db-ip.com" className="underline">IP Geolocation by DB-IP</a>; ISPs from the{" "}
          <a href="https://github.com/sapics/ip-location-db" className="underline">ip-location-db</a> ASN data (RouteViews, DB-IP, NRO), CC BY 4.0.
        </p>
      ) : null}
    </section>
  );
}

/** The key-value pairs the merchant attached at creation. */
export function PaymentMetadata({ payment }: { payment: PaymentRecord }) {
  const pairs = Object.entries(payment.metadata ?? {});
  return (
    <section aria-labelledby="metadata" className={card}>
      <h3 id="metadata" className={h3}>Metadata</h3>
      {pairs.length === 0 ? (
        <p className="text-sm text-slate-700">None.</p>
      ) : (
        <dl className="grid gap-3 sm:grid-cols-2">
          {pairs.map(([k, v]) => (
            <Item key={k} label={k}>
              <span className="font-mono">{v}</span>
            </Item>
          ))}
        </dl>
      )}
    </section>
  );
}
