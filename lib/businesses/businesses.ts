import type { Db, Tx } from "@/db/client";
import { listEndpoints, updateEndpoint } from "@/db/queries/webhook-endpoints";
import { addEndpoint, changeEndpoint, removeEndpoint } from "@/lib/webhooks/endpoints";
import { newWebhookSecret } from "@/lib/webhooks/sign";
import { listApiKeys, revokeApiKey } from "@/db/queries/api-keys";
import { findBusiness, insertBusiness, updateBusiness } from "@/db/queries/businesses";
import { findSolanaWallet, setSolanaWallet } from "@/db/queries/solana";
import { findTonWallet, setTonWallet, type TonWallet } from "@/db/queries/ton";
import { friendlyTonAddress, parseTonAddress } from "@/lib/wallets/ton";
import type { Business } from "@/db/schema";
import { issueApiKey } from "@/lib/accounts/api-keys";
import type { CoinName } from "@/domain/coins";
import { defaultEnabledCoins, servableCoins } from "@/domain/watched-chains";
import { chainsHealth } from "@/lib/chains/health";
import type { KeyFamily } from "@/lib/wallets/derive";
import { keyProblem } from "./schemas";
import { invalidField, notFound } from "@/lib/http/errors";
import { webhookUrlProblem } from "@/lib/http/url-safety";
import type { CreateApiKeyInput, CreateBusinessInput, PatchBusinessInput } from "./schemas";
import { inTransaction } from "@/db/transaction";
import { config } from "@/lib/config";
import { dropReplacedLogo, logoPath, storeLogo } from "./brand";
import { checkLogo, type CheckedLogo } from "./logo";

/**
 * `webhookUrl` is the business's primary endpoint's URL (its oldest endpoint, lib/webhooks/endpoints.ts):
 * the field the admin API had before a business had several endpoints, kept working on them.
 * `solanaWallet` and `tonWallet` are kept in tables of their own (db/schema/solana.ts, ton.ts).
 */
export function businessSettings(b: Business, webhookUrl: string | null, solanaWallet: string | null = null, tonWallet: TonWallet | null = null) {
  return {
    businessId: b.id,
    name: b.name,
    displayName: b.displayName,
    accentColor: b.accentColor,
    logoUrl: b.logoSha256 ? `${config().publicBaseUrl}${logoPath(b.logoSha256)}` : null,
    mode: b.mode,
    webhookUrl,
    paymentLifetimeSeconds: b.paymentLifetimeSeconds,
    enabledCoins: b.enabledCoins,
    feePercent: Number(b.feePercent),
    underpaymentTolerancePercent: Number(b.underpaymentTolerancePercent),
    parentBusinessId: b.parentBusinessId,
    extendedPublicKeys: b.extendedPublicKeys,
    solanaWallet,
    tonWallet: tonWallet && (tonWallet.testnet === null ? tonWallet.address : friendlyTonAddress(tonWallet.address, tonWallet.testnet)),
    confirmations: b.confirmations,
    emailNotifications: b.emailNotifications,
    createdAt: b.createdAt.toISOString(),
  };
}

/** D7: rules a setting must meet for the business's mode. */
function checkModeRules(mode: "test" | "live", webhookUrls: (string | null | undefined)[], coins: string[] | undefined) {
  for (const [i, url] of webhookUrls.entries()) {
    const problem = url ? webhookUrlProblem(url, mode) : null;
    // The first is the primary endpoint's (`webhookUrl`); the others are the further endpoints'.
    if (problem) throw invalidField("webhookUrl", i === 0 ? problem : `webhook endpoint ${url}: ${problem}`);
  }
  if (mode !== "live") return;
  const servable = new Set<string>(servableCoins("live"));
  const bad = coins?.filter((c) => !servable.has(c)) ?? [];
  if (bad.length) {
    throw invalidField(
      "enabledCoins",
      `${bad.join(", ")} cannot be paid to a live business: only coins of a chain the service watches can (${[...servable].join(", ")})`,
    );
  }
}

/**
 * Each key against the network its chain's node serves (known once the watcher has asked the
 * node): a mainnet key for a regtest node, or the reverse, derives addresses nobody can pay.
 */
async function checkKeysAgainstNodes(db: Db, keys: Partial<Record<string, string | undefined>> | undefined) {
  if (!keys) return;
  const nets = new Map((await chainsHealth(db)).map((h) => [h.chain as string, h.network]));
  for (const [family, key] of Object.entries(keys) as [KeyFamily, string | undefined][]) {
    const net = nets.get(family);
    if (!key || !net) continue;
    const problem = keyProblem(family, key, net);
    if (problem) throw invalidField(`extendedPublicKeys.${family}`, problem);
  }
}

/** Keys given as "" are removed. */
function withoutEmpty(keys: Partial<Record<string, string | undefined>>): Record<string, string> {
  return Object.fromEntries(Object.entries(keys).filter((e): e is [string, string] => Boolean(e[1])));
}

/** A logo given as base64 (the admin API's `logo`), checked by its content; null removes it, undefined leaves it. */
async function logoOf(base64: string | null | undefined): Promise<CheckedLogo | null | undefined> {
  return base64 == null ? base64 : checkLogo(Buffer.from(base64, "base64"));
}

async function requireBusiness(db: Db, id: number): Promise<Business> {
  const b = await findBusiness(db, id);
  if (!b) throw notFound(`No business ${id} exists.`);
  return b;
}

export async function createBusiness(db: Db, input: CreateBusinessInput) {
  checkModeRules(input.mode, [input.webhookUrl], input.enabledCoins);
  await checkKeysAgainstNodes(db, input.extendedPublicKeys);
  if (input.parentBusinessId !== undefined) {
    const parent = await findBusiness(db, input.parentBusinessId);
    if (!parent) throw invalidField("parentBusinessId", `no business ${input.parentBusinessId} exists`);
    if (parent.parentBusinessId !== null) throw invalidField("parentBusinessId", "must be a top-level business (one level of sub-businesses)");
  }
  const logo = await logoOf(input.logo);
  const webhookSecret = newWebhookSecret();
  return inTransaction(db, async (tx) => {
    const business = await insertBusiness(tx, {
      name: input.name,
      displayName: input.displayName || null,
      accentColor: input.accentColor?.toLowerCase() ?? null,
      logoSha256: await storeLogo(tx, logo ?? null),
      mode: input.mode,
      paymentLifetimeSeconds: input.paymentLifetimeSeconds ?? 3600,
      enabledCoins: [...new Set(input.enabledCoins ?? defaultEnabledCoins())] as CoinName[],
      feePercent: String(input.feePercent ?? 0),
      underpaymentTolerancePercent: String(input.underpaymentTolerancePercent ?? 0),
      parentBusinessId: input.parentBusinessId ?? null,
      extendedPublicKeys: withoutEmpty(input.extendedPublicKeys ?? {}),
      confirmations: input.confirmations ?? {},
      ...(input.emailNotifications && { emailNotifications: input.emailNotifications }),
      webhookSecret,
    });
    // The primary endpoint shares the business's secret: `webhookSecret` verifies all it sends.
    if (input.webhookUrl) await addEndpoint(tx, business, { url: input.webhookUrl }, { secret: webhookSecret });
    if (input.solanaWallet) await setSolanaWallet(tx, business.id, input.solanaWallet, new Date());
    const ton = tonWalletOf(input.tonWallet);
    if (ton) await setTonWallet(tx, business.id, ton, new Date());
    const key = await issueApiKey(tx, { ownerBusinessId: business.id, businessIds: [business.id] });
    return { ...businessSettings(business, input.webhookUrl ?? null, input.solanaWallet || null, ton), apiKey: key.apiKey, keyId: key.keyId, webhookSecret };
  });
}

export async function getBusiness(db: Db, id: number) {
  const business = await requireBusiness(db, id);
  return businessSettings(business, (await listEndpoints(db, id))[0]?.url ?? null, (await findSolanaWallet(db, id)) ?? null, (await findTonWallet(db, id)) ?? null);
}

/** The TON wallet to store from a setting: raw, with the testnet flag of the form given; null for none. */
function tonWalletOf(text: string | null | undefined): TonWallet | null {
  const parsed = text ? parseTonAddress(text) : null;
  return parsed && typeof parsed === "object" ? { address: parsed.raw, testnet: parsed.testnet } : null;
}

export async function patchBusiness(db: Db, id: number, patch: PatchBusinessInput) {
  const current = await requireBusiness(db, id);
  const endpoints = await listEndpoints(db, id);
  const mode = patch.mode ?? current.mode;
  // A live business's current URLs are checked on every change (it may be going live); a test
  // business's only when given, so a stored one refused at delivery does not block the rest.
  const urls = endpoints.map((e) => e.url);
  if (patch.webhookUrl !== undefined) urls[0] = patch.webhookUrl as string;
  checkModeRules(
    mode,
    mode === "live" ? urls : patch.webhookUrl !== undefined ? [patch.webhookUrl] : [],
    patch.enabledCoins ?? (patch.mode === "live" ? current.enabledCoins : undefined),
  );
  await checkKeysAgainstNodes(db, patch.extendedPublicKeys);
  const logo = await logoOf(patch.logo);
  const updated = await inTransaction(db, async (tx) => {
    const logoSha256 = logo === undefined ? current.logoSha256 : await storeLogo(tx, logo);
    const row = await updateBusiness(tx, id, {
      ...brandPatch(patch),
      ...(logo !== undefined && { logoSha256 }),
      ...settingsPatch(current, patch),
    });
    await dropReplacedLogo(tx, current.logoSha256, logoSha256);
    const primary = patch.webhookUrl !== undefined ? await setPrimaryUrl(tx, row, patch.webhookUrl) : endpoints[0];
    if (patch.solanaWallet !== undefined) await setSolanaWallet(tx, id, patch.solanaWallet || null, new Date());
    if (patch.tonWallet !== undefined) await setTonWallet(tx, id, tonWalletOf(patch.tonWallet), new Date());
    return businessSettings(row, primary?.url ?? null, (await findSolanaWallet(tx, id)) ?? null, (await findTonWallet(tx, id)) ?? null);
  });
  return updated;
}

/**
 * `webhookUrl` on a PATCH: the primary endpoint's URL changes; a business without one gets one
 * (with the business's secret, as on create); null removes the primary endpoint.
 */
async function setPrimaryUrl(tx: Tx, business: Business, url: string | null) {
  const primary = (await listEndpoints(tx, business.id))[0];
  if (url === null) {
    if (primary) await removeEndpoint(tx, business.id, primary.id);
    return (await listEndpoints(tx, business.id))[0];
  }
  if (primary) return changeEndpoint(tx, business, primary, { url });
  return addEndpoint(tx, business, { url }, { secret: business.webhookSecret });
}

function brandPatch(patch: PatchBusinessInput) {
  return {
    ...(patch.displayName !== undefined && { displayName: patch.displayName || null }),
    ...(patch.accentColor !== undefined && { accentColor: patch.accentColor?.toLowerCase() ?? null }),
  };
}

function settingsPatch(current: Business, patch: PatchBusinessInput) {
  return {
    ...(patch.name !== undefined && { name: patch.name }),
    ...(patch.mode !== undefined && { mode: patch.mode }),
    ...(patch.paymentLifetimeSeconds !== undefined && { paymentLifetimeSeconds: patch.paymentLifetimeSeconds }),
    ...(patch.enabledCoins !== undefined && { enabledCoins: [...new Set(patch.enabledCoins)] }),
    ...(patch.feePercent !== undefined && { feePercent: String(patch.feePercent) }),
    ...(patch.extendedPublicKeys !== undefined && {
      extendedPublicKeys: withoutEmpty({ ...current.extendedPublicKeys, ...patch.extendedPublicKeys }),
    }),
    ...(patch.confirmations !== undefined && { confirmations: patch.confirmations }),
    ...(patch.emailNotifications !== undefined && { emailNotifications: patch.emailNotifications }),
    ...(patch.underpaymentTolerancePercent !== undefined && {
      underpaymentTolerancePercent: String(patch.underpaymentTolerancePercent),
    }),
  };
}

/** A new key for the business; `businessIds` may name its sub-businesses too (D6). */
export async function createApiKey(db: Db, ownerId: number, input: CreateApiKeyInput) {
  const owner = await requireBusiness(db, ownerId);
  const ids = [...new Set(input.businessIds ?? [owner.id])];
  for (const [i, id] of ids.entries()) {
    if (id === owner.id) continue;
    const b = await findBusiness(db, id);
    if (!b || b.parentBusinessId !== owner.id) {
      throw invalidField(`businessIds[${i}]`, `business ${id} is neither ${owner.id} nor one of its sub-businesses`);
    }
  }
  const key = await issueApiKey(db, { ownerBusinessId: owner.id, businessIds: ids, expiresInSeconds: input.expiresInSeconds });
  return { keyId: key.keyId, apiKey: key.apiKey, businessIds: ids, expiresAt: key.expiresAt?.toISOString() ?? null };
}

export async function listKeys(db: Db, ownerId: number) {
  await requireBusiness(db, ownerId);
  return (await listApiKeys(db, ownerId)).map((k) => ({
    keyId: k.id,
    businessIds: k.businessIds,
    createdAt: k.createdAt.toISOString(),
    expiresAt: k.expiresAt?.toISOString() ?? null,
    revokedAt: k.revokedAt?.toISOString() ?? null,
  }));
}

export async function revokeKey(db: Db, ownerId: number, keyId: string) {
  await requireBusiness(db, ownerId);
  const row = await revokeApiKey(db, ownerId, keyId, new Date());
  if (!row) throw notFound(`No active API key ${keyId} belongs to business ${ownerId}.`);
  return { keyId: row.id, revokedAt: row.revokedAt!.toISOString() };
}

/**
 * A new business secret at once (it signs `notifyUrl` deliveries); the primary endpoint, while it
 * still shares the old one, moves with it. An endpoint's own rotation, with an overlap, is
 * `rotateEndpointSecret` (lib/webhooks/endpoints.ts).
 */
export async function rotateWebhookSecret(db: Db, id: number) {
  const current = await requireBusiness(db, id);
  const webhookSecret = newWebhookSecret();
  await inTransaction(db, async (tx) => {
    await updateBusiness(tx, id, { webhookSecret });
    const primary = (await listEndpoints(tx, id))[0];
    if (primary?.secret === current.webhookSecret) {
      await updateEndpoint(tx, id, primary.id, { secret: webhookSecret, previousSecret: null, previousSecretExpiresAt: null, updatedAt: new Date() });
    }
  });
  return { webhookSecret };
}
