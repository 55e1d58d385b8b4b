import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { getDb } from "@/db/client";
import { AutoRefresh } from "@/components/dashboard/auto-refresh";
import { NoteForm } from "@/components/dashboard/payments/note-form";
import { PaymentCharge } from "@/components/dashboard/payments/payment-charge";
import { card, h3, PaymentAmounts, PaymentCustomer, PaymentMetadata, PaymentTimeline } from "@/components/dashboard/payments/payment-overview";
import { StatusBadge } from "@/components/dashboard/payments/status-badge";
import { WebhookDeliveries } from "@/components/dashboard/payments/webhook-deliveries";
import { CustomerEmails } from "@/components/dashboard/payments/customer-emails";
import { requireUser } from "@/lib/accounts/session";
import { changeMark } from "@/lib/dashboard/changes";
import { dashboardPayment, type PaymentDetail } from "@/lib/dashboard/payments";
import { ApiError } from "@/lib/http/errors";
import { redeliverAction, saveNoteAction } from "../actions";

export const metadata: Metadata = { title: "Payment · Merchant dashboard" };

/**
 * One payment: the API's Payment record (timeline, amounts, charge and transactions, customer,
 * metadata, note), the e-mails its customer was sent and its webhook deliveries. Another business's payment id, or a malformed one,
 * is the 404 page, as an unknown one is. It refreshes itself when the payment's status changes or
 * its transfers gain confirmations.
 */
export default async function PaymentPage({ params }: { params: Promise<{ businessId: string; paymentId: string }> }) {
  const [{ businessId, paymentId }, user] = await Promise.all([params, requireUser()]);
  let detail: PaymentDetail | null = null;
  let mark = "";
  try {
    const db = await getDb();
    // The mark first: a change while the payment is read shows at the next poll, never goes unseen.
    mark = await changeMark(db, user.id, businessId, paymentId);
    detail = await dashboardPayment(db, user.id, businessId, paymentId);
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
  }
  if (!detail) notFound();
  const { payment: p } = detail;
  return (
    <main className="space-y-5">
      <div>
        <Link href={`/dashboard/${businessId}/payments`} className="text-sm font-medium text-indigo-800 underline underline-offset-2">
          ← All payments
        </Link>
        <div className="mt-2 flex flex-wrap items-center gap-3">
          <h2 className="text-lg font-semibold">{p.name || "Unnamed payment"}</h2>
          <span data-testid="payment-status">
            <StatusBadge status={p.status} />
          </span>
        </div>
        <p className="mt-1 break-all font-mono text-xs text-slate-600">{p.id}</p>
        <div className="mt-1">
          <AutoRefresh url={`/dashboard/${businessId}/changes?payment=${p.id}`} mark={mark} />
        </div>
      </div>
      <div className="grid gap-5 lg:grid-cols-2">
        <PaymentAmounts payment={p} />
        <PaymentTimeline payment={p} />
      </div>
      <PaymentCharge payment={p} />
      {detail.held.length ? (
        <section aria-labelledby="held-heading" className="rounded-xl bg-amber-50 p-4 ring-1 ring-amber-300">
          <h3 id="held-heading" className={h3}>Held transactions</h3>
          <p className="mt-1 text-sm text-slate-700">
            This money does not count toward the payment on its own, whatever its confirmations: settle it with the customer.
          </p>
          <ul className="mt-2 space-y-1 text-sm">
            {detail.held.map((h) => (
              <li key={h.txId}>
                <span className="break-all font-mono text-xs">{h.txId}</span>: {h.reason}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <div className="grid gap-5 lg:grid-cols-2">
        <PaymentCustomer payment={p} />
        <PaymentMetadata payment={p} />
      </div>
      <section aria-labelledby="note-heading" className={card}>
        <h3 id="note-heading" className={h3}>Note</h3>
        <NoteForm note={p.note ?? null} canEdit={detail.canEditNote} action={saveNoteAction.bind(null, businessId, p.id)} />
      </section>
      <CustomerEmails emails={detail.emails} />
      <WebhookDeliveries deliveries={detail.deliveries} total={detail.deliveriesTotal} canRedeliver={detail.canRedeliver} action={redeliverAction.bind(null, businessId, p.id)} />
    </main>
  );
}
