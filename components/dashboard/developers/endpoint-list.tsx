import Link from "next/link";
import type { EndpointView } from "@/lib/webhooks/endpoints";
import { eventName } from "../names";
import { formatTime } from "./form-controls";

/** An endpoint's state in words: enabled, turned off, or disabled after 5 days of failures. */
export function EndpointState({ endpoint: e }: { endpoint: EndpointView }) {
  if (e.enabled) {
    return e.failingSince ? (
      <span className="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900" data-testid="endpoint-state">
        Failing since {formatTime(e.failingSince)}
      </span>
    ) : (
      <span className="rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-semibold text-emerald-900" data-testid="endpoint-state">Enabled</span>
    );
  }
  return (
    <span className="rounded-full bg-red-100 px-2 py-0.5 text-xs font-semibold text-red-900" data-testid="endpoint-state">
      {e.disabledReason === "failing"
        ? `Disabled ${formatTime(e.disabledAt)}: every attempt failed for 5 days`
        : `Disabled by a team member ${formatTime(e.disabledAt)}`}
    </span>
  );
}

export function eventFilterText(types: string[] | null): string {
  return types ? types.map((t) => eventName(t).label).join(", ") : "All events";
}

/** The business's endpoints, oldest (the primary one) first, each linking to its own page. */
export function EndpointList({ base, endpoints }: { base: string; endpoints: EndpointView[] }) {
  if (endpoints.length === 0) return <p className="text-slate-700">No endpoints yet: events are recorded but not sent.</p>;
  return (
    <ul className="space-y-3" aria-label="Webhook endpoints">
      {endpoints.map((e, i) => (
        <li key={e.endpointId} className="rounded-xl bg-white p-4 ring-1 ring-slate-200" data-testid="endpoint-row" data-endpoint-id={e.endpointId}>
          <div className="flex flex-wrap items-center gap-2">
            <Link href={`${base}/webhooks/${e.endpointId}`} className="break-all font-mono text-sm font-semibold text-indigo-800 underline">
              {e.url}
            </Link>
            {i === 0 ? <span className="text-xs font-semibold text-slate-600">Primary</span> : null}
            <EndpointState endpoint={e} />
          </div>
          {e.description ? <p className="mt-1 text-sm text-slate-800">{e.description}</p> : null}
          <p className="mt-1 text-sm text-slate-600">Events: {eventFilterText(e.eventTypes)}</p>
        </li>
      ))}
    </ul>
  );
}
