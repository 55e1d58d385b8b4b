import { z } from "zod";
import type { Db } from "@/db/client";
import { findSolanaWallet, listUnmatched } from "@/db/queries/solana";
import { authorize } from "@/lib/accounts/authorize";
import { patchBusiness } from "@/lib/businesses/businesses";
import { PatchBusinessSchema } from "@/lib/businesses/schemas";
import { parseWith } from "@/lib/http/parse";

/*
 * The Settings page's Solana wallet (owners: `manage-settings`): the admin API's `solanaWallet`
 * (its rules in lib/businesses/schemas.ts), and the payments to it that matched no payment
 * (lib/chains/solana/sweep.ts), for the merchant to match by hand.
 */

/** What the page says about the field, in plain words. */
export const SOLANA_WALLET_NOTE =
  "Your Solana wallet's address: its public key, the one your wallet shows to receive SOL, USDC or USDT. Never enter your secret key or recovery phrase: the service never needs them and refuses anything but an address. Every Solana payment goes straight to this wallet.";

export type UnmatchedView = { signature: string; coin: string; amount: string; slot: number; seenAt: string };
export type SolanaSettingsView = { wallet: string | null; note: string; unmatched: UnmatchedView[] };

export async function solanaSettingsOf(db: Db, userId: string, businessId: unknown): Promise<SolanaSettingsView> {
  const { business } = await authorize(db, userId, businessId, "manage-settings");
  const unmatched = (await listUnmatched(db, business.id)).map((r) => ({ signature: r.signature, coin: r.coin, amount: r.amount, slot: r.slot, seenAt: r.seenAt.toISOString() }));
  return { wallet: (await findSolanaWallet(db, business.id)) ?? null, note: SOLANA_WALLET_NOTE, unmatched };
}

const SolanaWalletInput = z.strictObject({ solanaWallet: PatchBusinessSchema.shape.solanaWallet.unwrap() });

/** Sets the wallet (an empty string or null removes it). */
export async function saveSolanaSettings(db: Db, userId: string, businessId: unknown, input: unknown): Promise<{ solanaWallet: string | null }> {
  const { business } = await authorize(db, userId, businessId, "manage-settings");
  const { solanaWallet } = parseWith(SolanaWalletInput, input);
  const saved = await patchBusiness(db, business.id, { solanaWallet: solanaWallet || null });
  return { solanaWallet: saved.solanaWallet };
}
