import type { Db } from "@/db/client";
import { listPaymentEmails } from "@/db/queries/customer-emails";
import type { CustomerEmailKind } from "@/db/schema";

/** One customer e-mail as the dashboard shows it: what was written, its state, and every attempt. */
export type CustomerEmailView = {
  emailId: number;
  kind: CustomerEmailKind;
  recipient: string;
  locale: string;
  subject: string;
  text: string;
  messageId: string;
  status: "pending" | "sent" | "failed" | "unsent";
  attemptCount: number;
  nextAttemptAt: string | null;
  lastError: string | null;
  sentAt: string | null;
  createdAt: string;
  attempts: { attemptedAt: string; succeeded: boolean; smtpCode: number | null; response: string | null; latencyMs: number }[];
};

/** A payment's customer e-mails, oldest first, with their attempts (the payment's dashboard page). */
export async function paymentEmails(db: Db, paymentId: string): Promise<CustomerEmailView[]> {
  const rows = await listPaymentEmails(db, paymentId);
  return rows.map((e) => ({
    emailId: e.id,
    kind: e.kind,
    recipient: e.recipient,
    locale: e.locale,
    subject: e.subject,
    text: e.text,
    messageId: e.messageId,
    status: e.status,
    attemptCount: e.attempts,
    nextAttemptAt: e.status === "pending" ? (e.nextAttemptAt?.toISOString() ?? null) : null,
    lastError: e.lastError,
    sentAt: e.sentAt?.toISOString() ?? null,
    createdAt: e.createdAt.toISOString(),
    attempts: e.attemptLog.map((a) => ({
      attemptedAt: a.attemptedAt.toISOString(),
      succeeded: a.succeeded,
      smtpCode: a.smtpCode,
      response: a.response,
      latencyMs: a.latencyMs,
    })),
  }));
}
