import { createTranslator } from "next-intl";
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
 * It is a template with every value escaped (`esc`): Next.js keeps react-dom/server out of the
 * server bundles, and a page this small needs no renderer.
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
  const html = emailHtml({ locale: facts.locale, subject, heading, intro, rows, action, footer });
  return { subject, text, html };
}

const FONT = "-apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif";
const MONO = "ui-monospace, SFMono-Regular, Menlo, Consolas, monospace";

const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#x27;" };

/** Text or an attribute value as HTML: a merchant's name or a hash can never become markup. */
function esc(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ENTITIES[c]);
}

function emailHtml(p: {
  locale: Locale;
  subject: string;
  heading: string;
  intro: string;
  rows: Row[];
  action: { label: string; href: string } | null;
  footer: string;
}): string {
  const dir = directionOf(p.locale);
  const start = dir === "rtl" ? "right" : "left";
  const cell = `padding:8px 0;text-align:${start};border-top:1px solid #e2e8f0`;
  const rows = p.rows
    .map((r) => {
      const value = r.href ? `<a href="${esc(r.href)}" style="color:#1d4ed8">${esc(r.value)}</a>` : esc(r.value);
      const mono = r.mono ? ` dir="ltr" style="${cell};font-family:${MONO};word-break:break-all"` : ` style="${cell};word-break:break-word"`;
      return `<tr><th scope="row" style="${cell};vertical-align:top;font-weight:500;color:#64748b;width:40%">${esc(r.label)}</th><td${mono}>${value}</td></tr>`;
    })
    .join("");
  const action = p.action
    ? `<tr><td style="padding:4px 28px 16px;text-align:${start}"><a href="${esc(p.action.href)}" style="display:inline-block;padding:10px 18px;background:#0f172a;color:#ffffff;border-radius:8px;text-decoration:none;font-weight:600;font-size:15px">${esc(p.action.label)}</a></td></tr>`
    : "";
  return [
    `<!DOCTYPE html><html lang="${esc(p.locale)}" dir="${dir}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${esc(p.subject)}</title></head>`,
    `<body style="margin:0;padding:24px 12px;background:#f1f5f9;font-family:${FONT};color:#0f172a">`,
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:12px;border:1px solid #e2e8f0"><tbody>`,
    `<tr><td style="padding:28px 28px 8px;text-align:${start}"><h1 style="margin:0 0 12px;font-size:22px;line-height:28px;font-weight:700">${esc(p.heading)}</h1><p style="margin:0;font-size:15px;line-height:22px;color:#334155">${esc(p.intro)}</p></td></tr>`,
    `<tr><td style="padding:16px 28px"><table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="border-collapse:collapse;font-size:14px;line-height:20px"><tbody>${rows}</tbody></table></td></tr>`,
    action,
    `<tr><td style="padding:12px 28px 24px;text-align:${start};font-size:12px;line-height:18px;color:#64748b;border-top:1px solid #e2e8f0">${esc(p.footer)}</td></tr>`,
    `</tbody></table></body></html>`,
  ].join("");
}
