import Link from "next/link";
import { deliveryStateName, eventName } from "../names";
import { buttonClass, formatTime, inputClass } from "./form-controls";

type Attempt = { attemptedAt: string; succeeded: boolean; statusCode: number | null; latencyMs: number; error: string | null };
type Delivery = {
  deliveryId: number;
  paymentId: string | null;
  eventType: string;
  url: string;
  status: string;
  attemptCount: number;
  nextAttemptAt: string | null;
  createdAt: string;
  attempts: Attempt[];
};
type Page = { items: Delivery[]; pageNumber: number; totalPages: number; totalCount: number };

const STATUS_STYLE: Record<string, string> = {
  succeeded: "bg-emerald-100 text-emerald-900",
  pending: "bg-amber-100 text-amber-900",
  failed: "bg-red-100 text-red-900",
};

/**
 * The webhook delivery log across payments (the admin API's, read through the dashboard's
 * service): newest first, filtered by status with a plain GET form (works without JavaScript),
 * each delivery's attempts behind a disclosure. Cards, not a table, so it reads on a phone.
 */
export function DeliveryLog({ base, page, status, statuses }: { base: string; page: Page; status: string | undefined; statuses: readonly string[] }) {
  const link = (n: number) => `${base}?${new URLSearchParams({ ...(status && { status }), page: String(n) })}#deliveries`;
  return (
    <div className="space-y-4">
      <form method="get" action={`${base}#deliveries`} className="flex flex-wrap items-end gap-3">
        <div>
          <label htmlFor="delivery-status" className="block text-sm font-medium text-slate-800">Status</label>
          <select id="delivery-status" name="status" defaultValue={status ?? ""} className={`${inputClass} w-44`}>
            <option value="">All</option>
            {statuses.map((s) => (
              <option key={s} value={s}>{deliveryStateName(s).label} ({s})</option>
            ))}
          </select>
        </div>
        <button type="submit" className={buttonClass.secondary}>Filter</button>
      </form>
      <p className="text-sm text-slate-700" aria-live="polite">
        {page.totalCount} {page.totalCount === 1 ? "delivery" : "deliveries"}{status ? ` with status ${deliveryStateName(status).label} (${status})` : ""}
      </p>
      {page.items.length ? (
        <ul className="space-y-3" aria-label="Webhook deliveries">
          {page.items.map((d) => (
            <li key={d.deliveryId} className="rounded-xl bg-white p-4 ring-1 ring-slate-200" data-testid="delivery-row" data-event-type={d.eventType} data-status={d.status}>
              <div className="flex flex-wrap items-center gap-2">
                <span className="text-sm font-semibold text-slate-900">
                  {eventName(d.eventType).label} <code className="font-mono text-xs font-normal text-slate-600">{d.eventType}</code>
                </span>
                <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${STATUS_STYLE[d.status] ?? ""}`} title={`${d.status}: ${deliveryStateName(d.status).hint ?? ""}`}>
                  {deliveryStateName(d.status).label}
                </span>
                <span className="text-sm text-slate-600">#{d.deliveryId} · {formatTime(d.createdAt)}</span>
              </div>
              <p className="mt-1 break-all text-sm text-slate-700">
                {d.paymentId ? <>Payment <code className="font-mono">{d.paymentId}</code></> : "Test event (no payment)"} → {d.url}
              </p>
              <details className="mt-2">
                <summary className="cursor-pointer text-sm font-medium text-indigo-800 underline-offset-2 hover:underline">
                  {d.attemptCount} {d.attemptCount === 1 ? "attempt" : "attempts"}{d.nextAttemptAt ? ` · next ${formatTime(d.nextAttemptAt)}` : ""}
                </summary>
                {d.attempts.length ? (
                  <ol className="mt-2 space-y-1 text-sm text-slate-800">
                    {d.attempts.map((a, i) => (
                      <li key={i}>
                        {formatTime(a.attemptedAt)}: {a.succeeded ? "delivered" : "failed"}
                        {a.statusCode !== null ? `, HTTP ${a.statusCode}` : ""}, {a.latencyMs} ms{a.error ? ` — ${a.error}` : ""}
                      </li>
                    ))}
                  </ol>
                ) : (
                  <p className="mt-2 text-sm text-slate-700">Not attempted yet.</p>
                )}
              </details>
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-slate-700">No deliveries{status ? ` with status ${deliveryStateName(status).label} (${status})` : ""} yet.</p>
      )}
      {page.totalPages > 1 ? (
        <nav aria-label="Delivery log pages" className="flex items-center gap-3 text-sm">
          {page.pageNumber > 1 ? <Link className="font-medium text-indigo-800 underline" href={link(page.pageNumber - 1)}>Newer</Link> : null}
          <span className="text-slate-700">Page {page.pageNumber} of {page.totalPages}</span>
          {page.pageNumber < page.totalPages ? <Link className="font-medium text-indigo-800 underline" href={link(page.pageNumber + 1)}>Older</Link> : null}
        </nav>
      ) : null}
    </div>
  );
}
