import { decodeCashAddress } from "@bitauth/libauth";
import { bech32 } from "@scure/base";
import { bytesToHex } from "@noble/hashes/utils.js";
import { toBaseUnits } from "@/domain/amounts";
import type { CoinName } from "@/domain/coins";
import type { DecimalText } from "./rpc";

/** A transaction as `getblock <hash> 2` and `getrawtransaction <txid> true` give it (the fields used). */
export type VerboseTx = {
  txid: string;
  vin: { txid?: string; vout?: number; coinbase?: string }[];
  vout: { value: DecimalText; n: number; scriptPubKey: { hex: string } }[];
};

/** An output paying a watched script: keyed by its outpoint, never by txid alone (one tx may pay several). */
export type OutputMatch = { outpoint: string; txid: string; vout: number; scriptPubKey: string; units: bigint; tx: VerboseTx };

/**
 * The scriptPubKey (hex) an address locks to, which is what outputs carry whatever the node's
 * version prints as their address: segwit v0 key hashes (`bc1q…`, `ltc1q…` and the test
 * networks' prefixes) and CashAddr P2PKH (`bitcoincash:q…`), the kinds the service derives.
 */
export function scriptPubKeyOf(address: string): string {
  if (address.includes(":")) {
    const decoded = decodeCashAddress(address);
    if (typeof decoded === "string") throw new Error(`Not a CashAddr address: ${address} (${decoded})`);
    if (decoded.type !== "p2pkh") throw new Error(`Only P2PKH CashAddr addresses are derived: ${address}`);
    return `76a914${bytesToHex(decoded.payload)}88ac`;
  }
  const { words } = bech32.decode(address as `${string}1${string}`);
  const [version, ...rest] = words;
  const program = bech32.fromWords(rest);
  if (version !== 0 || program.length !== 20) throw new Error(`Only segwit v0 key-hash addresses are derived: ${address}`);
  return `0014${bytesToHex(program)}`;
}

/**
 * Every output of `txs` that pays a watched script, in one pass over the outputs: the cost is
 * the block's size, whatever the number of watched addresses (a Set lookup per output). Every
 * transaction counts, the block's last one included (Litecoin's MWEB peg-outs pay out there).
 */
export function matchOutputs(txs: readonly VerboseTx[], watched: { has(script: string): boolean }, coin: CoinName): OutputMatch[] {
  const matches: OutputMatch[] = [];
  for (const tx of txs) {
    for (const out of tx.vout) {
      const script = out.scriptPubKey.hex;
      if (!watched.has(script)) continue;
      matches.push({ outpoint: `${tx.txid}:${out.n}`, txid: tx.txid, vout: out.n, scriptPubKey: script, units: toBaseUnits(coin, out.value), tx });
    }
  }
  return matches;
}

/** The outpoints a transaction spends (`txid:vout`; a coinbase spends none). */
export function inputsOf(tx: VerboseTx): string[] {
  return tx.vin.flatMap((input) => (input.txid === undefined ? [] : [`${input.txid}:${input.vout}`]));
}

/** The outpoints `txs` spend: a watched payment whose input one of these spends was double-spent. */
export function spentOutpoints(txs: readonly VerboseTx[]): Set<string> {
  return new Set(txs.flatMap(inputsOf));
}
