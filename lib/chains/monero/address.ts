import { ed25519 } from "@noble/curves/ed25519.js";
import { keccak_256 } from "@noble/hashes/sha3.js";
import { bytesToHex, hexToBytes } from "@noble/hashes/utils.js";
import type { ChainNet } from "@/lib/wallets/derive";

/**
 * Monero addresses and view keys: enough to check that a merchant's private view key belongs to
 * its primary address before a wallet is made from them.
 *
 * Monero's base58 is not Bitcoin's: the bytes are cut in 8-byte blocks, each written as exactly
 * 11 characters (a last, shorter block as fewer: FULL_BLOCK_SIZES), so a block's leading zeros
 * are kept as "1"s rather than counted once for the whole string (monero-project/monero
 * src/common/base58.cpp). No maintained npm package decodes it alone (the Monero libraries
 * bring a whole wallet), so the block decoding is written here, on BigInt, and checked by the
 * Keccak checksum every address carries.
 */

const ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
/** Characters an n-byte block takes (index n). */
const ENCODED_SIZES = [0, 2, 3, 5, 6, 7, 9, 10, 11];

function decodeBlock(chars: string): Uint8Array {
  const size = ENCODED_SIZES.indexOf(chars.length);
  if (size <= 0) throw new Error("not Monero base58 (a block of a length no bytes encode to)");
  let n = 0n;
  for (const c of chars) {
    const digit = ALPHABET.indexOf(c);
    if (digit < 0) throw new Error(`not Monero base58 (the character "${c}")`);
    n = n * 58n + BigInt(digit);
  }
  if (n >= 1n << BigInt(8 * size)) throw new Error("not Monero base58 (a block overflows)");
  const out = new Uint8Array(size);
  for (let i = size - 1; i >= 0; i--, n >>= 8n) out[i] = Number(n & 0xffn);
  return out;
}

export function moneroBase58Decode(text: string): Uint8Array {
  const parts: Uint8Array[] = [];
  for (let i = 0; i < text.length; i += 11) parts.push(decodeBlock(text.slice(i, i + 11)));
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) out.set(p, (at += p.length) - p.length);
  return out;
}

/** Address prefixes (one-byte varints) per network (src/cryptonote_config.h). Regtest uses mainnet's. */
const PREFIXES: Record<"main" | "test" | "stage", { standard: number; integrated: number; subaddress: number }> = {
  main: { standard: 18, integrated: 19, subaddress: 42 },
  test: { standard: 53, integrated: 54, subaddress: 63 },
  stage: { standard: 24, integrated: 25, subaddress: 36 },
};

export type MoneroAddress = { kind: "standard" | "integrated" | "subaddress"; network: "main" | "test" | "stage"; spendKey: Uint8Array; viewKey: Uint8Array };

/** Decodes an address and checks its checksum; throws a message fit for the merchant. */
export function decodeMoneroAddress(address: string): MoneroAddress {
  const bytes = moneroBase58Decode(address.trim());
  const prefix = bytes[0];
  const body = prefix === PREFIXES.main.integrated || prefix === PREFIXES.test.integrated || prefix === PREFIXES.stage.integrated ? 1 + 64 + 8 : 1 + 64;
  if (bytes.length !== body + 4) throw new Error("is not a Monero address (wrong length)");
  const sum = keccak_256(bytes.subarray(0, body)).subarray(0, 4);
  if (bytesToHex(sum) !== bytesToHex(bytes.subarray(body))) throw new Error("is not a Monero address (its checksum does not match: a typing mistake?)");
  for (const [network, p] of Object.entries(PREFIXES) as [MoneroAddress["network"], (typeof PREFIXES)["main"]][]) {
    const kind = prefix === p.standard ? "standard" : prefix === p.integrated ? "integrated" : prefix === p.subaddress ? "subaddress" : null;
    if (kind) return { kind, network, spendKey: bytes.slice(1, 33), viewKey: bytes.slice(33, 65) };
  }
  throw new Error(`is not a Monero address (unknown prefix ${prefix})`);
}

/** Whether addresses of `network` are the ones a node of `net` pays: mainnet's on mainnet and regtest, test or stage networks' on test. */
export function addressFitsNet(network: MoneroAddress["network"], net: ChainNet): boolean {
  return net === "test" ? network !== "main" : network === "main";
}

/** Whether a stored primary address is of the network a node of `net` serves (false for one that does not decode). */
export function moneroAddressFits(address: string, net: ChainNet): boolean {
  try {
    return addressFitsNet(decodeMoneroAddress(address).network, net);
  } catch {
    return false;
  }
}

/** ed25519's group order: a private key is a scalar below it (sc_check). */
const L = ed25519.Point.CURVE().n;

/** The public view key of a private one (64 hex digits, a little-endian scalar): the scalar times the base point. */
export function publicViewKeyOf(privateViewKey: string): Uint8Array {
  if (!/^[0-9a-fA-F]{64}$/.test(privateViewKey.trim())) throw new Error("must be 64 hexadecimal digits");
  const bytes = hexToBytes(privateViewKey.trim().toLowerCase());
  let scalar = 0n;
  for (let i = 31; i >= 0; i--) scalar = (scalar << 8n) | BigInt(bytes[i]);
  if (scalar === 0n || scalar >= L) throw new Error("is not a valid private key (not a scalar below the curve's order)");
  return ed25519.Point.BASE.multiply(scalar).toBytes();
}

/**
 * The problem with a merchant's keys, by field, or null: the primary address must be a standard
 * address of the node's network (a subaddress or an integrated address cannot make a wallet),
 * and the private view key must be the one whose public key the address carries.
 */
export function moneroKeysProblem(primaryAddress: string, privateViewKey: string, net: ChainNet | null): { field: "primaryAddress" | "privateViewKey"; problem: string } | null {
  let address: MoneroAddress;
  try {
    address = decodeMoneroAddress(primaryAddress);
  } catch (err) {
    return { field: "primaryAddress", problem: (err as Error).message };
  }
  if (address.kind !== "standard") return { field: "primaryAddress", problem: `is a ${address.kind} address; give the wallet's primary address (4… on mainnet)` };
  if (net && !addressFitsNet(address.network, net)) return { field: "primaryAddress", problem: `is a ${address.network}net address, but the Monero node serves ${net === "regtest" ? "regtest (mainnet addresses)" : `${net}net`}` };
  let view: Uint8Array;
  try {
    view = publicViewKeyOf(privateViewKey);
  } catch (err) {
    return { field: "privateViewKey", problem: (err as Error).message };
  }
  if (bytesToHex(view) !== bytesToHex(address.viewKey)) return { field: "privateViewKey", problem: "does not belong to this primary address (its public view key is another)" };
  return null;
}
