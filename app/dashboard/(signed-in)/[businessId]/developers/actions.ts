"use server";

import { refresh } from "next/cache";
import { getDb } from "@/db/client";
import { asUser, type ActionResult, type DashboardUser } from "@/lib/accounts/session";
import * as developers from "@/lib/dashboard/developers";
import * as endpoints from "@/lib/dashboard/webhook-endpoints";

/*
 * The Developers page's server actions: thin shells. The browser may send anything, so every
 * argument goes to the service as `unknown`; the service authorizes the user for the business
 * and validates the rest (lib/dashboard/developers.ts).
 */

async function change<T>(work: (user: DashboardUser) => Promise<T>): Promise<ActionResult<T>> {
  const result = await asUser(work);
  if (result.ok) refresh(); // the page's lists show the change
  return result;
}

export async function createKeyAction(businessId: number, input: unknown) {
  return change(async (u) => developers.createKey(await getDb(), u.id, businessId, input));
}

export async function revokeKeyAction(businessId: number, keyId: string) {
  return change(async (u) => developers.revokeBusinessKey(await getDb(), u.id, businessId, keyId));
}

export async function setWebhookUrlAction(businessId: number, url: string) {
  return change(async (u) => developers.setWebhookUrl(await getDb(), u.id, businessId, url));
}

export async function revealSecretAction(businessId: number) {
  return asUser(async (u) => developers.revealWebhookSecret(await getDb(), u.id, businessId));
}

export async function rotateSecretAction(businessId: number) {
  return asUser(async (u) => developers.rotateSecret(await getDb(), u.id, businessId));
}

export async function sendTestEventAction(businessId: number) {
  return change(async (u) => developers.sendTestEvent(await getDb(), u.id, businessId));
}

/** One delivery, for following a test event until its first attempt is recorded. */
export async function deliveryAction(businessId: number, deliveryId: number) {
  return asUser(async (u) => developers.deliveryDetail(await getDb(), u.id, businessId, deliveryId));
}

export async function addEndpointAction(businessId: number, input: unknown) {
  return change(async (u) => endpoints.addEndpoint(await getDb(), u.id, businessId, input));
}

export async function editEndpointAction(businessId: number, endpointId: number, input: unknown) {
  return change(async (u) => endpoints.editEndpoint(await getDb(), u.id, businessId, endpointId, input));
}

export async function deleteEndpointAction(businessId: number, endpointId: number) {
  return asUser(async (u) => endpoints.deleteEndpoint(await getDb(), u.id, businessId, endpointId));
}

export async function revealEndpointSecretAction(businessId: number, endpointId: number) {
  return asUser(async (u) => endpoints.revealEndpointSecret(await getDb(), u.id, businessId, endpointId));
}

export async function rotateEndpointSecretAction(businessId: number, endpointId: number, input: unknown) {
  return change(async (u) => endpoints.rotateEndpoint(await getDb(), u.id, businessId, endpointId, input));
}

export async function recoverEndpointAction(businessId: number, endpointId: number, input: unknown) {
  return change(async (u) => endpoints.recoverMissed(await getDb(), u.id, businessId, endpointId, input));
}

export async function sendEndpointTestAction(businessId: number, endpointId: number) {
  return change(async (u) => developers.sendTestEvent(await getDb(), u.id, businessId, endpointId));
}
