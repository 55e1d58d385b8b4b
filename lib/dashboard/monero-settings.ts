import type { Db } from "@/db/client";
import { findMoneroWallet } from "@/db/queries/monero";
import { authorize } from "@/lib/accounts/authorize";
import { MoneroWalletInputSchema, removeMoneroWallet, setMoneroWallet, VIEW_KEY_NOTE, type MoneroWalletView } from "@/lib/businesses/monero-wallet";
import { parseWith } from "@/lib/http/parse";

/*
 * The Settings page's Monero wallet (owners: `manage-settings`): the admin API's rules
 * (lib/businesses/monero-wallet.ts), whichever way the keys are given. The view key is asked
 * for, stored and never shown again; no spend key is ever asked for.
 */

export type MoneroSettingsView = { wallet: { primaryAddress: string; restoreHeight: number; walletCreated: boolean } | null; note: string };

export async function moneroSettingsOf(db: Db, userId: string, businessId: unknown): Promise<MoneroSettingsView> {
  const { business } = await authorize(db, userId, businessId, "manage-settings");
  const row = await findMoneroWallet(db, business.id);
  const wallet = row && { primaryAddress: row.primaryAddress, restoreHeight: row.restoreHeight, walletCreated: row.walletCreatedAt !== null };
  return { wallet: wallet ?? null, note: VIEW_KEY_NOTE };
}

export async function saveMoneroSettings(db: Db, userId: string, businessId: unknown, input: unknown): Promise<MoneroWalletView> {
  const { business } = await authorize(db, userId, businessId, "manage-settings");
  return setMoneroWallet(db, business.id, parseWith(MoneroWalletInputSchema, input));
}

export async function removeMoneroSettings(db: Db, userId: string, businessId: unknown): Promise<MoneroWalletView> {
  const { business } = await authorize(db, userId, businessId, "manage-settings");
  return removeMoneroWallet(db, business.id);
}
