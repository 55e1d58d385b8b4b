import type { CustomerEmailView } from "@/lib/emails/log";
import { formatUtc } from "../format";
import { card, h3 } from "./payment-overview";
import { AttemptsTable } from "./attempts-table";
import { ScrollRegion } from "./scroll-region";

const KINDS: Record<CustomerEmailView["kind"], string> = {
  receipt: "Receipt",
  detected: "Payment detected",
  underpaid: "Underpaid: amount still due",
  expired: "Payment expired",
};

const STATES: Record<CustomerEmailView["status"], { label: string; tone: string; hint: string }> = {
  sent: { label: "Sent", tone: "bg-emerald-100 text-emerald-900 ring-emerald-300", hint: "the SMTP server accepted it" },
  pending: { label: "Pending", tone: "bg-sky-100 text-sky-900 ring-sky-300", hint: "waiting for its next attempt" },
  failed: { label: "Failed", tone: "bg-red-100 text-red-900 ring-red-300", hint: "refused by the server, or out of attempts" },
  unsent: { label: "Not sent", tone: "bg-amber-100 text-amber-900 ring-amber-300", hint: "no SMTP server is configured (SMTP_URL); kept here" },
};

/**
 * The e-mails the payment's customer was sent (a receipt, status updates), oldest first: to whom,
 * in which language, their state, every attempt with the SMTP server's answer, and the message's
 * text. Without an SMTP server they are kept here as "Not sent".
 */
export function CustomerEmails({ emails }: { emails: CustomerEmailView[] }) {
  return (
    <section aria-labelledby="customer-emails" className={card} data-testid="customer-emails">
      <h3 id="customer-emails" className={h3}>Customer e-mails</h3>
      {emails.length === 0 ? (
        <p className="text-sm text-slate-700">No e-mails for this payment (none is written without a customer e-mail, or with that kind switched off in Settings).</p>
      ) : null}
      <ol className="space-y-4">
        {emails.map((e) => (
          <li key={e.emailId} className="rounded-lg p-3 ring-1 ring-slate-200" data-testid="customer-email" data-kind={e.kind}>
            <div className="flex flex-wrap items-center gap-2">
              <h4 className="text-sm font-semibold">{KINDS[e.kind]}</h4>
              <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ring-1 ${STATES[e.status].tone}`} data-testid="email-status" data-status={e.status} title={STATES[e.status].hint}>
                {STATES[e.status].label}
              </span>
              <span className="text-sm text-slate-600">
                {e.attemptCount} attempt{e.attemptCount === 1 ? "" : "s"}
                {e.nextAttemptAt ? ` · next ${formatUtc(e.nextAttemptAt)}` : ""}
                {e.sentAt ? ` · sent ${formatUtc(e.sentAt)}` : ""}
              </span>
            </div>
            <p className="mt-1 break-all text-sm text-slate-700">
              To <span className="font-mono">{e.recipient}</span> · in <span lang="en">{e.locale}</span> · “{e.subject}” · message <span className="font-mono">{e.messageId}</span> · queued {formatUtc(e.createdAt)}
            </p>
            {e.lastError ? <p className="mt-1 break-all text-sm text-red-800">{e.lastError}</p> : null}
            {e.attempts.length ? (
              <div className="mt-2">
                <ScrollRegion label={`Attempts of e-mail ${e.emailId}`}>
                  <AttemptsTable
                    caption={`Attempts of the ${KINDS[e.kind]} e-mail`}
                    rows={e.attempts.map((a) => ({ attemptedAt: a.attemptedAt, succeeded: a.succeeded, code: a.smtpCode, latencyMs: a.latencyMs, answer: a.response }))}
                    succeeded="Accepted"
                    codeHeader="SMTP code"
                    answerHeader="Server's answer or error"
                    rowTestId="email-attempt"
                  />
                </ScrollRegion>
              </div>
            ) : null}
            <details className="mt-2">
              <summary className="cursor-pointer text-sm text-indigo-800 underline underline-offset-2">Message text</summary>
              <pre role="region" aria-label={`Text of e-mail ${e.emailId}`} tabIndex={0} lang={e.locale} className="mt-1 max-h-64 overflow-auto whitespace-pre-wrap rounded bg-slate-50 p-2 text-xs focus-visible:outline-2 focus-visible:outline-indigo-700">
                {e.text}
              </pre>
            </details>
          </li>
        ))}
      </ol>
    </section>
  );
}
