"use server";

import { asUser } from "@/lib/accounts/session";
import { refresh } from "next/cache";
import { getDb } from "@/db/client";
import * as settings from "@/lib/dashboard/settings";
import * as monero from "@/lib/dashboard/monero-settings";
import * as solana from "@/lib/dashboard/solana-settings";
import * as ton from "@/lib/dashboard/ton-settings";

/* The Settings page's server actions: thin shells over lib/dashboard/settings.ts, which authorizes and validates. */

export async function previewAddressesAction(businessId: number, input: { family: string; key: string }) {
  return asUser(async (u) => settings.previewAddresses(await getDb(), u.id, businessId, input));
}

export async function saveSettingsAction(businessId: number, input: unknown, confirmedKeys: string[]) {
  const result = await asUser(async (u) => settings.saveSettings(await getDb(), u.id, businessId, input, confirmedKeys));
  if (result.ok) refresh(); // the header shows the business's name
  return result;
}

/** Uploads the checkout logo (the form's `logo` file) or, with `remove`, removes it. */
export async function saveLogoAction(businessId: number, form: FormData) {
  const file = form.get("remove") === "1" ? null : (form.get("logo") ?? undefined);
  const result = await asUser(async (u) => settings.saveLogo(await getDb(), u.id, businessId, file));
  if (result.ok) refresh(); // the page shows the new logo
  return result;
}

/** Sets the business's Monero wallet (address, private view key, restore height); `remove` forgets it. */
export async function saveMoneroWalletAction(businessId: number, input: unknown, remove = false) {
  const result = await asUser(async (u) => (remove ? monero.removeMoneroSettings(await getDb(), u.id, businessId) : monero.saveMoneroSettings(await getDb(), u.id, businessId, input)));
  if (result.ok) refresh();
  return result;
}

/** Sets the business's Solana wallet address; an empty one removes it. */
export async function saveSolanaWalletAction(businessId: number, input: unknown) {
  const result = await asUser(async (u) => solana.saveSolanaSettings(await getDb(), u.id, businessId, input));
  if (result.ok) refresh();
  return result;
}

/** Sets the business's TON wallet address; an empty one removes it. */
export async function saveTonWalletAction(businessId: number, input: unknown) {
  const result = await asUser(async (u) => ton.saveTonSettings(await getDb(), u.id, businessId, input));
  if (result.ok) refresh();
  return result;
}

/** Assigns money awaiting review to a payment, or leaves it. */
export async function resolveTonReviewAction(businessId: number, input: unknown) {
  const result = await asUser(async (u) => ton.resolveTonReview(await getDb(), u.id, businessId, input));
  if (result.ok) refresh();
  return result;
}
