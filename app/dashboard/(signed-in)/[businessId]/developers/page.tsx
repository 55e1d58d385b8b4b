import type { Metadata } from "next";
import { CopyButton } from "@/components/checkout/copy-button";
import { ApiKeys } from "@/components/dashboard/developers/api-keys";
import { DeliveryLog } from "@/components/dashboard/developers/delivery-log";
import { WebhookSettings } from "@/components/dashboard/developers/webhook-settings";
import { EndpointForm } from "@/components/dashboard/developers/endpoint-form";
import { EndpointList } from "@/components/dashboard/developers/endpoint-list";
import { EVENT_TYPES } from "@/domain/events";
import { sectionCard, SectionTitle } from "@/components/dashboard/mode-badge";
import { getDb } from "@/db/client";
import { requireMember } from "@/lib/accounts/session";
import { DELIVERY_STATUSES } from "@/lib/webhooks/delivery-log";
import { deliveryLog, developerOverview } from "@/lib/dashboard/developers";
import {
  addEndpointAction,
  createKeyAction,
  deliveryAction,
  revealSecretAction,
  revokeKeyAction,
  rotateSecretAction,
  sendTestEventAction,
  setWebhookUrlAction,
} from "./actions";

export const metadata: Metadata = { title: "Developers · Merchant dashboard" };

type Search = { status?: string | string[]; page?: string | string[] };

/** The log's query from the URL: an unknown status or page reads as none (the whole log, page 1). */
function logQuery(search: Search) {
  const status = typeof search.status === "string" && (DELIVERY_STATUSES as readonly string[]).includes(search.status) ? search.status : undefined;
  const page = typeof search.page === "string" && /^[1-9][0-9]{0,5}$/.test(search.page) ? search.page : undefined;
  return { status, query: { ...(status && { status }), ...(page && { PageNumber: page }), PageSize: "20" } };
}

export default async function DevelopersPage({ params, searchParams }: { params: Promise<{ businessId: string }>; searchParams: Promise<Search> }) {
  const { user, business } = await requireMember((await params).businessId);
  const db = await getDb();
  const { status, query } = logQuery(await searchParams);
  const [overview, log] = await Promise.all([developerOverview(db, user.id, business.id), deliveryLog(db, user.id, business.id, query)]);
  const base = `/dashboard/${business.id}/developers`;
  return (
    <main className="space-y-6">
      <SectionTitle title="Developers" mode={business.mode} />

      <section aria-labelledby="business-id" className={sectionCard}>
        <h3 id="business-id" className="font-semibold text-slate-900">Business id</h3>
        <div className="mt-2 flex flex-wrap items-center gap-2">
          <code className="rounded bg-slate-100 px-2 py-1 font-mono text-sm" data-testid="business-id">{business.id}</code>
          <CopyButton value={String(business.id)} what="business id" />
        </div>
        <p className="mt-2 text-sm text-slate-700">
          API calls address it: <code className="break-all">/v1/businesses/{business.id}/payments</code>.{" "}
          {business.mode === "test" ? "Test mode: payments are simulated." : "Live mode: payments are real."}
        </p>
      </section>

      <section aria-labelledby="api-keys" className={sectionCard}>
        <h3 id="api-keys" className="mb-3 font-semibold text-slate-900">API keys</h3>
        <ApiKeys businessId={business.id} keys={overview.keys} canManage={overview.allowed.manageKeys} actions={{ create: createKeyAction, revoke: revokeKeyAction }} />
      </section>

      <section aria-labelledby="webhooks" className={sectionCard}>
        <h3 id="webhooks" className="mb-3 font-semibold text-slate-900">Webhooks</h3>
        <WebhookSettings
          businessId={business.id}
          webhookUrl={overview.webhookUrl}
          mode={business.mode}
          allowed={overview.allowed}
          actions={{ setUrl: setWebhookUrlAction, reveal: revealSecretAction, rotate: rotateSecretAction, sendTest: sendTestEventAction, delivery: deliveryAction }}
        />
        <h3 id="endpoints" className="mb-3 mt-6 font-semibold text-slate-900">Endpoints ({overview.endpoints.length} of 10)</h3>
        <EndpointList base={base} endpoints={overview.endpoints} />
        {overview.allowed.manageWebhooks && overview.endpoints.length < 10 ? (
          <details className="mt-4">
            <summary className="cursor-pointer font-medium text-indigo-800">Add an endpoint</summary>
            <div className="mt-3">
              <EndpointForm eventTypes={EVENT_TYPES} base={base} save={addEndpointAction.bind(null, business.id)} />
            </div>
          </details>
        ) : null}
      </section>

      <section aria-labelledby="deliveries-heading" id="deliveries" className={sectionCard}>
        <h3 id="deliveries-heading" className="mb-3 font-semibold text-slate-900">Delivery log</h3>
        <DeliveryLog base={base} page={log} status={status} statuses={DELIVERY_STATUSES} />
      </section>
    </main>
  );
}
