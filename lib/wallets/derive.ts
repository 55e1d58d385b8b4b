import { encodeCashAddress } from "@bitauth/libauth/build/lib/address/cash-address.js";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { ripemd160 } from "@noble/hashes/legacy.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { keccak_256 } from "@noble/hashes/sha3.js";
import { bytesToHex, concatBytes } from "@noble/hashes/utils.js";
import { HDKey } from "@scure/bip32";
import { bech32, createBase58check } from "@scure/base";
import { COINS, type CoinName } from "@/domain/coins";

/**
 * Deposit addresses from an account-level extended public key (BIP32), derived on the
 * external chain: `<account key>/0/<index>`, non-hardened, so the service never holds a
 * private key. All cryptography comes from audited libraries: @scure/bip32 (child key
 * derivation), @noble/hashes (sha256, ripemd160, keccak-256), @noble/curves (point
 * decompression for Ethereum/TRON), @scure/base (base58check, bech32) and libauth (CashAddr).
 *
 * Address kinds:
 * - BITCOIN: native SegWit v0 P2WPKH, bech32 `bc1q…` (BIP84, path m/84'/0'/account').
 * - LITECOIN: the same with hrp `ltc` → `ltc1q…` (m/84'/2'/account').
 * - BITCOIN_CASH (on the spec's BTC network): P2PKH in CashAddr `bitcoincash:q…` (m/44'/145'/account').
 * - ETHEREUM network (ETH and every ERC-20 coin): EIP-55 checksummed `0x…` (m/44'/60'/account').
 * - TRON network (TRX and TRC-20): base58check of 0x41 ‖ the Ethereum-style 20 bytes, `T…` (m/44'/195'/account').
 */

export type DerivationNetwork = "BTC" | "LTC" | "ETHEREUM" | "TRON";

/** Which account key a coin's addresses come from (one extended public key per family). */
export type KeyFamily = "BITCOIN" | "BITCOIN_CASH" | "LITECOIN" | "ETHEREUM" | "TRON";

export const KEY_FAMILIES: readonly KeyFamily[] = ["BITCOIN", "BITCOIN_CASH", "LITECOIN", "ETHEREUM", "TRON"];

/**
 * Which network a chain's node serves, as its node reports it (Bitcoin Core's
 * `getblockchaininfo.chain`: main, test, regtest, signet → test). Test networks and regtest take
 * the testnet-version keys (tpub, vpub), as Bitcoin Core and Litecoin Core themselves export,
 * and their own address prefixes (`tb1`/`bcrt1`, `tltc1`/`rltc1`, `bchtest:`/`bchreg:`). EVM
 * and TRON addresses look the same on every network.
 */
export type ChainNet = "main" | "test" | "regtest";

/** BIP44-style account paths (account 0) that wallets export for each family. */
export const ACCOUNT_PATHS: Record<KeyFamily, string> = {
  BITCOIN: "m/84'/0'/0'",
  LITECOIN: "m/84'/2'/0'",
  BITCOIN_CASH: "m/44'/145'/0'",
  ETHEREUM: "m/44'/60'/0'",
  TRON: "m/44'/195'/0'",
};

/**
 * Account public keys of the public BIP39 test mnemonic "abandon abandon abandon abandon
 * abandon abandon abandon abandon abandon abandon abandon about" at ACCOUNT_PATHS (computed
 * once from the mnemonic; test/chains/derive.test.ts re-derives and compares them).
 * Test-mode businesses derive their deposit addresses from these fixed keys. Everybody
 * knows the private keys: never send real funds to these addresses.
 */
export const TEST_EXTENDED_PUBLIC_KEYS: Record<KeyFamily, string> = {
  BITCOIN:
    "zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs",
  LITECOIN:
    "zpub6rPo5mF47z5coVm5rvWv7fv181awb7Vckn5Cf3xQXBVKu18kuBHDhNi1Jrb4br6vVD3ZbrnXemEsWJoR18mZwkUdzwD8TQnHDUCGxqZ6swA",
  BITCOIN_CASH:
    "xpub6ByHsPNSQXTWZ7PLESMY2FufyYWtLXagSUpMQq7Un96SiThZH2iJB1X7pwviH1WtKVeDP6K8d6xxFzzoaFzF3s8BKCZx8oEDdDkNnp4owAZ",
  ETHEREUM:
    "xpub6DCoCpSuQZB2jawqnGMEPS63ePKWkwWPH4TU45Q7LPXWuNd8TMtVxRrgjtEshuqpK3mdhaWHPFsBngh5GFZaM6si3yZdUsT8ddYM3PwnATt",
  TRON: "xpub6D1AabNHCupeiLM65ZR9UStMhJ1vCpyV4XbZdyhMZBiJXALQtmn9p42VTQckoHVn8WNqS7dqnJokZHAHcHGoaQgmv8D45oNUKx6DZMNZBCd",
};

/** The key family of a coin, or null for coins without xpub-derived addresses (Solana, Monero, TON). */
export function keyFamilyOf(coin: CoinName): KeyFamily | null {
  if (coin === "BITCOIN" || coin === "BITCOIN_CASH" || coin === "LITECOIN") return coin;
  const network = COINS[coin].network;
  if (network === "ETHEREUM" || network === "TRON") return network;
  return null;
}

/** The derivation network of a key family. */
export function networkOfFamily(family: KeyFamily): DerivationNetwork {
  if (family === "BITCOIN" || family === "BITCOIN_CASH") return "BTC";
  if (family === "LITECOIN") return "LTC";
  return family;
}

/**
 * Extended-key version bytes (BIP32 and SLIP-0044/SLIP-0132 registry). The version only
 * says which wallet kind exported the key; the key material is the same. Accepted: the
 * generic BIP32 version of the chain (xpub, Litecoin's Ltub) and the version that names
 * exactly the script we derive (zpub = P2WPKH). Refused with a specific message: private
 * keys, testnet keys, and versions that name another script (ypub/Mtub = P2SH-wrapped
 * SegWit, Ypub/Zpub = multisig) — the merchant's wallet would not watch the addresses we
 * derive from those.
 */
const VERSIONS = {
  xpub: 0x0488b21e,
  zpub: 0x04b24746,
  Ltub: 0x019da462,
  // refused, listed for clear messages
  ypub: 0x049d7cb2,
  Mtub: 0x01b26ef6,
  Ypub: 0x0295b43f,
  Zpub: 0x02aa7ed3,
  tpub: 0x043587cf,
  upub: 0x044a5262,
  vpub: 0x045f1cf6,
  xprv: 0x0488ade4,
  yprv: 0x049d7878,
  zprv: 0x04b2430c,
  Ltpv: 0x019d9cfe,
  Mtpv: 0x01b26792,
  tprv: 0x04358394,
  uprv: 0x044a4e28,
  vprv: 0x045f18bc,
} as const;
type KeyPrefix = keyof typeof VERSIONS;

const ACCEPTED: Record<KeyFamily, readonly KeyPrefix[]> = {
  BITCOIN: ["zpub", "xpub"],
  LITECOIN: ["zpub", "xpub", "Ltub"],
  BITCOIN_CASH: ["xpub"],
  ETHEREUM: ["xpub"],
  TRON: ["xpub"],
};
const ACCEPTED_ON_TEST: Record<KeyFamily, readonly KeyPrefix[]> = {
  BITCOIN: ["vpub", "tpub"],
  LITECOIN: ["vpub", "tpub"],
  BITCOIN_CASH: ["tpub"],
  ETHEREUM: ["xpub"],
  TRON: ["xpub"],
};
const acceptedKeys = (family: KeyFamily, net: ChainNet) => (net === "main" ? ACCEPTED : ACCEPTED_ON_TEST)[family];

const PRIVATE: ReadonlySet<KeyPrefix> = new Set(["xprv", "yprv", "zprv", "Ltpv", "Mtpv", "tprv", "uprv", "vprv"]);
const TESTNET: ReadonlySet<KeyPrefix> = new Set(["tpub", "upub", "vpub"]);
const MAINNET: ReadonlySet<KeyPrefix> = new Set(["xpub", "ypub", "zpub", "Ltub", "Mtub", "Ypub", "Zpub"]);

const base58check = createBase58check(sha256);

export class InvalidExtendedKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "InvalidExtendedKeyError";
  }
}

export type ExtendedKeyInfo = { family: KeyFamily; prefix: KeyPrefix; depth: number };

function familyFor(network: DerivationNetwork, coin?: CoinName): KeyFamily {
  if (coin === undefined) {
    if (network === "BTC") return "BITCOIN";
    if (network === "LTC") return "LITECOIN";
    return network;
  }
  const family = keyFamilyOf(coin);
  if (family === null || networkOfFamily(family) !== network) {
    throw new Error(`Coin ${coin} has no ${network} deposit addresses derived from an extended public key`);
  }
  return family;
}

function parse(network: DerivationNetwork, key: string, coin?: CoinName, net: ChainNet = "main"): { hd: HDKey; info: ExtendedKeyInfo } {
  const family = familyFor(network, coin);
  if (typeof key !== "string" || key.trim() === "") {
    throw new InvalidExtendedKeyError("Extended public key is empty");
  }
  const text = key.trim();
  let bytes: Uint8Array;
  try {
    bytes = base58check.decode(text);
  } catch {
    throw new InvalidExtendedKeyError("Extended public key is not valid base58check (mistyped or truncated?)");
  }
  if (bytes.length !== 78) {
    throw new InvalidExtendedKeyError(`Extended public key has ${bytes.length} bytes; expected 78`);
  }
  const version = new DataView(bytes.buffer, bytes.byteOffset, 4).getUint32(0, false);
  const prefix = (Object.keys(VERSIONS) as KeyPrefix[]).find((p) => VERSIONS[p] === version);
  const accepted = acceptedKeys(family, net);
  const want = accepted.join(" or ");
  if (prefix === undefined) {
    throw new InvalidExtendedKeyError(`Unknown extended key version 0x${version.toString(16).padStart(8, "0")}; expected ${want} for ${family}`);
  }
  if (PRIVATE.has(prefix)) {
    throw new InvalidExtendedKeyError(
      `That is a private key (${prefix}); never share it. Give the account's extended PUBLIC key (${want})`,
    );
  }
  if (net === "main" && TESTNET.has(prefix)) {
    throw new InvalidExtendedKeyError(`${prefix} is a testnet key; mainnet ${want} is required for ${family}`);
  }
  if (net !== "main" && MAINNET.has(prefix) && !accepted.includes(prefix)) {
    throw new InvalidExtendedKeyError(
      `${prefix} is a mainnet key, but the ${family} node serves ${net === "test" ? "a test network" : "regtest"}: give the account's ${want} key`,
    );
  }
  if (!accepted.includes(prefix)) {
    throw new InvalidExtendedKeyError(
      `A ${prefix} key describes a different address type; ${family} deposit addresses are derived from ${want}`,
    );
  }
  let hd: HDKey;
  try {
    hd = HDKey.fromExtendedKey(text, { public: version, private: VERSIONS.xprv });
  } catch (e) {
    throw new InvalidExtendedKeyError(`Invalid extended public key: ${(e as Error).message}`);
  }
  // An account key sits at depth 3 (m/purpose'/coin'/account'); Electrum-style wallets
  // export shallower keys and also derive 0/i from them. Deeper keys are chain or address
  // keys: 0/i under them would be addresses no wallet watches.
  if (hd.depth > 3) {
    throw new InvalidExtendedKeyError(
      `Extended public key has depth ${hd.depth}; give the account-level key (depth 3, e.g. ${ACCOUNT_PATHS[family]})`,
    );
  }
  return { hd, info: { family, prefix, depth: hd.depth } };
}

/**
 * Checks an extended public key for a network (and, on the BTC network, for BITCOIN or
 * BITCOIN_CASH via `coin`). Returns what it found; throws InvalidExtendedKeyError with a
 * message meant for the operator otherwise.
 */
export function validateExtendedPublicKey(network: DerivationNetwork, key: string, coin?: CoinName, net: ChainNet = "main"): ExtendedKeyInfo {
  return parse(network, key, coin, net).info;
}

const MAX_INDEX = 0x7fffffff; // 2^31 − 1: non-hardened indices only

/** The deposit address at external-chain index `index` (path <key>/0/<index>). */
export function deriveAddress(
  network: DerivationNetwork,
  extendedPublicKey: string,
  index: number,
  coin?: CoinName,
  net: ChainNet = "main",
): string {
  if (!Number.isInteger(index) || index < 0 || index > MAX_INDEX) {
    throw new RangeError(`Address index must be an integer from 0 to ${MAX_INDEX}; got ${index}`);
  }
  const { hd, info } = parse(network, extendedPublicKey, coin, net);
  const child = hd.deriveChild(0).deriveChild(index);
  const publicKey = child.publicKey;
  if (!publicKey) throw new Error("Derivation produced no public key");
  return encodeAddress(info.family, publicKey, net);
}

/** Same as deriveAddress, with the network taken from the coin. */
export function deriveAddressForCoin(coin: CoinName, extendedPublicKey: string, index: number, net: ChainNet = "main"): string {
  const family = keyFamilyOf(coin);
  if (family === null) throw new Error(`Coin ${coin} has no extended-public-key derived addresses`);
  return deriveAddress(networkOfFamily(family), extendedPublicKey, index, coin, net);
}

const hash160 = (data: Uint8Array) => ripemd160(sha256(data));

/** Address prefixes per network: bech32 hrps (BIP173, Litecoin's chainparams) and CashAddr prefixes. */
const PREFIXES = {
  BITCOIN: { main: "bc", test: "tb", regtest: "bcrt" },
  LITECOIN: { main: "ltc", test: "tltc", regtest: "rltc" },
  BITCOIN_CASH: { main: "bitcoincash", test: "bchtest", regtest: "bchreg" },
} as const;

function encodeAddress(family: KeyFamily, compressedPublicKey: Uint8Array, net: ChainNet): string {
  switch (family) {
    case "BITCOIN":
    case "LITECOIN":
      return segwitV0(PREFIXES[family][net], hash160(compressedPublicKey));
    case "BITCOIN_CASH":
      return encodeCashAddress({ prefix: PREFIXES.BITCOIN_CASH[net], type: "p2pkh", payload: hash160(compressedPublicKey) }).address;
    case "ETHEREUM":
      return toChecksumAddress(bytesToHex(ethereumAddressBytes(compressedPublicKey)));
    case "TRON":
      return base58check.encode(concatBytes(new Uint8Array([0x41]), ethereumAddressBytes(compressedPublicKey)));
  }
}

/** BIP173: witness version 0 followed by the 20-byte program in 5-bit words. */
function segwitV0(hrp: string, program: Uint8Array): string {
  return bech32.encode(hrp, [0, ...bech32.toWords(program)]);
}

/** Last 20 bytes of keccak-256 of the uncompressed public key without its 0x04 prefix. */
function ethereumAddressBytes(compressedPublicKey: Uint8Array): Uint8Array {
  const uncompressed = secp256k1.Point.fromBytes(compressedPublicKey).toBytes(false);
  return keccak_256(uncompressed.subarray(1)).subarray(12);
}

/**
 * EIP-55 mixed-case checksum, written out here because it is four lines: a hex letter is
 * upper-case when the matching nibble of keccak-256(lower-case hex address) is ≥ 8.
 */
export function toChecksumAddress(address: string): string {
  const hex = address.toLowerCase().replace(/^0x/, "");
  if (!/^[0-9a-f]{40}$/.test(hex)) throw new Error(`Not a 20-byte hex address: ${address}`);
  const hash = bytesToHex(keccak_256(new TextEncoder().encode(hex)));
  let out = "0x";
  for (let i = 0; i < 40; i++) out += parseInt(hash[i], 16) >= 8 ? hex[i].toUpperCase() : hex[i];
  return out;
}
