import { ripemd160 } from "@noble/hashes/legacy.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import { HDKey } from "@scure/bip32";
import { mnemonicToSeedSync } from "@scure/bip39";
import { bech32, createBase58check } from "@scure/base";
import { decodeCashAddress, decodeHdPublicKey, deriveHdPathRelative, hash160 as libauthHash160 } from "@bitauth/libauth";
import { describe, expect, it } from "vitest";
import {
  ACCOUNT_PATHS,
  InvalidExtendedKeyError,
  KEY_FAMILIES,
  TEST_EXTENDED_PUBLIC_KEYS,
  deriveAddress,
  deriveAddressForCoin,
  keyFamilyOf,
  networkOfFamily,
  toChecksumAddress,
  validateExtendedPublicKey,
} from "@/lib/wallets/derive";

/** The public BIP39 test mnemonic used by BIP84 and countless wallet test suites. */
const MNEMONIC = "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about";
const root = HDKey.fromMasterSeed(mnemonicToSeedSync(MNEMONIC));
const base58check = createBase58check(sha256);

/** Re-encode an extended key's payload with other version bytes (xpub ↔ zpub ↔ …). */
function withVersion(key: string, version: number): string {
  const bytes = base58check.decode(key);
  new DataView(bytes.buffer, bytes.byteOffset, 4).setUint32(0, version, false);
  return base58check.encode(bytes);
}

describe("published vectors", () => {
  it("BIP84 (bitcoin/bips bip-0084.mediawiki): account zpub and first receive addresses", () => {
    const zpub =
      "zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs";
    expect(TEST_EXTENDED_PUBLIC_KEYS.BITCOIN).toBe(zpub);
    expect(deriveAddress("BTC", zpub, 0)).toBe("bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu");
    expect(deriveAddress("BTC", zpub, 1)).toBe("bc1qnjg0jd8228aq7egyzacy8cys3knf9xvrerkf9g");
    // The same key material exported as a plain xpub (as Ledger/Bitcoin Core do) gives the same addresses.
    expect(deriveAddress("BTC", withVersion(zpub, 0x0488b21e), 0)).toBe("bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu");
  });

  it("Litecoin BIP84 (alexdupre/bitcoin-lib, litecoin BIP84Spec.scala): m/84'/2'/0'", () => {
    // That suite publishes the account key in xpub encoding and the 0/0 and 0/1 addresses.
    const xpub =
      "xpub6CjGURuDpczf6uNrCCwfhVizn5J3hsWcvZ2m6GAdmAjZnoWJPrx6TFPjGSftc2o5fvox6ubQjSXmjjaHZjwYMH7SGFpHHb9Jg24zBf66mbE";
    expect(withVersion(xpub, 0x04b24746)).toBe(TEST_EXTENDED_PUBLIC_KEYS.LITECOIN);
    expect(deriveAddress("LTC", xpub, 0)).toBe("ltc1qjmxnz78nmc8nq77wuxh25n2es7rzm5c2rkk4wh");
    expect(deriveAddress("LTC", xpub, 1)).toBe("ltc1qwlezpr3890hcp6vva9twqh27mr6edadreqvhnn");
    expect(deriveAddress("LTC", TEST_EXTENDED_PUBLIC_KEYS.LITECOIN, 0)).toBe("ltc1qjmxnz78nmc8nq77wuxh25n2es7rzm5c2rkk4wh");
    // Litecoin's own generic version bytes (Ltub) carry the same key.
    expect(deriveAddress("LTC", withVersion(xpub, 0x019da462), 1)).toBe("ltc1qwlezpr3890hcp6vva9twqh27mr6edadreqvhnn");
  });

  it("Bitcoin Cash (EdgeApp/edge-currency-plugins altcoin fixtures, checked there against iancoleman): m/44'/145'/0'", () => {
    const xpub =
      "xpub6ByHsPNSQXTWZ7PLESMY2FufyYWtLXagSUpMQq7Un96SiThZH2iJB1X7pwviH1WtKVeDP6K8d6xxFzzoaFzF3s8BKCZx8oEDdDkNnp4owAZ";
    expect(TEST_EXTENDED_PUBLIC_KEYS.BITCOIN_CASH).toBe(xpub);
    const address = deriveAddress("BTC", xpub, 0, "BITCOIN_CASH");
    expect(address).toBe("bitcoincash:qqyx49mu0kkn9ftfj6hje6g2wfer34yfnq5tahq3q6");
    // Same key hash as the legacy address those fixtures (and Ledger Live) list: 1mW6fDEMjKrDHvLvoEsaeLxSCzZBf3Bfg.
    const legacy = base58check.decode("1mW6fDEMjKrDHvLvoEsaeLxSCzZBf3Bfg");
    const decoded = decodeCashAddress(address);
    if (typeof decoded === "string") throw new Error(decoded);
    expect(bytesToHex(decoded.payload)).toBe(bytesToHex(legacy.subarray(1)));
  });

  it("Ethereum m/44'/60'/0'/0/0 (the well-known address of this mnemonic, e.g. iancoleman, MetaMask/Hardhat suites)", () => {
    expect(deriveAddress("ETHEREUM", TEST_EXTENDED_PUBLIC_KEYS.ETHEREUM, 0)).toBe(
      "0x9858EfFD232B4033E47d90003D41EC34EcaEda94",
    );
    for (const coin of ["ETHEREUM", "ETH_TETHER", "CONTRACT_ERC20_USDC", "ETH_SHIBA_INU"] as const) {
      expect(deriveAddressForCoin(coin, TEST_EXTENDED_PUBLIC_KEYS.ETHEREUM, 0)).toBe(
        "0x9858EfFD232B4033E47d90003D41EC34EcaEda94",
      );
    }
  });

  it("TRON m/44'/195'/0'/0/0 (Ledger app-tron test script, iancoleman)", () => {
    expect(deriveAddress("TRON", TEST_EXTENDED_PUBLIC_KEYS.TRON, 0)).toBe("TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH");
    expect(deriveAddressForCoin("TRX_TETHER", TEST_EXTENDED_PUBLIC_KEYS.TRON, 0)).toBe(
      "TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH",
    );
  });

  it("EIP-55 examples from the EIP itself", () => {
    for (const a of [
      "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
      "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359",
      "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB",
      "0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb",
    ]) {
      expect(toChecksumAddress(a.toLowerCase())).toBe(a);
    }
  });
});

describe("test constants", () => {
  it("equal the account keys derived from the mnemonic", () => {
    for (const family of KEY_FAMILIES) {
      const account = root.derive(ACCOUNT_PATHS[family]);
      const key = TEST_EXTENDED_PUBLIC_KEYS[family];
      const asXpub = withVersion(key, 0x0488b21e);
      expect(asXpub, family).toBe(account.publicExtendedKey);
    }
  });

  it("give, for many indices, the address of the full path from the mnemonic (and libauth agrees on the key hash)", () => {
    for (const family of KEY_FAMILIES) {
      const network = networkOfFamily(family);
      const coin = family === "BITCOIN_CASH" ? "BITCOIN_CASH" : undefined;
      const xpub = withVersion(TEST_EXTENDED_PUBLIC_KEYS[family], 0x0488b21e);
      const libauthNode = decodeHdPublicKey(xpub);
      if (typeof libauthNode === "string") throw new Error(libauthNode);
      for (const index of [0, 1, 7, 1000, 0x7fffffff]) {
        const full = root.derive(`${ACCOUNT_PATHS[family]}/0/${index}`);
        const address = deriveAddress(network, TEST_EXTENDED_PUBLIC_KEYS[family], index, coin);
        // independent derivation: libauth (its own secp256k1 WASM build and hashes)
        const other = deriveHdPathRelative(libauthNode.node, `0/${index}`);
        if (typeof other === "string") throw new Error(other);
        expect(bytesToHex(other.publicKey)).toBe(bytesToHex(full.publicKey!));
        if (family === "BITCOIN" || family === "LITECOIN") {
          const { prefix, words } = bech32.decode(address as `${string}1${string}`);
          expect(prefix).toBe(family === "BITCOIN" ? "bc" : "ltc");
          expect(words[0]).toBe(0);
          const program = bech32.fromWords(words.slice(1));
          expect(bytesToHex(program)).toBe(bytesToHex(libauthHash160(other.publicKey)));
          expect(bytesToHex(program)).toBe(bytesToHex(ripemd160(sha256(full.publicKey!))));
        } else if (family === "BITCOIN_CASH") {
          const decoded = decodeCashAddress(address);
          if (typeof decoded === "string") throw new Error(decoded);
          expect(decoded.type).toBe("p2pkh");
          expect(bytesToHex(decoded.payload)).toBe(bytesToHex(libauthHash160(other.publicKey)));
        } else if (family === "ETHEREUM") {
          expect(address).toMatch(/^0x[0-9a-fA-F]{40}$/);
          expect(toChecksumAddress(address)).toBe(address);
        } else {
          const bytes = base58check.decode(address);
          expect(bytes.length).toBe(21);
          expect(bytes[0]).toBe(0x41);
          expect(address.startsWith("T")).toBe(true);
        }
      }
    }
  });

  it("ETH and TRON addresses share the 20 bytes", () => {
    // Derive both from the ETH key: TRON's encoding of the same key is 0x41 + the Ethereum bytes.
    const tronFromEthKey = deriveAddress("TRON", TEST_EXTENDED_PUBLIC_KEYS.ETHEREUM, 3);
    const eth = deriveAddress("ETHEREUM", TEST_EXTENDED_PUBLIC_KEYS.ETHEREUM, 3);
    expect(bytesToHex(base58check.decode(tronFromEthKey).subarray(1))).toBe(eth.slice(2).toLowerCase());
  });

  it("keyFamilyOf maps every coin of a derivable network", () => {
    expect(keyFamilyOf("BITCOIN")).toBe("BITCOIN");
    expect(keyFamilyOf("BITCOIN_CASH")).toBe("BITCOIN_CASH");
    expect(keyFamilyOf("LITECOIN")).toBe("LITECOIN");
    expect(keyFamilyOf("ETH_DAI")).toBe("ETHEREUM");
    expect(keyFamilyOf("CONTRACT_TRC20_USDT")).toBe("TRON");
    expect(keyFamilyOf("SOLANA")).toBeNull();
    expect(keyFamilyOf("MONERO")).toBeNull();
    expect(keyFamilyOf("TON")).toBeNull();
  });
});

describe("input validation", () => {
  const zpub = TEST_EXTENDED_PUBLIC_KEYS.BITCOIN;
  const xpub = TEST_EXTENDED_PUBLIC_KEYS.ETHEREUM;

  it("reports what it accepted", () => {
    expect(validateExtendedPublicKey("BTC", zpub)).toEqual({ family: "BITCOIN", prefix: "zpub", depth: 3 });
    expect(validateExtendedPublicKey("BTC", TEST_EXTENDED_PUBLIC_KEYS.BITCOIN_CASH, "BITCOIN_CASH")).toEqual({
      family: "BITCOIN_CASH",
      prefix: "xpub",
      depth: 3,
    });
    expect(validateExtendedPublicKey("TRON", TEST_EXTENDED_PUBLIC_KEYS.TRON).prefix).toBe("xpub");
    // Electrum-style shallower keys are fine
    expect(validateExtendedPublicKey("BTC", withVersion(root.derive("m/0'").publicExtendedKey, 0x04b24746)).depth).toBe(1);
  });

  const bad: [string, () => unknown, RegExp][] = [
    ["empty", () => validateExtendedPublicKey("BTC", ""), /empty/],
    ["garbage", () => validateExtendedPublicKey("BTC", "not a key"), /base58check/],
    ["typo (checksum)", () => validateExtendedPublicKey("BTC", zpub.slice(0, -1) + (zpub.endsWith("s") ? "t" : "s")), /base58check/],
    ["truncated", () => validateExtendedPublicKey("ETHEREUM", xpub.slice(0, 60)), /base58check|bytes/],
    ["an address", () => validateExtendedPublicKey("TRON", "TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH"), /bytes; expected 78/],
    ["private key", () => validateExtendedPublicKey("BTC", root.derive(ACCOUNT_PATHS.BITCOIN).privateExtendedKey), /private key/],
    ["testnet", () => validateExtendedPublicKey("BTC", withVersion(zpub, 0x043587cf)), /testnet/],
    ["ypub for native SegWit", () => validateExtendedPublicKey("BTC", withVersion(zpub, 0x049d7cb2)), /different address type/],
    ["Mtub for LTC", () => validateExtendedPublicKey("LTC", withVersion(zpub, 0x01b26ef6)), /different address type/],
    ["zpub for BCH", () => validateExtendedPublicKey("BTC", zpub, "BITCOIN_CASH"), /different address type/],
    ["zpub for ETH", () => validateExtendedPublicKey("ETHEREUM", zpub), /different address type/],
    ["Ltub for BTC", () => validateExtendedPublicKey("BTC", withVersion(zpub, 0x019da462)), /different address type/],
    ["unknown version", () => validateExtendedPublicKey("BTC", withVersion(zpub, 0x01020304)), /Unknown extended key version/],
    ["too deep", () => validateExtendedPublicKey("ETHEREUM", root.derive("m/44'/60'/0'/0").publicExtendedKey), /depth 4/],
    [
      "not a curve point",
      () => {
        const bytes = base58check.decode(xpub);
        bytes[45] = 0x02;
        bytes.fill(0xff, 46);
        return validateExtendedPublicKey("ETHEREUM", base58check.encode(bytes));
      },
      /Invalid extended public key/,
    ],
  ];
  it.each(bad)("rejects %s", (_name, fn, message) => {
    expect(fn).toThrow(InvalidExtendedKeyError);
    expect(fn).toThrow(message);
  });

  it("rejects indices outside 0 … 2^31−1 and a coin of another network", () => {
    for (const index of [-1, 0x80000000, 1.5, Number.NaN]) {
      expect(() => deriveAddress("ETHEREUM", xpub, index)).toThrow(/index/);
    }
    expect(() => deriveAddress("ETHEREUM", xpub, 0, "BITCOIN")).toThrow(/BITCOIN/);
    expect(() => deriveAddressForCoin("SOLANA", xpub, 0)).toThrow(/SOLANA/);
  });
});

describe("test networks and regtest (the network the chain's node reports)", () => {
  const tpubOf = (key: string) => withVersion(key, 0x043587cf);
  const vpubOf = (key: string) => withVersion(key, 0x045f1cf6);

  it("Litecoin regtest: tpub and rltc1, as Litecoin Core 0.21's deriveaddresses gives for wpkh(tpub…/0/*)", () => {
    // Litecoin Core 0.21.2.1 answered these for `deriveaddresses "wpkh(<this tpub>/0/*)" "[0,2]"`.
    const tpub = tpubOf(TEST_EXTENDED_PUBLIC_KEYS.LITECOIN);
    expect(tpub).toBe("tpubDD6tzfiuXtx7NhZhePvkuR4N7CPhhG1gUBd4SpDn75VTY6B1U5oBbh4ZWUkg8XkKTqLriV7HGYMpRv4txbnnEiZjKrZay7oYFyfPwjLjJVi");
    expect([0, 1, 2].map((i) => deriveAddress("LTC", tpub, i, "LITECOIN", "regtest"))).toEqual([
      "rltc1qjmxnz78nmc8nq77wuxh25n2es7rzm5c23g5xdr",
      "rltc1qwlezpr3890hcp6vva9twqh27mr6edadrt7wys8",
      "rltc1qc6aucuznvhh9uvux246x24vf9y9ncfk7cmekfy",
    ]);
    expect(deriveAddressForCoin("LITECOIN", vpubOf(tpub), 0, "test")).toMatch(/^tltc1qjmxnz78nmc8nq77wuxh25n2es7rzm5c2/);
  });

  it("Bitcoin: BIP84's testnet vector (vpub, tb1), and the same program under bcrt1 on regtest", () => {
    // bitcoin/bips bip-0084.mediawiki gives m/84'/1'/0' of the mnemonic and its first address.
    const account = root.derive("m/84'/1'/0'");
    const vpub = vpubOf(account.publicExtendedKey);
    expect(deriveAddress("BTC", vpub, 0, "BITCOIN", "test")).toBe("tb1q6rz28mcfaxtmd6v789l9rrlrusdprr9pqcpvkl");
    const regtest = deriveAddressForCoin("BITCOIN", tpubOf(vpub), 0, "regtest");
    const decoded = bech32.decode(regtest as `${string}1${string}`);
    expect(decoded.prefix).toBe("bcrt");
    expect(bech32.encode("tb", decoded.words)).toBe("tb1q6rz28mcfaxtmd6v789l9rrlrusdprr9pqcpvkl");
  });

  it("Bitcoin Cash: bchtest: and bchreg: CashAddr of the same key hash as on mainnet", () => {
    const xpub = TEST_EXTENDED_PUBLIC_KEYS.BITCOIN_CASH;
    const main = decodeCashAddress(deriveAddress("BTC", xpub, 3, "BITCOIN_CASH"));
    for (const [net, prefix] of [["test", "bchtest"], ["regtest", "bchreg"]] as const) {
      const address = deriveAddressForCoin("BITCOIN_CASH", tpubOf(xpub), 3, net);
      expect(address.startsWith(`${prefix}:q`)).toBe(true);
      const decoded = decodeCashAddress(address);
      if (typeof decoded === "string" || typeof main === "string") throw new Error(String(decoded));
      expect(bytesToHex(decoded.payload)).toBe(bytesToHex(main.payload));
    }
  });

  it("Ethereum and TRON addresses are the same on every network", () => {
    const key = TEST_EXTENDED_PUBLIC_KEYS.ETHEREUM;
    expect(deriveAddressForCoin("ETHEREUM", key, 0, "regtest")).toBe(deriveAddressForCoin("ETHEREUM", key, 0));
  });

  it("refuses a mainnet key for a test network or regtest, and a testnet key for mainnet, saying which to give", () => {
    const zpub = TEST_EXTENDED_PUBLIC_KEYS.LITECOIN;
    expect(() => validateExtendedPublicKey("LTC", zpub, "LITECOIN", "regtest")).toThrow(
      new InvalidExtendedKeyError("zpub is a mainnet key, but the LITECOIN node serves regtest: give the account's vpub or tpub key"),
    );
    expect(() => validateExtendedPublicKey("BTC", TEST_EXTENDED_PUBLIC_KEYS.BITCOIN, "BITCOIN", "test")).toThrow(/mainnet key.*a test network/);
    expect(() => validateExtendedPublicKey("LTC", tpubOf(zpub), "LITECOIN")).toThrow(/testnet key/);
    expect(validateExtendedPublicKey("LTC", tpubOf(zpub), "LITECOIN", "regtest")).toMatchObject({ family: "LITECOIN", prefix: "tpub", depth: 3 });
  });
});
