import { z } from "zod";
import type { Db } from "@/db/client";
import { authorize } from "@/lib/accounts/authorize";
import { businessSettings, patchBusiness } from "@/lib/businesses/businesses";
import { brandOf } from "@/lib/businesses/brand";
import { checkLogo } from "@/lib/businesses/logo";
import { keyProblem, PatchBusinessSchema } from "@/lib/businesses/schemas";
import { chainsHealth } from "@/lib/chains/health";
import { COIN_NAMES } from "@/domain/coins";
import { ACCOUNT_PATHS, deriveAddressForCoin, KEY_FAMILIES, type ChainNet, type KeyFamily } from "@/lib/wallets/derive";
import { servableCoins } from "@/domain/watched-chains";
import { invalidField } from "@/lib/http/errors";
import { parseWith } from "@/lib/http/parse";
import { config } from "@/lib/config";

/*
 * The dashboard's Settings section (owners: `manage-settings`). Validation is the admin API's
 * PatchBusinessSchema, saving is its `patchBusiness`: the same rules (the mode's coins, the
 * keys against the nodes' networks) whichever way a setting changes. Wallet keys get a preview
 * first: the first receiving addresses, to be checked against the merchant's own wallet.
 */

/** How many receiving addresses the preview derives (index 0 to 4 of the external chain). */
export const PREVIEW_ADDRESSES = 5;

/** The settings an owner may change here; the mode and the platform fee stay the operator's. */
export const SettingsSchema = PatchBusinessSchema.pick({
  name: true,
  displayName: true,
  accentColor: true,
  paymentLifetimeSeconds: true,
  underpaymentTolerancePercent: true,
  enabledCoins: true,
  extendedPublicKeys: true,
  emailNotifications: true,
});
export type SettingsInput = z.infer<typeof SettingsSchema>;

export async function settingsOf(db: Db, userId: string, businessId: unknown) {
  const { business } = await authorize(db, userId, businessId, "manage-settings");
  const s = businessSettings(business, null);
  return {
    businessId: s.businessId,
    mode: s.mode,
    name: s.name,
    displayName: s.displayName,
    accentColor: s.accentColor,
    /** The logo's address on this server (the dashboard shows it from its own origin), or null. */
    logoUrl: brandOf(business).logoUrl,
    paymentLifetimeSeconds: s.paymentLifetimeSeconds,
    underpaymentTolerancePercent: s.underpaymentTolerancePercent,
    enabledCoins: s.enabledCoins,
    extendedPublicKeys: s.extendedPublicKeys,
    emailNotifications: s.emailNotifications,
    /** Whether customer e-mails leave the service (SMTP_URL), or are only kept on each payment's page. */
    emailsSent: config().mail.smtpUrl !== undefined,
    /** Coins this mode can be paid in: every coin in test mode, the watched chains' in live mode. */
    servableCoins: servableCoins(s.mode),
    allCoins: COIN_NAMES,
    families: KEY_FAMILIES,
  };
}
export type SettingsView = Awaited<ReturnType<typeof settingsOf>>;

/**
 * The network a key's addresses are previewed for: the one saving checks it against (the
 * network the family's node serves, lib/businesses/businesses.ts), in either mode, since a test
 * business's keys are kept for when it goes live on this deployment's nodes. With no node known
 * for the family (not configured, or not asked yet) saving takes a valid key of either network,
 * so the preview shows the network the key itself is for.
 */
async function networkFor(db: Db, family: KeyFamily, key: string): Promise<ChainNet> {
  const node = (await chainsHealth(db)).find((h) => h.chain === family)?.network;
  if (node) return node;
  return keyProblem(family, key, "main") === null ? "main" : "test";
}

const PreviewInput = z.strictObject({ family: z.enum(KEY_FAMILIES as [KeyFamily, ...KeyFamily[]]), key: z.string() });

/**
 * The first PREVIEW_ADDRESSES receiving addresses (path `<account key>/0/i`) of a key, after the
 * checks saving makes: the schema's, then the key against the network it will be used on.
 */
export async function previewAddresses(db: Db, userId: string, businessId: unknown, input: unknown) {
  await authorize(db, userId, businessId, "manage-settings");
  const { family, key } = parseWith(PreviewInput, input);
  const field = `extendedPublicKeys.${family}`;
  if (key.trim() === "") throw invalidField(field, "enter the account's extended public key first");
  const keys = parseWith(SettingsSchema, { extendedPublicKeys: { [family]: key.trim() } }).extendedPublicKeys!;
  const network = await networkFor(db, family, keys[family]!);
  const problem = keyProblem(family, keys[family]!, network);
  if (problem) throw invalidField(field, problem);
  const addresses = Array.from({ length: PREVIEW_ADDRESSES }, (_, index) => ({
    index,
    path: `${ACCOUNT_PATHS[family]}/0/${index}`,
    address: deriveAddressForCoin(family, keys[family]!, index, network),
  }));
  return { family, key: keys[family]!, network, addresses };
}

/**
 * Saves the settings. A changed wallet key must be confirmed (`confirmedKeys` names its family):
 * the form sends that only after the merchant has seen the key's preview and ticked that the
 * addresses match their wallet, so a key is never saved unchecked. Unchanged keys are left out of
 * the patch, so a node that changed network does not block saving a name.
 */
export async function saveSettings(db: Db, userId: string, businessId: unknown, input: unknown, confirmedKeys: unknown = []) {
  const { business } = await authorize(db, userId, businessId, "manage-settings");
  const patch = parseWith(SettingsSchema, input);
  const confirmed = new Set(Array.isArray(confirmedKeys) ? confirmedKeys.filter((f) => typeof f === "string") : []);
  if (patch.extendedPublicKeys) {
    const changed = Object.entries(patch.extendedPublicKeys).filter(([family, key]) => (key ?? "") !== (business.extendedPublicKeys[family] ?? ""));
    for (const [family, key] of changed) {
      if (key && !confirmed.has(family)) {
        throw invalidField(`extendedPublicKeys.${family}`, "preview the addresses, check them against your wallet and confirm before saving");
      }
    }
    patch.extendedPublicKeys = changed.length ? Object.fromEntries(changed) : undefined;
  }
  const saved = await patchBusiness(db, business.id, patch);
  return { name: saved.name, displayName: saved.displayName, accentColor: saved.accentColor, extendedPublicKeys: saved.extendedPublicKeys };
}

/**
 * Replaces the checkout logo with an uploaded file (the form's `logo` field), or removes it when
 * `file` is null. The file goes through the admin API's `logo` rules (patchBusiness): checked by
 * its content, whatever its name or the type the browser gave it.
 */
export async function saveLogo(db: Db, userId: string, businessId: unknown, file: unknown) {
  const { business } = await authorize(db, userId, businessId, "manage-settings");
  if (file !== null && !(file instanceof Blob)) throw invalidField("logo", "choose an image file to upload");
  // Checked here first, so an oversized file is refused with its size rather than as too much base64.
  const logo = file === null ? null : (await checkLogo(new Uint8Array(await file.arrayBuffer()))).content.toString("base64");
  const saved = await patchBusiness(db, business.id, { logo });
  return { hasLogo: saved.logoUrl !== null };
}
