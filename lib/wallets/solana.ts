import { randomBytes } from "node:crypto";
import { getAddressDecoder, isAddress } from "@solana/kit";

/**
 * Solana wallet addresses and Solana Pay references. An address is an ed25519 public key, 32
 * bytes in base58; the service asks a merchant for its wallet's public key only, never a secret.
 */

/** Whether `text` is a Solana public key: base58 of exactly 32 bytes (@solana/kit's check). */
export function isSolanaAddress(text: string): boolean {
  return isAddress(text);
}

/** Why `text` is not a Solana wallet address, or null when it is. */
export function solanaAddressProblem(text: string): string | null {
  if (isSolanaAddress(text)) return null;
  return "must be a Solana wallet address: its public key in base58 (32 bytes, 32 to 44 characters), never a secret key or seed phrase";
}

/**
 * A fresh Solana Pay reference: 32 random bytes in base58. The specification asks for a unique
 * public key per payment and does not require it to be on the ed25519 curve (anza-xyz/solana-pay
 * SPEC.md, "reference"); nobody holds a secret for it, and nobody needs to.
 */
export function newSolanaReference(): string {
  return getAddressDecoder().decode(randomBytes(32));
}


/** A Solana Pay transfer request's fields (anza-xyz/solana-pay SPEC.md, "Transfer request"). */
export type TransferRequest = {
  recipient: string;
  /** In whole SOL or tokens, a plain decimal (the spec forbids scientific notation). */
  amount: string;
  /** The mint of an SPL token; absent for SOL. */
  splToken?: string;
  reference?: string;
  label?: string;
  message?: string;
};

/**
 * The transfer request URI a Solana wallet opens (link or QR code):
 * `solana:<recipient>?amount=…&spl-token=…&reference=…&label=…&message=…`, label and message
 * percent-encoded UTF-8 as the spec says (a space is %20, never "+").
 */
export function solanaPayUri(r: TransferRequest): string {
  const q: [string, string | undefined][] = [["amount", r.amount], ["spl-token", r.splToken], ["reference", r.reference], ["label", r.label], ["message", r.message]];
  const query = q.filter(([, v]) => v !== undefined && v !== "").map(([k, v]) => `${k}=${encodeURIComponent(v!)}`);
  return `solana:${r.recipient}${query.length ? `?${query.join("&")}` : ""}`;
}
