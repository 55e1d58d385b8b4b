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

