import { abiString, addressOfWord, addressWord, selectorOf, topicOf, word } from "./tron-node-encoding";

/**
 * The fake TRON node's emulated TRC-20 contracts: the ERC-20 rules (OpenZeppelin's, which
 * TRON's USDT follows) applied to in-memory balances, with the Transfer and Approval logs and
 * return data a real contract gives. No TVM runs: the calls a payment service meets are
 * transfer, transferFrom and approve, and the reads decimals, symbol, name, totalSupply,
 * balanceOf and allowance.
 */

export type TronToken = {
  /** 41… hex, lower-case. */
  hex: string;
  symbol: string;
  name: string;
  decimals: number;
  balances: Map<string, bigint>;
  /** Keyed `owner:spender` (both 41… hex). */
  allowances: Map<string, bigint>;
};

/** A log as gettransactioninfobyid prints it: the contract's 20-byte EVM address (no 41), topics and data in hex. */
export type TronLog = { address: string; topics: string[]; data: string };

/** Steps that undo one block's state changes, run newest first when a reorg orphans the block. */
export type Undo = (() => void)[];

/** Adds `delta` to a bigint map entry, and records its inverse (a delta, so later changes made outside blocks survive). */
export function addTo(map: Map<string, bigint>, key: string, delta: bigint, undo: Undo): void {
  map.set(key, (map.get(key) ?? 0n) + delta);
  undo.push(() => map.set(key, (map.get(key) ?? 0n) - delta));
}

const SEL = {
  transfer: selectorOf("transfer(address,uint256)"),
  transferFrom: selectorOf("transferFrom(address,address,uint256)"),
  approve: selectorOf("approve(address,uint256)"),
  balanceOf: selectorOf("balanceOf(address)"),
  allowance: selectorOf("allowance(address,address)"),
  decimals: selectorOf("decimals()"),
  symbol: selectorOf("symbol()"),
  name: selectorOf("name()"),
  totalSupply: selectorOf("totalSupply()"),
};
export const TRANSFER_TOPIC = topicOf("Transfer(address,address,uint256)");
const APPROVAL_TOPIC = topicOf("Approval(address,address,uint256)");
const MAX_UINT256 = (1n << 256n) - 1n;

/*
 * Energy, roughly what a USDT-like contract burns: a storage slot going from zero to non-zero
 * costs 20 000, an update 5 000, on top of the call itself. A revert burns what ran before it.
 */
const ENERGY = { base: 9_650, newSlot: 20_000, slot: 5_000, revert: 1_200, read: 935 };

export type CallOutcome = { ok: boolean; energy: number; logs: TronLog[]; returned: string };

/** The call's words after the 4-byte selector, or null when the data is not `count` whole words. */
function words(data: string, count: number): string[] | null {
  const body = data.slice(8);
  if (body.length !== count * 64 || !/^[0-9a-fA-F]*$/.test(body)) return null;
  return Array.from({ length: count }, (_, i) => body.slice(i * 64, i * 64 + 64));
}

const reverted: CallOutcome = { ok: false, energy: ENERGY.revert, logs: [], returned: "" };

/**
 * Runs a TriggerSmartContract by `caller` with `data` on `token` (undefined: an address with no
 * emulated contract, which reverts, as calling an account with no code under a TRC-20 ABI does).
 */
export function callToken(token: TronToken | undefined, caller: string, data: string, callValue: number, undo: Undo): CallOutcome {
  if (!token || callValue > 0) return reverted; // TRC-20 functions are not payable
  const log = (topic: string, a: string, b: string, value: bigint): TronLog => ({
    address: token.hex.slice(2),
    topics: [topic, addressWord(a), addressWord(b)],
    data: word(value),
  });
  const move = (from: string, to: string, value: bigint): number => {
    const fresh = (token.balances.get(to) ?? 0n) === 0n && value > 0n && from !== to;
    addTo(token.balances, from, -value, undo);
    addTo(token.balances, to, value, undo);
    return ENERGY.base + ENERGY.slot + (fresh ? ENERGY.newSlot : ENERGY.slot);
  };
  const selector = data.slice(0, 8).toLowerCase();
  if (selector === SEL.transfer || selector === SEL.transferFrom) {
    const w = words(data, selector === SEL.transfer ? 2 : 3);
    if (!w) return reverted;
    const [from, to, value] = selector === SEL.transfer ? [caller, addressOfWord(w[0]), BigInt(`0x${w[1]}`)] : [addressOfWord(w[0]), addressOfWord(w[1]), BigInt(`0x${w[2]}`)];
    if ((token.balances.get(from) ?? 0n) < value) return reverted;
    let energy = 0;
    if (selector === SEL.transferFrom) {
      const key = `${from}:${caller}`;
      const allowed = token.allowances.get(key) ?? 0n;
      if (allowed < value) return reverted;
      if (allowed !== MAX_UINT256) addTo(token.allowances, key, -value, undo); // an infinite approval is never spent
      energy += ENERGY.slot;
    }
    energy += move(from, to, value);
    return { ok: true, energy, logs: [log(TRANSFER_TOPIC, from, to, value)], returned: word(1n) };
  }
  if (selector === SEL.approve) {
    const w = words(data, 2);
    if (!w) return reverted;
    const [spender, value] = [addressOfWord(w[0]), BigInt(`0x${w[1]}`)];
    const key = `${caller}:${spender}`;
    const before = token.allowances.get(key) ?? 0n;
    addTo(token.allowances, key, value - before, undo);
    const energy = ENERGY.base + (before === 0n && value > 0n ? ENERGY.newSlot : ENERGY.slot);
    return { ok: true, energy, logs: [log(APPROVAL_TOPIC, caller, spender, value)], returned: word(1n) };
  }
  return reverted;
}

/** A read-only call (triggerconstantcontract) on `token`: its return data, or a revert. */
export function readToken(token: TronToken, data: string): CallOutcome {
  const selector = data.slice(0, 8).toLowerCase();
  const ok = (returned: string): CallOutcome => ({ ok: true, energy: ENERGY.read, logs: [], returned });
  const w1 = words(data, 1);
  const w2 = words(data, 2);
  if (selector === SEL.decimals && words(data, 0)) return ok(word(BigInt(token.decimals)));
  if (selector === SEL.symbol && words(data, 0)) return ok(abiString(token.symbol));
  if (selector === SEL.name && words(data, 0)) return ok(abiString(token.name));
  if (selector === SEL.totalSupply && words(data, 0)) return ok(word([...token.balances.values()].reduce((a, b) => a + b, 0n)));
  if (selector === SEL.balanceOf && w1) return ok(word(token.balances.get(addressOfWord(w1[0])) ?? 0n));
  if (selector === SEL.allowance && w2) return ok(word(token.allowances.get(`${addressOfWord(w2[0])}:${addressOfWord(w2[1])}`) ?? 0n));
  return reverted;
}
