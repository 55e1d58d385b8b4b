import { randomInt } from "node:crypto";
import { Address } from "@ton/core";

/**
 * TON wallet addresses, payment comments and transfer links. A merchant gives its wallet's
 * address in any of its forms: user-friendly (base64 or base64url, `EQ…` bounceable, `UQ…`
 * non-bounceable, `kQ…`/`0Q…` the testnet forms) or raw (`0:<64 hex>`). @ton/core parses and
 * checks them (the user-friendly forms carry a CRC); the service stores the raw form and compares
 * raw forms only, as the same account has four user-friendly spellings.
 */
export type TonAddress = {
  /** `<workchain>:<hex>`, lower-case. */
  raw: string;
  /** The user-friendly form's testnet flag; null for a raw address, which has none. */
  testnet: boolean | null;
};

/** The address in `text`, or why it is not a TON wallet address. */
export function parseTonAddress(text: string): TonAddress | string {
  const t = text.trim();
  try {
    const parsed = Address.isRaw(t) ? { address: Address.parseRaw(t), testnet: null } : Address.isFriendly(t) ? ((f) => ({ address: f.address, testnet: f.isTestOnly }))(Address.parseFriendly(t)) : null;
    if (parsed && parsed.address.workChain !== 0) return "must be a wallet address in the basechain (workchain 0)";
    if (parsed) return { raw: parsed.address.toRawString(), testnet: parsed.testnet };
  } catch {
    // falls through to the message below
  }
  return "must be a TON wallet address: user-friendly (EQ…, UQ…, or a testnet kQ…/0Q…) or raw (0:<64 hex digits>)";
}

/** Why `text` is not a TON wallet address, or null when it is. */
export function tonAddressProblem(text: string): string | null {
  const a = parseTonAddress(text);
  return typeof a === "string" ? a : null;
}

/** Whether an address given with `testnet` may be paid on a network that is (`netTestnet`) a test network or not: a raw address fits either. */
export function tonAddressFits(testnet: boolean | null, netTestnet: boolean): boolean {
  return testnet === null || testnet === netTestnet;
}

/** The raw address's user-friendly form a wallet shows: non-bounceable (`UQ…`; `0Q…` on a test network), as wallets are paid. */
export function friendlyTonAddress(raw: string, testnet: boolean): string {
  return Address.parseRaw(raw).toString({ urlSafe: true, bounceable: false, testOnly: testnet });
}

/** The comment alphabet: upper-case letters and digits without the ones read alike (0/O, 1/I/L). */
const COMMENT_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";
export const COMMENT_LENGTH = 10;

/**
 * A fresh payment comment: 10 characters of a 31-letter alphabet (about 49 bits), short enough to
 * type from the checkout and unlikely to meet another's (the table's unique key still refuses a
 * repeat). Wallets send it as a text comment (op 0) or, for a jetton, as the forward payload.
 */
export function newTonComment(): string {
  let out = "";
  for (let i = 0; i < COMMENT_LENGTH; i++) out += COMMENT_ALPHABET[randomInt(COMMENT_ALPHABET.length)];
  return out;
}

/** A comment as typed by a payer: spaces around it and letter case do not matter. */
export function normalizeTonComment(text: string): string {
  return text.trim().toUpperCase();
}

/**
 * The transfer link a TON wallet opens (link or QR code), in the `ton://transfer` form
 * (tonkeeper/wallet-api README; docs.tonconsole.com/tonkeeper/deep-linking):
 * `ton://transfer/<address>?amount=<nanotons>&text=<comment>`; for a jetton the master is added
 * as `jetton=<master>` and the amount is in the jetton's base units.
 */
export function tonTransferUri(r: { address: string; units: bigint; comment: string; jettonMaster?: string }): string {
  const q = [...(r.jettonMaster ? [`jetton=${encodeURIComponent(r.jettonMaster)}`] : []), `amount=${r.units}`, `text=${encodeURIComponent(r.comment)}`];
  return `ton://transfer/${r.address}?${q.join("&")}`;
}
