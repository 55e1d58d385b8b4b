import type { CoinName } from "@/domain/coins";
import type { EvmBlock, TransferLog } from "./rpc";

/**
 * Matching what an EVM chain carries against the watched deposit addresses: a block's native
 * ETH transfers, and ERC-20 Transfer logs. Pure, and one pass over the block or the logs with a
 * Set (or Map) lookup per item, so the cost is the chain's traffic whatever the number of
 * watched addresses. Addresses are compared lower-cased: nodes print them checksummed (EIP-55)
 * or not, and the service derives them checksummed.
 */

/** What an EVM transaction uses up: its sender's nonce, as `sender:nonce` (lower-cased): one transaction per nonce is ever mined. */
export const senderNonce = (from: string, nonce: number) => `${from.toLowerCase()}:${nonce}`;

/** A transfer to a watched address, in base units (wei, or the token's smallest unit). */
export type EvmMatch = {
  /** `${txHash}` for native ETH (one value per transaction), `${txHash}:${logIndex}` for a token log. */
  key: string;
  coin: CoinName;
  txHash: string;
  /** Lower-cased. */
  to: string;
  units: bigint;
  blockNumber: number;
  blockHash: string;
  /** Its transaction's `sender:nonce`, when the block read gave it (native transfers); a log's is asked for. */
  spends?: string[];
};

/** The watched addresses as matching looks them up. */
export function watchedSet(addresses: Iterable<string>): Set<string> {
  const set = new Set<string>();
  for (const address of addresses) set.add(address.toLowerCase());
  return set;
}

/** The configured token contracts (contract address → coin) as matching looks them up. */
export function tokenContracts(entries: Iterable<readonly [string, CoinName]>): Map<string, CoinName> {
  const map = new Map<string, CoinName>();
  for (const [contract, coin] of entries) map.set(contract.toLowerCase(), coin);
  return map;
}

/**
 * The block's transactions that pay ETH to a watched address: `to` watched and a value above
 * zero (a zero-value call to an address is no payment). Only a transaction's own value counts;
 * ETH a contract forwards inside a transaction (an internal transfer) is not seen here.
 * `watched` holds lower-cased addresses (watchedSet).
 */
export function matchNativeTransfers(block: EvmBlock, watched: { has(address: string): boolean }): EvmMatch[] {
  const matches: EvmMatch[] = [];
  for (const tx of block.transactions) {
    if (tx.to === null || tx.value <= 0n) continue;
    const to = tx.to.toLowerCase();
    if (!watched.has(to)) continue;
    matches.push({ key: tx.hash, coin: "ETHEREUM", txHash: tx.hash, to, units: tx.value, blockNumber: block.number, blockHash: block.hash, spends: [senderNonce(tx.from, tx.nonce)] });
  }
  return matches;
}

/**
 * The Transfer logs that pay a watched address in a configured token. The emitting contract
 * decides the coin, and one that is not configured never matches: any contract can emit a
 * Transfer event naming any address and amount, so only the token's own contract is believed.
 * A log is keyed by its transaction and index, as one transaction may pay several times.
 * `watched` and `tokens` hold lower-cased addresses (watchedSet, tokenContracts).
 */
export function matchTokenTransfers(
  logs: readonly TransferLog[],
  watched: { has(address: string): boolean },
  tokens: ReadonlyMap<string, CoinName>,
): EvmMatch[] {
  const matches: EvmMatch[] = [];
  for (const log of logs) {
    const coin = tokens.get(log.contract.toLowerCase());
    if (coin === undefined || log.value <= 0n) continue;
    const to = log.to.toLowerCase();
    if (!watched.has(to)) continue;
    matches.push({
      key: `${log.txHash}:${log.logIndex}`,
      coin,
      txHash: log.txHash,
      to,
      units: log.value,
      blockNumber: log.blockNumber,
      blockHash: log.blockHash,
    });
  }
  return matches;
}
