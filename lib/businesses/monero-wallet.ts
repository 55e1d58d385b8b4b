import { createHash } from "node:crypto";
import { z } from "zod";
import type { Db } from "@/db/client";
import { findBusiness } from "@/db/queries/businesses";
import { deleteMoneroWallet, findMoneroWallet, putMoneroWallet } from "@/db/queries/monero";
import { chainsHealth } from "@/lib/chains/health";
import { moneroKeysProblem } from "@/lib/chains/monero/address";
import { invalidField, notFound } from "@/lib/http/errors";

/** What the settings page and the API say about the view key, in plain words, wherever they ask for it. */
export const VIEW_KEY_NOTE =
  "The private view key lets the service see the payments this wallet receives; it cannot spend them. Never give a spend key or a seed: no one here will ask for them.";

export const MoneroWalletInputSchema = z
  .strictObject({
    primaryAddress: z.string().trim().min(1).max(200).meta({ description: "The wallet's primary (standard) address: 4… on mainnet, 5… or 9… on stagenet and testnet." }),
    privateViewKey: z
      .string()
      .trim()
      .regex(/^[0-9a-fA-F]{64}$/, "must be 64 hexadecimal digits")
      .meta({ description: `The wallet's private (secret) view key, 64 hex digits. ${VIEW_KEY_NOTE} Stored, never returned, never logged.` }),
    restoreHeight: z.number().int().min(0).max(100_000_000).meta({ description: "The block height to scan from: the wallet's creation height (older payments are not looked for)." }),
  })
  .meta({ id: "MoneroWalletInput", description: "A business's Monero wallet, as a view-only wallet sees it." });
export type MoneroWalletInput = z.infer<typeof MoneroWalletInputSchema>;

export const MoneroWalletSchema = z
  .strictObject({
    primaryAddress: z.string(),
    restoreHeight: z.number().int(),
    walletCreated: z.boolean().meta({ description: "Whether the wallet-rpc has made the view-only wallet yet (at the first Monero payment)." }),
    note: z.string(),
  })
  .meta({ id: "MoneroWallet", description: "A business's Monero wallet: its address and where scanning starts. The view key is never shown again." });
export type MoneroWalletView = z.infer<typeof MoneroWalletSchema>;

async function requireBusiness(db: Db, id: number) {
  const b = await findBusiness(db, id);
  if (!b) throw notFound(`No business ${id} exists.`);
  return b;
}

/**
 * Sets a business's Monero wallet. The view key must belong to the address (its public view key
 * is computed and compared) and the address be of the network the Monero node serves, once the
 * watcher knows it; else a 400 naming the field. A new address or key names a new wallet file.
 */
export async function setMoneroWallet(db: Db, businessId: number, input: MoneroWalletInput): Promise<MoneroWalletView> {
  await requireBusiness(db, businessId);
  const net = (await chainsHealth(db)).find((h) => h.chain === "MONERO")?.network ?? null;
  const problem = moneroKeysProblem(input.primaryAddress, input.privateViewKey, net);
  if (problem) throw invalidField(problem.field, problem.problem);
  const viewKey = input.privateViewKey.toLowerCase();
  // A name that changes with the keys, and that says nothing of them.
  const tag = createHash("sha256").update(`${input.primaryAddress}:${viewKey}:${input.restoreHeight}`).digest("hex").slice(0, 16);
  const row = await putMoneroWallet(db, {
    businessId,
    primaryAddress: input.primaryAddress,
    privateViewKey: viewKey,
    restoreHeight: input.restoreHeight,
    walletFile: `business-${businessId}-${tag}`,
    updatedAt: new Date(),
  });
  return viewOf(row);
}

export async function getMoneroWallet(db: Db, businessId: number): Promise<MoneroWalletView> {
  await requireBusiness(db, businessId);
  const row = await findMoneroWallet(db, businessId);
  if (!row) throw notFound(`Business ${businessId} has no Monero wallet.`);
  return viewOf(row);
}

/** Removes the keys (the wallet file stays in the wallet-rpc's directory); payments made to its subaddresses are no longer watched. */
export async function removeMoneroWallet(db: Db, businessId: number): Promise<MoneroWalletView> {
  const removed = await getMoneroWallet(db, businessId);
  await deleteMoneroWallet(db, businessId);
  return removed;
}

function viewOf(row: { primaryAddress: string; restoreHeight: number; walletCreatedAt: Date | null }): MoneroWalletView {
  return { primaryAddress: row.primaryAddress, restoreHeight: row.restoreHeight, walletCreated: row.walletCreatedAt !== null, note: VIEW_KEY_NOTE };
}
