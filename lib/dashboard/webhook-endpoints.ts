import { z } from "zod";
import type { Db } from "@/db/client";
import { authorize } from "@/lib/accounts/authorize";
import { can } from "@/lib/accounts/roles";
import { notFound } from "@/lib/http/errors";
import { parseWith } from "@/lib/http/parse";
import { listBusinessDeliveries, ListDeliveriesQuerySchema } from "@/lib/webhooks/delivery-log";
import {
  CreateWebhookEndpointSchema,
  PatchWebhookEndpointSchema,
  RecoverEndpointSchema,
  RotateEndpointSecretSchema,
} from "@/lib/webhooks/endpoint-schemas";
import {
  createEndpoint,
  destroyEndpoint,
  endpointSecret,
  getEndpoint,
  patchEndpoint,
  recoverEndpoint,
  rotateEndpointSecret,
} from "@/lib/webhooks/endpoints";

/*
 * The dashboard's webhook endpoints: authorize (404 for a non-member, 403 for a role without the
 * permission), validate with the admin API's zod schemas, then call the admin API's own service
 * (lib/webhooks/endpoints.ts). An endpoint id that is not the business's is a 404.
 */

const EndpointId = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);

function endpointIdOf(businessId: number, value: unknown): number {
  const id = EndpointId.safeParse(value);
  if (!id.success) throw notFound(`No webhook endpoint ${String(value)} exists for business ${businessId}.`);
  return id.data;
}

/** One endpoint's page: the endpoint, its delivery log (`query` as the admin API reads it), and what the role may do. */
export async function endpointPage(db: Db, userId: string, businessId: unknown, endpointId: unknown, query: unknown) {
  const { business, role } = await authorize(db, userId, businessId, "view");
  const id = endpointIdOf(business.id, endpointId);
  const endpoint = await getEndpoint(db, business.id, id);
  const q = parseWith(ListDeliveriesQuerySchema, { ...(query as object), endpointId: String(id) }, "Query");
  const log = await listBusinessDeliveries(db, business.id, q, { testEvents: true });
  return { endpoint, log, allowed: { manageWebhooks: can(role, "manage-webhooks"), seeSecrets: can(role, "see-secrets") } };
}

/** A new endpoint; its secret is in the answer (and readable later by roles that may see secrets). */
export async function addEndpoint(db: Db, userId: string, businessId: unknown, input: unknown) {
  const { business } = await authorize(db, userId, businessId, "manage-webhooks");
  return createEndpoint(db, business.id, parseWith(CreateWebhookEndpointSchema, input));
}

/** Changes URL, description, filter or enabled flag; with `recoverSince` on re-enabling, resends what it missed since then. */
export async function editEndpoint(db: Db, userId: string, businessId: unknown, endpointId: unknown, input: unknown) {
  const { business } = await authorize(db, userId, businessId, "manage-webhooks");
  const id = endpointIdOf(business.id, endpointId);
  const { recoverSince, ...patch } = (input ?? {}) as { recoverSince?: unknown };
  const since = recoverSince ? parseWith(RecoverEndpointSchema, { since: recoverSince }).since : undefined;
  const endpoint = await patchEndpoint(db, business.id, id, parseWith(PatchWebhookEndpointSchema, patch));
  const recovered = since && endpoint.enabled ? await recoverEndpoint(db, business.id, id, new Date(since)) : null;
  return { endpoint, recovered };
}

export async function deleteEndpoint(db: Db, userId: string, businessId: unknown, endpointId: unknown) {
  const { business } = await authorize(db, userId, businessId, "manage-webhooks");
  return destroyEndpoint(db, business.id, endpointIdOf(business.id, endpointId));
}

export async function revealEndpointSecret(db: Db, userId: string, businessId: unknown, endpointId: unknown) {
  const { business } = await authorize(db, userId, businessId, "see-secrets");
  return endpointSecret(db, business.id, endpointIdOf(business.id, endpointId));
}

/** A new secret; the old one signs beside it for `overlapSeconds` (default 24 h). */
export async function rotateEndpoint(db: Db, userId: string, businessId: unknown, endpointId: unknown, input: unknown) {
  const { business } = await authorize(db, userId, businessId, "manage-webhooks");
  const { overlapSeconds } = parseWith(RotateEndpointSecretSchema, input ?? {});
  return rotateEndpointSecret(db, business.id, endpointIdOf(business.id, endpointId), overlapSeconds);
}

/** "Recover since" on an enabled endpoint. */
export async function recoverMissed(db: Db, userId: string, businessId: unknown, endpointId: unknown, input: unknown) {
  const { business } = await authorize(db, userId, businessId, "manage-webhooks");
  const { since } = parseWith(RecoverEndpointSchema, input);
  return recoverEndpoint(db, business.id, endpointIdOf(business.id, endpointId), new Date(since));
}
