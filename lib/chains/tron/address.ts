import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, hexToBytes } from "@noble/hashes/utils.js";
import { createBase58check } from "@scure/base";

/**
 * TRON addresses in their two spellings: base58check `T…` (what wallets show and the service
 * derives) and hex `41…` (21 bytes: 0x41 then the Ethereum-style 20; what the node's HTTP API
 * prints when `visible` is not set). Matching compares lower-case hex.
 */

const base58check = createBase58check(sha256);

/** The lower-case 42-digit hex of a base58 TRON address; throws on a bad checksum or another prefix. */
export function tronHexOf(base58: string): string {
  const bytes = base58check.decode(base58);
  if (bytes.length !== 21 || bytes[0] !== 0x41) throw new Error(`${base58} is not a TRON address`);
  return bytesToHex(bytes);
}

/** The base58 spelling of a 41-prefixed hex address. */
export function tronBase58Of(hex: string): string {
  const clean = hex.toLowerCase().replace(/^0x/, "");
  if (!/^41[0-9a-f]{40}$/.test(clean)) throw new Error(`${hex} is not a 41-prefixed TRON hex address`);
  return base58check.encode(hexToBytes(clean));
}

/** A 20-byte EVM-style address (a log's `address`, an ABI word's last 20 bytes) as TRON hex. */
export function tronHexOfEvm(hex20: string): string {
  const clean = hex20.toLowerCase().replace(/^0x/, "");
  if (/^41[0-9a-f]{40}$/.test(clean)) return clean;
  if (!/^[0-9a-f]{40}$/.test(clean)) throw new Error(`${hex20} is not a 20-byte address`);
  return `41${clean}`;
}
