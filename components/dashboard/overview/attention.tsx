import Link from "next/link";
import type { AttentionPayment, FailedDelivery, Listed } from "@/db/queries/dashboard-overview";
import { ATTENTION_DAYS, type LateMoney, type Overview } from "@/lib/dashboard/overview";
import { formatCoinAmount, formatCount, formatMoney, formatUtc } from "../format";
import { deliveryStateName, eventName } from "../names";
import { StatusBadge } from "../payments/status-badge";

const link = "font-medium text-indigo-800 underline underline-offset-2 focus-visible:outline-2 focus-visible:outline-indigo-700";
const when = (d: Date) => <time dateTime={d.toISOString()}>{formatUtc(d.toISOString())}</time>;

type Group<T> = { id: string; title: string; about: string; list: Listed<T>; all?: string; detail: (item: T) => React.ReactNode };

/** One list of payments needing attention: its count, its newest entries, and a link to them all. */
function PaymentGroup<T extends AttentionPayment>({ group: g, base }: { group: Group<T>; base: string }) {
  if (g.list.total === 0) return null;
  return (
    <section aria-labelledby={`${g.id}-heading`} className="rounded-xl bg-white p-4 ring-1 ring-slate-200" data-testid={`attention-${g.id}`}>
      <h4 id={`${g.id}-heading`} className="flex flex-wrap items-baseline gap-2 font-semibold text-slate-900">
        {g.title}
        <span className="rounded-full bg-amber-100 px-2 text-sm font-semibold text-amber-900 ring-1 ring-amber-300" data-testid="count">
          {formatCount(g.list.total, g.list.capped)}
        </span>
      </h4>
      <p className="mt-1 text-sm text-slate-700">{g.about}</p>
      <ul className="mt-3 divide-y divide-slate-100">
        {g.list.items.map((p, i) => (
          <li key={`${p.id}-${i}`} className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1 py-2 text-sm">
            <span className="min-w-0 break-words">
              <Link href={`${base}/payments/${p.id}`} className={link}>
                {p.name || "Unnamed payment"}
              </Link>{" "}
              <span className="tabular-nums text-slate-700">{formatMoney(p.amount, p.currency)}</span>
            </span>
            <span className="flex flex-wrap items-center gap-2 text-slate-700">
              {g.detail(p)}
              <StatusBadge status={p.status} />
            </span>
          </li>
        ))}
      </ul>
      {g.all && g.list.total > g.list.items.length ? (
        <p className="mt-2 text-sm">
          <Link href={g.all} className={link}>See all {formatCount(g.list.total, g.list.capped)}</Link>
        </p>
      ) : null}
    </section>
  );
}

/** Webhook deliveries not delivered: failed for good, or failing and retried. */
function Deliveries({ list, base }: { list: Listed<FailedDelivery>; base: string }) {
  if (list.total === 0) return null;
  return (
    <section aria-labelledby="webhooks-heading" className="rounded-xl bg-white p-4 ring-1 ring-slate-200" data-testid="attention-webhooks">
      <h4 id="webhooks-heading" className="flex flex-wrap items-baseline gap-2 font-semibold text-slate-900">
        Webhooks not delivered
        <span className="rounded-full bg-red-100 px-2 text-sm font-semibold text-red-900 ring-1 ring-red-300" data-testid="count">
          {formatCount(list.total, list.capped)}
        </span>
      </h4>
      <p className="mt-1 text-sm text-slate-700">
        Queued in the last {ATTENTION_DAYS} days: your endpoint did not answer with a 2xx status. A failed one is no longer retried; redeliver it from its payment.
      </p>
      <ul className="mt-3 divide-y divide-slate-100">
        {list.items.map((d) => (
          <li key={d.id} className="py-2 text-sm" data-testid="failed-delivery">
            <div className="flex flex-wrap items-center gap-2">
              <span className="font-medium text-slate-900">
                {eventName(d.eventType).label} <code className="font-mono text-xs font-normal text-slate-600">{d.eventType}</code>
              </span>
              <span className="rounded-full bg-red-100 px-2 py-0.5 text-xs font-semibold text-red-900" title={d.status}>
                {d.status === "failed" ? deliveryStateName("failed").label : "Retrying"}
              </span>
            </div>
            <p className="mt-0.5 break-all text-slate-700">
              {d.attempts} attempt{d.attempts === 1 ? "" : "s"}
              {d.lastStatusCode !== null ? `, last HTTP ${d.lastStatusCode}` : ""}
              {d.nextAttemptAt ? <>, next {when(d.nextAttemptAt)}</> : null} · to {d.url}
              {d.paymentId ? (
                <>
                  {" · "}
                  <Link href={`${base}/payments/${d.paymentId}#deliveries`} className={link}>Its payment</Link>
                </>
              ) : null}
            </p>
          </li>
        ))}
      </ul>
      <p className="mt-2 text-sm">
        <Link href={`${base}/developers?status=failed#deliveries`} className={link}>Delivery log</Link>
      </p>
    </section>
  );
}

/**
 * What needs the merchant's attention: underpaid payments, money that came after a payment
 * closed, transfers held without confirmations or dropped, and webhooks not delivered. Each list
 * appears only when it has something; with nothing, one line says so.
 */
export function Attention({ overview: o, base }: { overview: Overview; base: string }) {
  const a = o.attention;
  const payments = `${base}/payments`;
  const underpaid: Group<AttentionPayment> = {
    id: "underpaid",
    title: "Underpaid",
    about: "Less than the amount due arrived. The customer can still send the rest until the payment expires.",
    list: a.underpaid,
    all: `${payments}?statuses=UNDERPAID`,
    detail: (p) => <span>created {when(p.createdAt)}</span>,
  };
  const late: Group<LateMoney> = {
    id: "late",
    title: "Money after closing",
    about: `Transfers that arrived in the last ${ATTENTION_DAYS} days after their payment had closed. The money is yours; the customer may ask for it back.`,
    list: a.late,
    detail: (t) => (
      <span>
        <span className="tabular-nums">{t.coinAmount ? formatCoinAmount(t.coinAmount, t.selectedCoin) : `${t.units} base units`}</span> seen {when(t.seenAt)}
      </span>
    ),
  };
  const held: Group<AttentionPayment> = {
    id: "held",
    title: "Held unconfirmed",
    about: "Transfers seen over an hour ago that still lack the confirmations their coin needs.",
    list: a.held,
    all: `${payments}?statuses=PENDING`,
    detail: (p) => <span>seen {p.since ? when(p.since) : "—"}</span>,
  };
  const dropped: Group<AttentionPayment> = {
    id: "dropped",
    title: "Dropped transfers",
    about: `Payments of the last ${ATTENTION_DAYS} days whose transfers disappeared from the chain (a double spend or a reorganisation).`,
    list: a.dropped,
    all: `${payments}?statuses=FAILED`,
    detail: (p) => <span>dropped {p.since ? when(p.since) : "—"}</span>,
  };
  const nothing = [a.underpaid, a.late, a.held, a.dropped, o.failedDeliveries].every((l) => l.total === 0);
  return (
    <section aria-labelledby="attention-heading" className="space-y-3">
      <h3 id="attention-heading" className="text-base font-semibold text-slate-900">Needs your attention</h3>
      {nothing ? (
        <p className="rounded-xl bg-white px-4 py-3 text-sm text-slate-700 ring-1 ring-slate-200" data-testid="attention-none">
          Nothing needs your attention: no underpaid payments, late or held money, dropped transfers or undelivered webhooks.
        </p>
      ) : (
        <div className="grid items-start gap-4 lg:grid-cols-2">
          <PaymentGroup group={underpaid} base={base} />
          <PaymentGroup group={late} base={base} />
          <PaymentGroup group={held} base={base} />
          <PaymentGroup group={dropped} base={base} />
          <Deliveries list={o.failedDeliveries} base={base} />
        </div>
      )}
    </section>
  );
}
