import type { Metadata } from "next";
import Link from "next/link";
import { DeliveryLog } from "@/components/dashboard/developers/delivery-log";
import { EndpointControls } from "@/components/dashboard/developers/endpoint-controls";
import { EndpointForm } from "@/components/dashboard/developers/endpoint-form";
import { EndpointState, eventFilterText } from "@/components/dashboard/developers/endpoint-list";
import { sectionCard, SectionTitle } from "@/components/dashboard/mode-badge";
import { getDb } from "@/db/client";
import { EVENT_TYPES } from "@/domain/events";
import { requireMember } from "@/lib/accounts/session";
import { endpointPage } from "@/lib/dashboard/webhook-endpoints";
import { DELIVERY_STATUSES } from "@/lib/webhooks/delivery-log";
import {
  deleteEndpointAction,
  editEndpointAction,
  recoverEndpointAction,
  revealEndpointSecretAction,
  rotateEndpointSecretAction,
  sendEndpointTestAction,
} from "../../actions";

export const metadata: Metadata = { title: "Webhook endpoint · Merchant dashboard" };

type Search = { status?: string | string[]; page?: string | string[] };

/** One endpoint: its state, settings, secret, recovery and its own delivery log. */
export default async function EndpointPage({ params, searchParams }: { params: Promise<{ businessId: string; endpointId: string }>; searchParams: Promise<Search> }) {
  const { businessId, endpointId } = await params;
  const { user, business } = await requireMember(businessId);
  const search = await searchParams;
  const status = typeof search.status === "string" && (DELIVERY_STATUSES as readonly string[]).includes(search.status) ? search.status : undefined;
  const page = typeof search.page === "string" && /^[1-9][0-9]{0,5}$/.test(search.page) ? search.page : undefined;
  const { endpoint: e, log, allowed } = await endpointPage(await getDb(), user.id, business.id, endpointId, {
    ...(status && { status }),
    ...(page && { PageNumber: page }),
    PageSize: "20",
  });
  const developers = `/dashboard/${business.id}/developers`;
  const base = `${developers}/webhooks/${e.endpointId}`;
  const id = e.endpointId;
  return (
    <main className="space-y-6">
      <SectionTitle title="Webhook endpoint" mode={business.mode} />
      <p><Link href={`${developers}#webhooks`} className="text-sm font-medium text-indigo-800 underline">All endpoints</Link></p>

      <section aria-labelledby="endpoint" className={sectionCard}>
        <h3 id="endpoint" className="break-all font-mono font-semibold text-slate-900">{e.url}</h3>
        <div className="mt-2 flex flex-wrap items-center gap-2"><EndpointState endpoint={e} /></div>
        {e.description ? <p className="mt-2 text-slate-800">{e.description}</p> : null}
        <p className="mt-1 text-sm text-slate-700">Events: {eventFilterText(e.eventTypes)}</p>
        <div className="mt-4">
          <EndpointControls
            endpoint={e}
            allowed={allowed}
            listHref={developers}
            actions={{
              edit: editEndpointAction.bind(null, business.id, id),
              reveal: revealEndpointSecretAction.bind(null, business.id, id),
              rotate: rotateEndpointSecretAction.bind(null, business.id, id),
              recover: recoverEndpointAction.bind(null, business.id, id),
              sendTest: sendEndpointTestAction.bind(null, business.id, id),
              remove: deleteEndpointAction.bind(null, business.id, id),
            }}
          />
        </div>
      </section>

      {allowed.manageWebhooks ? (
        <section aria-labelledby="edit-endpoint-heading" className={sectionCard}>
          <h3 id="edit-endpoint-heading" className="mb-3 font-semibold text-slate-900">Settings</h3>
          <EndpointForm eventTypes={EVENT_TYPES} base={developers} initial={e} save={editEndpointAction.bind(null, business.id, id)} />
        </section>
      ) : null}

      <section aria-labelledby="deliveries-heading" id="deliveries" className={sectionCard}>
        <h3 id="deliveries-heading" className="mb-3 font-semibold text-slate-900">Delivery log of this endpoint</h3>
        <DeliveryLog base={base} page={log} status={status} statuses={DELIVERY_STATUSES} />
      </section>
    </main>
  );
}
