import { secp256k1 } from "@noble/curves/secp256k1.js";
import { keccak_256 } from "@noble/hashes/sha3.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, concatBytes, hexToBytes, utf8ToBytes } from "@noble/hashes/utils.js";
import { TronWeb } from "tronweb";

/**
 * Byte-level helpers of the fake TRON node (tron-node.ts): block ids as java-tron computes them,
 * ABI words of the emulated TRC-20 contracts, and JSON that prints int64 as numbers.
 */

/** A block header's raw data, as `block_header.raw_data` prints it (docs/api/http/block-and-tx-query/getnowblock.md). */
export type TronHeader = { number: number; txTrieRoot: string; witness_address: string; parentHash: string; version: number; timestamp: number };

/*
 * protobuf's wire format for the few fields of `BlockHeader.raw` (Tron.proto: timestamp 1,
 * txTrieRoot 2, parentHash 3, number 7, witness_address 9, version 10). Hand-written because
 * tronweb's generated protobuf classes are only reachable through an undocumented global; a
 * field holding its default (0, empty) is left out, as protobuf does. The self-test checks the
 * result against the real Nile block of docs/api/http/block-and-tx-query/getblock.md.
 */
function varint(n: bigint): Uint8Array {
  const out: number[] = [];
  for (; n > 127n; n >>= 7n) out.push(Number(n & 127n) | 128);
  out.push(Number(n));
  return Uint8Array.from(out);
}
const intField = (field: number, v: number) => (v === 0 ? new Uint8Array() : concatBytes(varint(BigInt(field << 3)), varint(BigInt(v))));
function bytesField(field: number, hex: string): Uint8Array {
  const b = hexToBytes(hex);
  return b.length === 0 ? b : concatBytes(varint(BigInt((field << 3) | 2)), varint(BigInt(b.length)), b);
}

/** The header's raw bytes (the protobuf serialization java-tron hashes). */
export function headerBytes(h: TronHeader): Uint8Array {
  return concatBytes(
    intField(1, h.timestamp),
    bytesField(2, h.txTrieRoot),
    bytesField(3, h.parentHash),
    intField(7, h.number),
    bytesField(9, h.witness_address),
    intField(10, h.version),
  );
}

/** java-tron's BlockId: the number as 8 bytes big-endian, then the last 24 bytes of sha256(raw header). */
export function blockIdOf(h: TronHeader): string {
  return h.number.toString(16).padStart(16, "0") + bytesToHex(sha256(headerBytes(h))).slice(16);
}

/** A super representative's signature of sha256(raw header): r ‖ s ‖ recovery id (0 or 1), as the documented blocks end. */
export function witnessSignature(h: TronHeader, privateKey: Uint8Array): string {
  const sig = secp256k1.sign(sha256(headerBytes(h)), privateKey, { prehash: false, format: "recovered" });
  return bytesToHex(sig.slice(1)) + bytesToHex(sig.slice(0, 1));
}

/** An address in the form every response uses: 21-byte hex, `41…`, lower-case (base58 `T…` is taken too). */
export function hexAddress(address: string): string {
  const hex = (/^41[0-9a-fA-F]{40}$/.test(address) ? address : TronWeb.address.toHex(address)).toLowerCase();
  if (!/^41[0-9a-f]{40}$/.test(hex)) throw new Error(`not a TRON address: ${address}`);
  return hex;
}

/** The 4-byte selector of a Solidity function signature, hex. */
export const selectorOf = (signature: string) => bytesToHex(keccak_256(utf8ToBytes(signature))).slice(0, 8);

/** Event topic 0 of a Solidity event signature, hex. */
export const topicOf = (signature: string) => bytesToHex(keccak_256(utf8ToBytes(signature)));

/** A uint256 as one ABI word. */
export const word = (n: bigint) => n.toString(16).padStart(64, "0");

/** A 21-byte TRON address as one ABI word: its 20 EVM bytes, left-padded (the 41 prefix is not part of the EVM address). */
export const addressWord = (hex: string) => hex.slice(2).padStart(64, "0");

/** The TRON address (41…) in an ABI word: its last 20 bytes. */
export const addressOfWord = (w: string) => `41${w.slice(24, 64).toLowerCase()}`;

/** A string as ABI-encoded return data (offset, length, padded bytes). */
export function abiString(s: string): string {
  const bytes = bytesToHex(utf8ToBytes(s));
  return word(32n) + word(BigInt(bytes.length / 2)) + bytes.padEnd(Math.ceil(bytes.length / 64) * 64, "0");
}

/** Text as java-tron prints a `bytes` message field when `visible` is false: the hex of its UTF-8. */
export const hexText = (s: string) => bytesToHex(utf8ToBytes(s));

/** JSON in which a bigint prints as a bare integer, as java-tron prints int64 fields (balances above 2^53 stay exact). */
export function tronJson(value: unknown): string {
  const marked = JSON.stringify(value, (_k, v) => (typeof v === "bigint" ? `\u0000${v.toString()}` : v));
  return marked.replace(/"\\u0000(-?\d+)"/g, "$1");
}
