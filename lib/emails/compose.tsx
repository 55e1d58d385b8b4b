import { createTranslator } from "next-intl";
import { renderToStaticMarkup } from "react-dom/server";
import { directionOf, type Locale } from "@/domain/locales";
import type { CustomerEmailKind } from "@/db/schema";
import ar from "@/messages/ar.json";
import de from "@/messages/de.json";
import en from "@/messages/en.json";
import es from "@/messages/es.json";
import fr from "@/messages/fr.json";
import it from "@/messages/it.json";
import ja from "@/messages/ja.json";
import ptBR from "@/messages/pt-BR.json";
import ru from "@/messages/ru.json";
import zhCN from "@/messages/zh-CN.json";

/*
 * A customer e-mail, written once when its status change commits (lib/payments/customer-emails.ts)
 * and sent as written: the subject, a plain-text body and an HTML body of the same content, in
 * the customer's language (the "email" namespace of messages/<locale>.json). The HTML has inline
 * styles only and nothing remote (no image, font or stylesheet), so a mail client shows it whole
 * without asking to load anything; its one link is the checkout's (underpaid) or the explorer's.
 */

const MESSAGES = { en, es, fr, de, "pt-BR": ptBR, it, ru, "zh-CN": zhCN, ja, ar } satisfies Record<Locale, typeof en>;

/** What an e-mail tells, gathered from the payment when its status changed. */
export type EmailFacts = {
  kind: CustomerEmailKind;
  locale: Locale;
  merchant: string;
  paymentId: string;
  /** The payment's amount in its currency, as a decimal string. */
  amount: string;
  currency: string;
  /** The coin's symbol (BTC, USDT…) once the customer chose one, with what was paid and what is still due, in whole coins. */
  coin: { symbol: string; paid: string; due: string } | null;
  /** The latest transaction's hash, and its page on the configured block explorer. */
  transaction: { hash: string; url: string | null } | null;
  /** The checkout's address, where an underpaid payment is completed. */
  checkoutUrl: string;
  /** When the status changed. */
  at: Date;
};

export type ComposedEmail = { subject: string; text: string; html: string };

type Row = { label: string; value: string; href?: string; mono?: boolean };

function fiat(locale: Locale, amount: string, currency: string): string {
  try {
    return new Intl.NumberFormat(locale, { style: "currency", currency, maximumFractionDigits: 4 }).format(Number(amount));
  } catch {
    return `${amount} ${currency}`;
  }
}

/** A coin amount as stored (exact, a point before the fraction) with the language's decimal separator, every digit kept. */
function coinAmount(locale: Locale, decimal: string): string {
  const separator = new Intl.NumberFormat(locale).formatToParts(1.5).find((p) => p.type === "decimal")?.value ?? ".";
  return decimal.replace(".", separator);
}

function when(locale: Locale, at: Date): string {
  return new Intl.DateTimeFormat(locale, {
    year: "numeric",
    month: "long",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    timeZone: "UTC",
    timeZoneName: "short",
  }).format(at);
}

export function composeEmail(facts: EmailFacts): ComposedEmail {
  const t = createTranslator({ locale: facts.locale, messages: MESSAGES[facts.locale], namespace: "email" });
  const { kind, merchant } = facts;
  const rows: Row[] = [{ label: t("fields.merchant"), value: merchant }, { label: t("fields.amount"), value: fiat(facts.locale, facts.amount, facts.currency) }];
  if (facts.coin && kind !== "expired") rows.push({ label: t("fields.paid"), value: `${coinAmount(facts.locale, facts.coin.paid)} ${facts.coin.symbol}` });
  if (facts.coin && kind === "underpaid") rows.push({ label: t("fields.due"), value: `${coinAmount(facts.locale, facts.coin.due)} ${facts.coin.symbol}` });
  if (facts.transaction && (kind === "receipt" || kind === "detected")) {
    rows.push({ label: t("fields.transaction"), value: facts.transaction.hash, href: facts.transaction.url ?? undefined, mono: true });
  }
  rows.push({ label: t("fields.reference"), value: facts.paymentId, mono: true }, { label: t("fields.date"), value: when(facts.locale, facts.at) });
  const subject = t(`${kind}.subject`, { merchant });
  const heading = t(`${kind}.heading`);
  const intro = t(`${kind}.intro`, { merchant });
  const action = kind === "underpaid" ? { label: t("underpaid.action"), href: facts.checkoutUrl } : null;
  const footer = t("footer", { merchant });
  const text = [
    heading,
    "",
    intro,
    "",
    ...rows.map((r) => `${r.label}: ${r.value}${r.href ? `\n  ${r.href}` : ""}`),
    ...(action ? ["", `${action.label}: ${action.href}`] : []),
    "",
    "--",
    footer,
    "",
  ].join("\n");
  const html = `<!DOCTYPE html>${renderToStaticMarkup(
    <EmailHtml locale={facts.locale} subject={subject} heading={heading} intro={intro} rows={rows} action={action} footer={footer} />,
  )}`;
  return { subject, text, html };
}

const FONT = "-apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif";
const MONO = "ui-monospace, SFMono-Regular, Menlo, Consolas, monospace";

/** React escapes every value, so a merchant's name or a hash cannot become markup. */
function EmailHtml(props: {
  locale: Locale;
  subject: string;
  heading: string;
  intro: string;
  rows: Row[];
  action: { label: string; href: string } | null;
  footer: string;
}) {
  const dir = directionOf(props.locale);
  const start = dir === "rtl" ? "right" : "left";
  return (
    <html lang={props.locale} dir={dir}>
      {/* An e-mail document, not a Next.js page: next/head has no place here. */}
      {/* eslint-disable-next-line @next/next/no-head-element */}
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{props.subject}</title>
      </head>
      <body style={{ margin: 0, padding: "24px 12px", background: "#f1f5f9", fontFamily: FONT, color: "#0f172a" }}>
        <table role="presentation" width="100%" cellPadding={0} cellSpacing={0} style={{ maxWidth: 560, margin: "0 auto", background: "#ffffff", borderRadius: 12, border: "1px solid #e2e8f0" }}>
          <tbody>
            <tr>
              <td style={{ padding: "28px 28px 8px", textAlign: start }}>
                <h1 style={{ margin: "0 0 12px", fontSize: 22, lineHeight: "28px", fontWeight: 700 }}>{props.heading}</h1>
                <p style={{ margin: 0, fontSize: 15, lineHeight: "22px", color: "#334155" }}>{props.intro}</p>
              </td>
            </tr>
            <tr>
              <td style={{ padding: "16px 28px" }}>
                <table role="presentation" width="100%" cellPadding={0} cellSpacing={0} style={{ borderCollapse: "collapse", fontSize: 14, lineHeight: "20px" }}>
                  <tbody>
                    {props.rows.map((r) => (
                      <tr key={r.label}>
                        <th scope="row" style={{ padding: "8px 0", textAlign: start, verticalAlign: "top", fontWeight: 500, color: "#64748b", borderTop: "1px solid #e2e8f0", width: "40%" }}>
                          {r.label}
                        </th>
                        <td dir={r.mono ? "ltr" : undefined} style={{ padding: "8px 0", textAlign: start, borderTop: "1px solid #e2e8f0", fontFamily: r.mono ? MONO : undefined, wordBreak: "break-all" }}>
                          {r.href ? (
                            <a href={r.href} style={{ color: "#1d4ed8" }}>
                              {r.value}
                            </a>
                          ) : (
                            r.value
                          )}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </td>
            </tr>
            {props.action ? (
              <tr>
                <td style={{ padding: "4px 28px 16px", textAlign: start }}>
                  <a href={props.action.href} style={{ display: "inline-block", padding: "10px 18px", background: "#0f172a", color: "#ffffff", borderRadius: 8, textDecoration: "none", fontWeight: 600, fontSize: 15 }}>
                    {props.action.label}
                  </a>
                </td>
              </tr>
            ) : null}
            <tr>
              <td style={{ padding: "12px 28px 24px", textAlign: start, fontSize: 12, lineHeight: "18px", color: "#64748b", borderTop: "1px solid #e2e8f0" }}>{props.footer}</td>
            </tr>
          </tbody>
        </table>
      </body>
    </html>
  );
}
