import nodemailer, { type SendMailOptions } from "nodemailer";
import type { Db } from "@/db/client";
import { claimDueEmails, keepDueEmailsUnsent, recordEmailAttempt } from "@/db/queries/customer-emails";
import { metrics } from "@/lib/metrics/registry.mjs";
import type { CustomerEmailRow } from "@/db/schema";
import { inTransaction } from "@/db/transaction";
import { config } from "@/lib/config";

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** After a failed attempt that may succeed later (no server, a 4xx reply), retry after these delays; then give up. */
export const EMAIL_RETRY_DELAYS_MS = [1 * MINUTE, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 6 * HOUR];
export const EMAIL_MAX_ATTEMPTS = EMAIL_RETRY_DELAYS_MS.length + 1;
/** An attempt is bounded by the transport's timeouts (15 s each); a crashed worker's rows are retaken after the lease. */
export const EMAIL_LEASE_MS = 60 * SECOND;
const TIMEOUT_MS = 15 * SECOND;
export const NO_SMTP = "not sent: no SMTP server is configured (SMTP_URL)";

/** What sends a message: nodemailer's SMTP transport (a test may hand its own). */
export type MailTransport = { sendMail(message: SendMailOptions): Promise<{ response?: string }> };

const TRANSPORT: unique symbol = Symbol.for("cryptopay.emails.transport");
const processWide = globalThis as typeof globalThis & { [TRANSPORT]?: { url: string; transport: MailTransport } };

/** The process's SMTP transport for `smtpUrl` (one pool of connections), or null without one. */
export function smtpTransport(smtpUrl: string | undefined): MailTransport | null {
  if (!smtpUrl) return null;
  const known = processWide[TRANSPORT];
  if (known?.url === smtpUrl) return known.transport;
  // nodemailer reads its SMTP options from the URL's query; ours bound each attempt unless the URL says otherwise.
  const url = new URL(smtpUrl);
  for (const option of ["connectionTimeout", "greetingTimeout", "socketTimeout"]) {
    if (!url.searchParams.has(option)) url.searchParams.set(option, String(TIMEOUT_MS));
  }
  const transport = nodemailer.createTransport(url.toString());
  processWide[TRANSPORT] = { url: smtpUrl, transport };
  return transport;
}

export type SendOptions = { transport: MailTransport | null; from: string; clock?: () => Date; limit?: number };

/** What one attempt came to: accepted, refused for good (a 5xx reply), or worth another try. */
type Outcome = { ok: boolean; permanent: boolean; code: number | null; response: string; latencyMs: number };

async function attempt(transport: MailTransport, from: string, email: CustomerEmailRow): Promise<Outcome> {
  const started = performance.now();
  try {
    const info = await transport.sendMail({
      from,
      to: email.recipient,
      subject: email.subject,
      text: email.text,
      html: email.html,
      // The same Message-ID and Date on every attempt: a resend after a crash is the same message.
      messageId: email.messageId,
      date: email.createdAt,
      headers: { "Auto-Submitted": "auto-generated", "X-Auto-Response-Suppress": "All" },
    });
    const response = info.response ?? "accepted";
    return { ok: true, permanent: false, code: Number(/^\d{3}/.exec(response)?.[0]) || null, response: response.slice(0, 1024), latencyMs: Math.round(performance.now() - started) };
  } catch (e) {
    const err = e as Error & { responseCode?: number; response?: string };
    const code = typeof err.responseCode === "number" ? err.responseCode : null;
    return {
      ok: false,
      permanent: code !== null && code >= 500,
      code,
      response: (err.response ?? err.message).slice(0, 1024),
      latencyMs: Math.round(performance.now() - started),
    };
  }
}

/** Sends one claimed e-mail and records the attempt with the e-mail's new state. */
export async function sendEmail(db: Db, email: CustomerEmailRow, transport: MailTransport, from: string, clock: () => Date = () => new Date()) {
  const result = await attempt(transport, from, email);
  const at = clock();
  const attempts = email.attempts + 1;
  const delay = EMAIL_RETRY_DELAYS_MS[attempts - 1];
  const retry = !result.ok && !result.permanent && delay !== undefined;
  metrics().emailAttempts.inc({ outcome: result.ok ? "sent" : retry ? "retrying" : "failed" });
  return recordEmailAttempt(
    db,
    { emailId: email.id, attemptedAt: at, succeeded: result.ok, smtpCode: result.code, response: result.response, latencyMs: result.latencyMs },
    {
      status: result.ok ? "sent" : retry ? "pending" : "failed",
      nextAttemptAt: retry ? new Date(at.getTime() + delay) : null,
      lastError: result.ok ? null : result.response,
      sentAt: result.ok ? at : null,
    },
  );
}

/**
 * "Send the customer e-mails that are due": claims them and hands each to the SMTP server. Safe
 * from any number of workers, twice, and after a crash (the lease). At least once: a worker that
 * dies after the server accepted a message and before marking it sent leaves it due, and it is
 * sent again with the same Message-ID. Without an SMTP server each due e-mail is kept as not sent.
 * Returns the number of e-mails handled.
 */
export async function sendDueEmails(db: Db, opts: SendOptions): Promise<number> {
  const clock = opts.clock ?? (() => new Date());
  const now = clock();
  if (!opts.transport) return keepDueEmailsUnsent(db, now, NO_SMTP);
  const claimed = await inTransaction(db, (tx) => claimDueEmails(tx, now, opts.limit ?? 20, EMAIL_LEASE_MS));
  const transport = opts.transport;
  await Promise.all(claimed.map((e) => sendEmail(db, e, transport, opts.from, clock)));
  return claimed.length;
}

/** `sendDueEmails` with the configured SMTP server and sender (SMTP_URL, MAIL_FROM): what the runner and the sweep call. */
export function sendConfiguredEmails(db: Db, limit = 20): Promise<number> {
  const { smtpUrl, from } = config().mail;
  return sendDueEmails(db, { transport: smtpTransport(smtpUrl), from, limit });
}
