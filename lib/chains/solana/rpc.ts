import { findAssociatedTokenPda, getMintDecoder, TOKEN_PROGRAM_ADDRESS } from "@solana-program/token";
import { address, createSolanaRpc, getBase64Encoder, signature, type Address, type Rpc, type SolanaRpcApi } from "@solana/kit";
import { SOLANA_CLUSTERS } from "@/domain/solana";
import type { SolanaTx } from "./credit";

/**
 * The Solana JSON-RPC as the watcher uses it, through @solana/kit's client (its requests,
 * its bigint-safe parsing). Every read is at `finalized`: under Alpenglow `confirmed` and
 * `finalized` coincide about a second after the block, and a finalized transaction can no longer
 * be rolled back, so nothing read here is ever undone.
 */
export type SolanaClient = Rpc<SolanaRpcApi>;

export function solanaClient(url: string): SolanaClient {
  return createSolanaRpc(url);
}

/** The SPL Token program: the configured mints must live under it (a Token-2022 mint is another program's, with other accounts). */
export const TOKEN_PROGRAM = TOKEN_PROGRAM_ADDRESS as string;

/** The cluster the node serves, from its genesis hash (domain/solana.ts); null chain id for a private cluster. */
export async function readCluster(rpc: SolanaClient): Promise<{ genesisHash: string; chainId: number | null }> {
  const genesisHash = await rpc.getGenesisHash().send();
  return { genesisHash, chainId: SOLANA_CLUSTERS[genesisHash]?.chainId ?? null };
}

/** The newest finalized slot (solana.com/docs/rpc/http/getslot). */
export async function finalizedSlot(rpc: SolanaClient): Promise<number> {
  return Number(await rpc.getSlot({ commitment: "finalized" }).send());
}

/** The hash of the finalized block at `slot` (solana.com/docs/rpc/http/getblock, no transactions). */
export async function blockhashAt(rpc: SolanaClient, slot: number): Promise<string> {
  const block = await rpc.getBlock(BigInt(slot), { commitment: "finalized", transactionDetails: "none", rewards: false, maxSupportedTransactionVersion: 0 }).send();
  if (!block) throw new Error(`the node has no finalized block at slot ${slot}`);
  return block.blockhash;
}

/** A mint's decimals, or why it cannot be a configured token's (no account, another program's). */
export async function readMintDecimals(rpc: SolanaClient, mint: string): Promise<number> {
  const { value } = await rpc.getAccountInfo(address(mint), { commitment: "finalized", encoding: "base64" }).send();
  if (!value) throw new Error("no such account");
  if (value.owner !== TOKEN_PROGRAM) throw new Error(`it belongs to ${value.owner}, not the SPL Token program`);
  return getMintDecoder().decode(getBase64Encoder().encode(value.data[0])).decimals;
}

/** The wallet's associated token account for the mint under the SPL Token program. */
export async function tokenAccountOf(wallet: string, mint: string): Promise<string> {
  const [ata] = await findAssociatedTokenPda({ owner: address(wallet), mint: address(mint), tokenProgram: TOKEN_PROGRAM_ADDRESS });
  return ata;
}

/** One row of getSignaturesForAddress. */
export type SignatureRow = { signature: string; slot: number; err: unknown };

/** Most signatures one getSignaturesForAddress call returns (solana.com/docs/rpc/http/getsignaturesforaddress). */
const PAGE = 1000;

/**
 * The finalized signatures of transactions naming `account`, newer than `until` (all when null),
 * oldest first: newest-first pages of up to 1000, walked back with `before`.
 */
export async function signaturesSince(rpc: SolanaClient, account: string, until: string | null): Promise<SignatureRow[]> {
  const out: SignatureRow[] = [];
  let before: string | undefined;
  for (;;) {
    const page = await rpc
      .getSignaturesForAddress(address(account) as Address, {
        commitment: "finalized",
        limit: PAGE,
        ...(until && { until: signature(until) }),
        ...(before && { before: signature(before) }),
      })
      .send();
    for (const row of page) out.push({ signature: row.signature, slot: Number(row.slot), err: row.err });
    if (page.length < PAGE) break;
    before = page[page.length - 1].signature;
  }
  return out.reverse();
}

/** The finalized transaction, or null when the node has none by that signature. */
export async function readTransaction(rpc: SolanaClient, sig: string): Promise<SolanaTx | null> {
  const tx = await rpc.getTransaction(signature(sig), { commitment: "finalized", encoding: "json", maxSupportedTransactionVersion: 0 }).send();
  return tx as SolanaTx | null;
}

