import type { ReactNode } from "react";
import { useLocale, useTranslations } from "next-intl";
import type { CheckoutView } from "@/lib/checkout/view";
import { formatFiat, formatUtcTime, rateLine } from "./format";

type Charge = NonNullable<CheckoutView["charge"]>;

/** When the rate was locked, and when its market inputs were read if that was another second. */
function QuotedAt({ charge }: { charge: Charge }) {
  const t = useTranslations("checkout.summary");
  const locale = useLocale();
  const quoted = t("utcTime", { time: formatUtcTime(charge.quotedAt, locale) });
  const read = charge.rateAt ? t("utcTime", { time: formatUtcTime(charge.rateAt, locale) }) : null;
  return (
    <span className="mt-0.5 block text-xs font-normal break-normal text-slate-500">
      <span className="block whitespace-nowrap" data-testid="quoted-at">
        {t.rich("quotedAt", { time: quoted, when: (chunks) => <time dateTime={charge.quotedAt}>{chunks}</time> })}
      </span>
      {read && read !== quoted ? (
        <span className="block whitespace-nowrap">{t.rich("marketAt", { time: read, when: (chunks) => <time dateTime={charge.rateAt!}>{chunks}</time> })}</span>
      ) : null}
    </span>
  );
}

/** A coin amount or rate kept in its own left-to-right order inside a right-to-left page ("0.02 BTC", not "BTC 0.02"). */
function Ltr({ children }: { children: string }) {
  return <bdi dir="ltr">{children}</bdi>;
}

/** The details panel: total, coin, locked rate, and what was paid and is due once something arrived. */
export function PaymentSummary({ view }: { view: CheckoutView }) {
  const t = useTranslations("checkout.summary");
  const locale = useLocale();
  const c = view.charge;
  if (!c) return null;
  const coin = { coin: c.name, symbol: c.symbol, network: c.networkName };
  const rows: [string, ReactNode, string?][] = [
    [t("total"), formatFiat(view.amount, view.currency, locale)],
    [t("payWith"), c.standard ? t("coinOn", coin) : t("coin", coin)],
    [t("amount"), <Ltr key="amount">{`${c.amount} ${c.symbol}`}</Ltr>],
    [
      t("rate"),
      <>
        <span dir="ltr" className="inline-block" data-testid="exchange-rate">
          {rateLine(c.symbol, c.exchangeRate, view.currency, locale)}
        </span>
        <QuotedAt charge={c} />
      </>,
    ],
  ];
  if (c.paid !== "0") {
    rows.push([t("received"), <Ltr key="paid">{`${c.paid} ${c.symbol}`}</Ltr>]);
    if (c.due !== "0" && view.status !== "COMPLETED") rows.push([t("due"), <Ltr key="due">{`${c.due} ${c.symbol}`}</Ltr>, "amount-due"]);
  }
  return (
    <dl className="divide-y divide-slate-100 rounded-xl text-sm ring-1 ring-slate-200">
      {rows.map(([label, value, testId]) => (
        <div key={label} className="flex justify-between gap-4 px-3 py-2">
          <dt className="text-slate-500">{label}</dt>
          <dd className="text-end font-medium break-all text-slate-900 tabular-nums" data-testid={testId}>
            {value}
          </dd>
        </div>
      ))}
    </dl>
  );
}
