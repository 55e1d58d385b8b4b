import type { ActionResult } from "@/lib/accounts/session";
import type { WebhookDelivery } from "@/lib/dashboard/payments";
import { formatUtc } from "../format";
import { deliveryStateName, eventName } from "../names";
import { card, h3 } from "./payment-overview";
import { RedeliverButton } from "./redeliver-button";
import { AttemptsTable } from "./attempts-table";
import { ScrollRegion } from "./scroll-region";

type RedeliverAction = (prev: ActionResult<any> | null, form: FormData) => Promise<ActionResult<any>>;

const TONES = {
  succeeded: "bg-emerald-100 text-emerald-900 ring-emerald-300",
  pending: "bg-sky-100 text-sky-900 ring-sky-300",
  failed: "bg-red-100 text-red-900 ring-red-300",
} as const;

/**
 * The payment's webhook deliveries, newest first: one per event and endpoint, each with every
 * attempt made (scheduled retries and manual redeliveries), and a Redeliver button for the roles
 * that manage webhooks.
 */
export function WebhookDeliveries({ deliveries, total, canRedeliver, action }: { deliveries: WebhookDelivery[]; total: number; canRedeliver: boolean; action: RedeliverAction }) {
  return (
    <section aria-labelledby="deliveries" className={card}>
      <h3 id="deliveries" className={h3}>Webhook deliveries</h3>
      {deliveries.length === 0 ? (
        <p className="text-sm text-slate-700">No webhooks were sent for this payment (no webhook address was set when its events happened).</p>
      ) : null}
      {total > deliveries.length ? <p className="mb-3 text-sm text-slate-700">The newest {deliveries.length} of {total} deliveries are shown.</p> : null}
      <ol className="space-y-4">
        {deliveries.map((d) => (
          <li key={d.deliveryId} className="rounded-lg p-3 ring-1 ring-slate-200" data-testid="delivery" data-delivery-id={d.deliveryId}>
            <div className="flex flex-wrap items-center gap-2">
              <h4 className="text-sm font-semibold">
                {eventName(d.eventType).label} <code className="font-mono text-xs font-normal text-slate-600">{d.eventType}</code>
              </h4>
              <span
                className={`rounded-full px-2 py-0.5 text-xs font-semibold ring-1 ${TONES[d.status]}`}
                data-testid="delivery-status"
                data-status={d.status}
                title={`${d.status}: ${deliveryStateName(d.status).hint ?? ""}`}
              >
                {deliveryStateName(d.status).label}
              </span>
              <span className="text-sm text-slate-600">
                {d.attemptCount} attempt{d.attemptCount === 1 ? "" : "s"}
                {d.nextAttemptAt ? ` · next ${formatUtc(d.nextAttemptAt)}` : ""}
              </span>
            </div>
            <p className="mt-1 break-all text-sm text-slate-700">
              To <span className="font-mono">{d.url}</span> · message <span className="font-mono">{d.messageId}</span> · queued {formatUtc(d.createdAt)}
            </p>
            {d.attempts.length ? (
              <div className="mt-2">
                <ScrollRegion label={`Attempts of delivery ${d.deliveryId}`}>
                  <AttemptsTable
                    caption={`Attempts of the ${eventName(d.eventType).label} delivery`}
                    rows={d.attempts.map((a) => ({ attemptedAt: a.attemptedAt, succeeded: a.succeeded, code: a.statusCode, latencyMs: a.latencyMs, answer: a.error ?? a.responseBody }))}
                    succeeded="Delivered"
                    codeHeader="HTTP status"
                    answerHeader="Error or answer"
                    rowTestId="attempt"
                  />
                </ScrollRegion>
              </div>
            ) : (
              <p className="mt-2 text-sm text-slate-700">Not attempted yet.</p>
            )}
            <details className="mt-2">
              <summary className="cursor-pointer text-sm text-indigo-800 underline underline-offset-2">Body sent</summary>
              <pre role="region" aria-label={`Body of delivery ${d.deliveryId}`} tabIndex={0} className="mt-1 max-h-64 overflow-auto rounded bg-slate-50 p-2 text-xs focus-visible:outline-2 focus-visible:outline-indigo-700">{JSON.stringify(d.payload, null, 2)}</pre>
            </details>
            {canRedeliver ? (
              <div className="mt-2">
                <RedeliverButton deliveryId={d.deliveryId} eventType={d.eventType} action={action} />
              </div>
            ) : null}
          </li>
        ))}
      </ol>
    </section>
  );
}
