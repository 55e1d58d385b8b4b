import { z } from "zod";
import type { Db } from "@/db/client";
import { apiKeyLastUses } from "@/db/queries/api-key-use";
import { findDelivery, listAttempts } from "@/db/queries/webhooks";
import { listEndpoints } from "@/db/queries/webhook-endpoints";
import { endpointView } from "@/lib/webhooks/endpoints";
import { inTransaction } from "@/db/transaction";
import { authorize } from "@/lib/accounts/authorize";
import { can } from "@/lib/accounts/roles";
import { createApiKey, listKeys, patchBusiness, revokeKey, rotateWebhookSecret } from "@/lib/businesses/businesses";
import { deliveryView, listBusinessDeliveries, ListDeliveriesQuerySchema } from "@/lib/webhooks/delivery-log";
import { CreateApiKeySchema, PatchBusinessSchema } from "@/lib/businesses/schemas";
import { notFound } from "@/lib/http/errors";
import { parseWith } from "@/lib/http/parse";
import { enqueueTestEvent } from "@/lib/webhooks/test-event";

/*
 * The dashboard's Developers section. Every function takes the signed-in user and the business
 * id as given (URL or form), makes the one check (`authorize`: 404 for a non-member, 403 for a
 * role without the permission) and then calls the admin API's own service function, so the
 * dashboard and the admin API cannot drift apart. Input is validated with the admin API's zod
 * schemas; their field errors reach the form.
 */

/** What the page shows: the business id, its keys with their last use, its webhook endpoints, and what the role may do. */
export async function developerOverview(db: Db, userId: string, businessId: unknown) {
  const { business, role } = await authorize(db, userId, businessId, "view");
  const [keys, uses, endpoints] = await Promise.all([listKeys(db, business.id), apiKeyLastUses(db, business.id), listEndpoints(db, business.id)]);
  return {
    businessId: business.id,
    mode: business.mode,
    /** The primary endpoint's URL (the admin API's `webhookUrl`). */
    webhookUrl: endpoints[0]?.url ?? null,
    endpoints: endpoints.map(endpointView),
    keys: keys.map((k) => ({ ...k, lastUsedAt: uses.get(k.keyId)?.toISOString() ?? null })),
    allowed: {
      manageKeys: can(role, "manage-keys"),
      manageWebhooks: can(role, "manage-webhooks"),
      seeSecrets: can(role, "see-secrets"),
    },
  };
}
export type DeveloperOverview = Awaited<ReturnType<typeof developerOverview>>;

/** A new API key for the business; its token is in the answer and nowhere else, ever. */
export async function createKey(db: Db, userId: string, businessId: unknown, input: unknown) {
  const { business } = await authorize(db, userId, businessId, "manage-keys");
  return createApiKey(db, business.id, parseWith(CreateApiKeySchema, input ?? {}));
}

const KeyId = z.string().regex(/^key_[A-Za-z0-9_-]{1,64}$/, "must be a key id (key_…)");

/** Revokes one of the business's own keys: another business's key id is a 404, like an unknown one. */
export async function revokeBusinessKey(db: Db, userId: string, businessId: unknown, keyId: unknown) {
  const { business } = await authorize(db, userId, businessId, "manage-keys");
  const id = KeyId.safeParse(keyId);
  if (!id.success) throw notFound(`No active API key ${String(keyId)} belongs to business ${business.id}.`);
  return revokeKey(db, business.id, id.data);
}

const WebhookUrlInput = PatchBusinessSchema.pick({ webhookUrl: true }).required();

/** Sets (or, given "" or null, removes) the business's webhook URL, under the rules of its mode. */
export async function setWebhookUrl(db: Db, userId: string, businessId: unknown, url: unknown) {
  const { business } = await authorize(db, userId, businessId, "manage-webhooks");
  const webhookUrl = typeof url === "string" && url.trim() === "" ? null : typeof url === "string" ? url.trim() : url;
  const patch = parseWith(WebhookUrlInput, { webhookUrl });
  return { webhookUrl: (await patchBusiness(db, business.id, patch)).webhookUrl };
}

/** The business's signing secret (it signs `notifyUrl` deliveries), for roles that may see secrets (never rendered into a page by default). */
export async function revealWebhookSecret(db: Db, userId: string, businessId: unknown) {
  const { business } = await authorize(db, userId, businessId, "see-secrets");
  return { webhookSecret: business.webhookSecret };
}

/** A new signing secret; every delivery attempt from now on is signed with it. */
export async function rotateSecret(db: Db, userId: string, businessId: unknown) {
  const { business } = await authorize(db, userId, businessId, "manage-webhooks");
  return rotateWebhookSecret(db, business.id);
}

/**
 * Puts a signed test event for one endpoint (by default the primary one) in the outbox; the
 * background driver delivers it. Another business's endpoint id is a 404.
 */
export async function sendTestEvent(db: Db, userId: string, businessId: unknown, endpointId?: unknown, now = new Date()) {
  const { business } = await authorize(db, userId, businessId, "manage-webhooks");
  const endpoints = await listEndpoints(db, business.id);
  const endpoint = endpointId === undefined ? endpoints[0] : endpoints.find((e) => e.id === Number(endpointId));
  if (endpointId !== undefined && !endpoint) throw notFound(`No webhook endpoint ${String(endpointId)} exists for business ${business.id}.`);
  const delivery = await inTransaction(db, (tx) => enqueueTestEvent(tx, business, endpoint, now));
  return deliveryView(delivery, []);
}

/** The delivery log across payments, newest first; `query` as the admin API reads it (status, PageNumber, PageSize). */
export async function deliveryLog(db: Db, userId: string, businessId: unknown, query: unknown) {
  const { business } = await authorize(db, userId, businessId, "view");
  return listBusinessDeliveries(db, business.id, parseWith(ListDeliveriesQuerySchema, query ?? {}, "Query"), { testEvents: true });
}

/** One delivery of the business with every attempt; another business's delivery id is a 404. */
export async function deliveryDetail(db: Db, userId: string, businessId: unknown, deliveryId: unknown) {
  const { business } = await authorize(db, userId, businessId, "view");
  const id = typeof deliveryId === "number" ? deliveryId : Number(deliveryId);
  const missing = () => notFound(`No webhook delivery ${String(deliveryId)} exists for business ${business.id}.`);
  if (!Number.isSafeInteger(id) || id < 1) throw missing();
  const delivery = await findDelivery(db, business.id, id);
  if (!delivery) throw missing();
  return deliveryView(delivery, await listAttempts(db, id));
}
