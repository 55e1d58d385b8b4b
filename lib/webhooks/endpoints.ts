import type { Db, Tx } from "@/db/client";
import { findBusiness } from "@/db/queries/businesses";
import {
  countEndpoints,
  deleteEndpoint,
  findEndpoint,
  holdEndpointDeliveries,
  insertEndpoint,
  listEndpoints,
  lockBusinessEndpoints,
  requeueEndpointDeliveries,
  updateEndpoint,
} from "@/db/queries/webhook-endpoints";
import type { Business, WebhookEndpointRow } from "@/db/schema";
import { inTransaction } from "@/db/transaction";
import type { EventType } from "@/domain/events";
import { publish } from "@/lib/events/bus";
import { conflict, invalidField, notFound } from "@/lib/http/errors";
import { webhookUrlProblem } from "@/lib/http/url-safety";
import {
  DEFAULT_OVERLAP_SECONDS,
  MAX_ENDPOINTS,
  type CreateWebhookEndpointInput,
  type PatchWebhookEndpointInput,
} from "./endpoint-schemas";
import { newWebhookSecret } from "./sign";

/*
 * A business's webhook endpoints (admin API and dashboard alike): each with its own URL, secret,
 * event filter and enabled flag. Events fan out to every matching endpoint (lib/payments/outbox.ts);
 * a payment's own `notifyUrl` replaces them for that payment and is signed with the business's
 * secret (`businesses.webhook_secret`).
 */

/** Whether an event of `type` goes to the endpoint (null filter: every type). */
export function endpointReceives(endpoint: Pick<WebhookEndpointRow, "eventTypes">, type: EventType | string): boolean {
  return endpoint.eventTypes === null || endpoint.eventTypes.includes(type);
}

/** The secrets that sign a message sent at `at`: the current one, and the previous one during its overlap. */
export function signingSecrets(endpoint: WebhookEndpointRow, at: Date): string[] {
  const { previousSecret, previousSecretExpiresAt } = endpoint;
  return previousSecret && previousSecretExpiresAt && previousSecretExpiresAt > at ? [endpoint.secret, previousSecret] : [endpoint.secret];
}

/** The endpoint as the API shows it: never its secret. */
export function endpointView(e: WebhookEndpointRow) {
  return {
    endpointId: e.id,
    url: e.url,
    description: e.description,
    eventTypes: e.eventTypes as EventType[] | null,
    enabled: e.enabled,
    disabledReason: e.disabledReason,
    disabledAt: e.disabledAt?.toISOString() ?? null,
    failingSince: e.failingSince?.toISOString() ?? null,
    previousSecretExpiresAt: e.previousSecret ? (e.previousSecretExpiresAt?.toISOString() ?? null) : null,
    createdAt: e.createdAt.toISOString(),
    updatedAt: e.updatedAt.toISOString(),
  };
}
export type EndpointView = ReturnType<typeof endpointView>;

async function requireBusiness(db: Tx, id: number): Promise<Business> {
  const b = await findBusiness(db, id);
  if (!b) throw notFound(`No business ${id} exists.`);
  return b;
}

async function requireEndpoint(db: Tx, businessId: number, id: number): Promise<WebhookEndpointRow> {
  const e = await findEndpoint(db, businessId, id);
  if (!e) throw notFound(`No webhook endpoint ${id} exists for business ${businessId}.`);
  return e;
}

/** D7: the URL under the rules of the business's mode. */
export function checkEndpointUrl(url: string, mode: Business["mode"], field = "url") {
  const problem = webhookUrlProblem(url, mode);
  if (problem) throw invalidField(field, problem);
}

const uniqueTypes = (types: EventType[] | null | undefined) => (types ? [...new Set(types)] : types);

export async function listBusinessEndpoints(db: Db, businessId: number) {
  await requireBusiness(db, businessId);
  return (await listEndpoints(db, businessId)).map(endpointView);
}

export async function getEndpoint(db: Db, businessId: number, id: number) {
  await requireBusiness(db, businessId);
  return endpointView(await requireEndpoint(db, businessId, id));
}

/**
 * Adds an endpoint with a new secret (or `secret`, the business's own for an endpoint made through
 * the `webhookUrl` field), in the caller's transaction. At most MAX_ENDPOINTS: the count is read
 * with the business row locked, so two concurrent adds cannot pass it together.
 */
export async function addEndpoint(tx: Tx, business: Business, input: CreateWebhookEndpointInput, opts: { secret?: string; now?: Date } = {}) {
  checkEndpointUrl(input.url, business.mode);
  await lockBusinessEndpoints(tx, business.id);
  if ((await countEndpoints(tx, business.id)) >= MAX_ENDPOINTS) {
    throw conflict(`A business has at most ${MAX_ENDPOINTS} webhook endpoints: delete one first.`);
  }
  const now = opts.now ?? new Date();
  return insertEndpoint(tx, {
    businessId: business.id,
    url: input.url,
    secret: opts.secret ?? newWebhookSecret(),
    description: input.description ?? "",
    eventTypes: uniqueTypes(input.eventTypes) ?? null,
    enabled: input.enabled ?? true,
    disabledReason: input.enabled === false ? "manual" : null,
    disabledAt: input.enabled === false ? now : null,
    createdAt: now,
    updatedAt: now,
  });
}

/** The admin API's create: the endpoint and, shown once here, its secret. */
export async function createEndpoint(db: Db, businessId: number, input: CreateWebhookEndpointInput) {
  const business = await requireBusiness(db, businessId);
  const row = await inTransaction(db, (tx) => addEndpoint(tx, business, input));
  return { ...endpointView(row), secret: row.secret };
}

/** Disabling holds what is pending; enabling ends the failing streak (what was missed waits for `recover`). */
export async function changeEndpoint(tx: Tx, business: Business, current: WebhookEndpointRow, input: PatchWebhookEndpointInput, now = new Date()) {
  if (input.url !== undefined) checkEndpointUrl(input.url, business.mode);
  const enabling = input.enabled === true && !current.enabled;
  const disabling = input.enabled === false && current.enabled;
  const row = await updateEndpoint(tx, business.id, current.id, {
    ...(input.url !== undefined && { url: input.url }),
    ...(input.description !== undefined && { description: input.description }),
    ...(input.eventTypes !== undefined && { eventTypes: uniqueTypes(input.eventTypes) }),
    ...(enabling && { enabled: true, disabledReason: null, disabledAt: null, failingSince: null }),
    ...(disabling && { enabled: false, disabledReason: "manual" as const, disabledAt: now }),
    updatedAt: now,
  });
  if (!row) throw notFound(`No webhook endpoint ${current.id} exists for business ${business.id}.`);
  if (disabling) await holdEndpointDeliveries(tx, current.id, now);
  return row;
}

export async function patchEndpoint(db: Db, businessId: number, id: number, input: PatchWebhookEndpointInput) {
  const business = await requireBusiness(db, businessId);
  return endpointView(
    await inTransaction(db, async (tx) => changeEndpoint(tx, business, await requireEndpoint(tx, businessId, id), input)),
  );
}

/** Removes an endpoint in the caller's transaction; its pending deliveries stop (the log keeps them). */
export async function removeEndpoint(tx: Tx, businessId: number, id: number, now = new Date()) {
  await requireEndpoint(tx, businessId, id);
  await holdEndpointDeliveries(tx, id, now);
  return (await deleteEndpoint(tx, businessId, id))!;
}

export async function destroyEndpoint(db: Db, businessId: number, id: number) {
  await requireBusiness(db, businessId);
  const row = await inTransaction(db, (tx) => removeEndpoint(tx, businessId, id));
  return { endpointId: row.id, deleted: true as const };
}

export async function endpointSecret(db: Db, businessId: number, id: number) {
  await requireBusiness(db, businessId);
  const e = await requireEndpoint(db, businessId, id);
  return { secret: e.secret, previousSecretExpiresAt: endpointView(e).previousSecretExpiresAt };
}

/**
 * A new secret; the old one keeps signing beside it for `overlapSeconds` (default 24 h), so a
 * receiver that has not switched yet still verifies every message meanwhile.
 */
export async function rotateEndpointSecret(db: Db, businessId: number, id: number, overlapSeconds = DEFAULT_OVERLAP_SECONDS, now = new Date()) {
  await requireBusiness(db, businessId);
  const current = await requireEndpoint(db, businessId, id);
  const secret = newWebhookSecret();
  const expires = overlapSeconds > 0 ? new Date(now.getTime() + overlapSeconds * 1000) : null;
  const row = (await updateEndpoint(db, businessId, id, {
    secret,
    previousSecret: expires ? current.secret : null,
    previousSecretExpiresAt: expires,
    updatedAt: now,
  }))!;
  return { secret, previousSecretExpiresAt: endpointView(row).previousSecretExpiresAt };
}

/**
 * "Recover since": the endpoint's failed deliveries created at or after `since` (what it missed
 * while disabled, and messages whose retries ran out) are sent again now, on a fresh schedule,
 * with their message ids. The endpoint must be enabled. Answers how many were queued.
 */
export async function recoverEndpoint(db: Db, businessId: number, id: number, since: Date, now = new Date()) {
  await requireBusiness(db, businessId);
  if (since > now) throw invalidField("since", "must not be in the future");
  const queued = await inTransaction(db, async (tx) => {
    const e = await requireEndpoint(tx, businessId, id);
    if (!e.enabled) throw conflict("This endpoint is disabled: enable it before recovering what it missed.");
    // Nothing was delivered before 1970; an earlier time (the year 0 even) means "everything".
    const rows = await requeueEndpointDeliveries(tx, id, since.getTime() < 0 ? new Date(0) : since, now);
    for (const d of rows) publish(tx, { kind: "delivery", deliveryId: d.id, messageId: d.messageId, paymentId: d.paymentId });
    return rows.length;
  });
  return { endpointId: id, queued };
}
