import type { CoinName } from "@/domain/coins";
import { tronHexOfEvm } from "./address";
import { trxTransfersOf, type TronBlock, type TronTxInfo } from "./rpc";

/**
 * Matching what a TRON block carries against the watched deposit addresses: TRX moved by
 * TransferContract transactions, and TRC-20 Transfer logs of the configured contracts. Pure, and
 * one pass over the block with a Map lookup per item, so the cost is the chain's traffic whatever
 * the number of watched addresses. Addresses are lower-case hex (41…).
 */

/** keccak256("Transfer(address,address,uint256)"): the TRC-20 event, as ERC-20's. */
export const TRANSFER_TOPIC = "ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef";

/** A transfer to a watched address, in base units (sun, or the token's smallest unit). */
export type TronMatch = {
  /** The txID for TRX (one TransferContract per transaction), `${txID}:${log index}` for a token log. */
  key: string;
  /** The coin paid: TRON for TRX, else the first coin of the emitting contract (all its coins are paid, chargesPaid). */
  coin: CoinName;
  contract: string | null;
  txId: string;
  to: string;
  units: bigint;
};

/** The block's TRX transfers to a watched address (above zero: a zero transfer pays nothing). */
export function matchTrxTransfers(block: TronBlock, watched: { has(address: string): boolean }): TronMatch[] {
  const out: TronMatch[] = [];
  for (const t of trxTransfersOf(block)) {
    if (t.sun > 0n && watched.has(t.to)) out.push({ key: t.txId, coin: "TRON", contract: null, txId: t.txId, to: t.to, units: t.sun });
  }
  return out;
}

/**
 * The Transfer logs of a block's successful transactions that pay a watched address in a
 * configured token. Logs, not call data: transferFrom, batch payouts and contract wallets move
 * tokens without a transfer() call to the token. Only a transaction whose execution succeeded
 * counts (its receipt SUCCESS; a REVERTed one keeps no logs, but the node's advice is to check
 * first), and only a configured contract is believed: any contract can emit a Transfer event
 * naming any address and amount, a fake "USDT" among them.
 */
export function matchTrc20Transfers(
  infos: readonly TronTxInfo[],
  watched: { has(address: string): boolean },
  tokens: ReadonlyMap<string, readonly CoinName[]>,
): TronMatch[] {
  const out: TronMatch[] = [];
  for (const info of infos) {
    if (info.result === "FAILED" || info.receipt?.result !== "SUCCESS" || !info.log) continue;
    info.log.forEach((log, index) => {
      if (log.topics.length !== 3 || log.topics[0].toLowerCase() !== TRANSFER_TOPIC || log.data.length !== 64) return;
      if (!/^(41)?[0-9a-fA-F]{40}$/.test(log.address) || !/^[0-9a-fA-F]{64}$/.test(log.topics[2])) return;
      const contract = tronHexOfEvm(log.address);
      const coins = tokens.get(contract);
      if (!coins?.length) return;
      const to = `41${log.topics[2].slice(24).toLowerCase()}`;
      const units = BigInt(`0x${log.data}`);
      if (units > 0n && watched.has(to)) out.push({ key: `${info.id}:${index}`, coin: coins[0], contract, txId: info.id, to, units });
    });
  }
  return out;
}
