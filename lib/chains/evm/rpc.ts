import { createPublicClient, erc20Abi, http, parseAbiItem, type Address, type PublicClient } from "viem";

/**
 * Reading an EVM chain (Ethereum and its ERC-20 tokens) over JSON-RPC, through viem's public
 * client: the few calls the chain watcher makes. Amounts stay bigint base units (wei, token
 * units) as viem decodes them; block heights become numbers, which hold any height exactly.
 * The shapes returned are this module's own, so the matching in lib/chains/evm/scan.ts is pure
 * and knows nothing of viem.
 */

export type EvmClient = PublicClient;

/** A transaction of a block, the fields matching needs. `to` is null for contract creation. */
export type EvmTx = { hash: string; from: string; nonce: number; to: string | null; value: bigint };

/** A block with its transactions; `parentHash` lets the watcher notice a reorganisation. */
export type EvmBlock = { number: number; hash: string; parentHash: string; transactions: EvmTx[] };

/** An ERC-20 Transfer log, decoded. `contract` is the address that emitted it. */
export type TransferLog = {
  contract: string;
  from: string;
  to: string;
  value: bigint;
  txHash: string;
  logIndex: number;
  blockNumber: number;
  blockHash: string;
};

/** ERC-20's event. ERC-721 shares its topic 0 but indexes the third field, so strict decoding drops it. */
export const TRANSFER_EVENT = parseAbiItem("event Transfer(address indexed from, address indexed to, uint256 value)");

/**
 * A client for the node at `url`. `cacheTime: 0` because viem otherwise keeps the block number
 * for 4 s: a watcher polling the tip would see the same height and stop counting confirmations.
 * No retries: the watcher's next pass is the retry, and a failed pass must fail, not stall.
 */
export function evmClient(url: string, options: { timeoutMs?: number } = {}): EvmClient {
  return createPublicClient({
    transport: http(url, { timeout: options.timeoutMs ?? 30_000, retryCount: 0 }),
    cacheTime: 0,
  });
}

/** The chain id the node serves (eth_chainId): 1 mainnet, 11155111 Sepolia, 31337 anvil. */
export async function evmChainIdOf(client: EvmClient): Promise<number> {
  return client.getChainId();
}

/** The height of the node's latest block, asked afresh on every call (the client caches nothing). */
export async function evmTipOf(client: EvmClient): Promise<number> {
  return Number(await client.getBlockNumber());
}

/** The block at `height` with its transactions (viem throws BlockNotFoundError past the tip). */
export async function readEvmBlock(client: EvmClient, height: number): Promise<EvmBlock> {
  const block = await client.getBlock({ blockNumber: BigInt(height), includeTransactions: true });
  return {
    number: Number(block.number),
    hash: block.hash,
    parentHash: block.parentHash,
    transactions: block.transactions.map((tx) => ({ hash: tx.hash, from: tx.from, nonce: tx.nonce, to: tx.to, value: tx.value })),
  };
}

/**
 * The Transfer logs of blocks `from`..`to` (inclusive) emitted by one of `contracts` and paying
 * one of `recipients`: one eth_getLogs call whatever the number of addresses, as the node
 * filters on both lists (addresses, and topic 2 as an OR-list of the padded recipients).
 * Either list empty means nothing to find, and is answered without asking the node: an empty
 * list in a filter means "any", which would return every Transfer on the chain.
 */
export async function readTransferLogs(
  client: EvmClient,
  range: { from: number; to: number },
  contracts: readonly string[],
  recipients: readonly string[],
): Promise<TransferLog[]> {
  if (contracts.length === 0 || recipients.length === 0 || range.to < range.from) return [];
  const logs = await client.getLogs({
    address: contracts as Address[],
    event: TRANSFER_EVENT,
    args: { to: recipients as Address[] },
    fromBlock: BigInt(range.from),
    toBlock: BigInt(range.to),
    strict: true,
  });
  return logs.map((log) => ({
    contract: log.address,
    from: log.args.from,
    to: log.args.to,
    value: log.args.value,
    txHash: log.transactionHash,
    logIndex: log.logIndex,
    blockNumber: Number(log.blockNumber),
    blockHash: log.blockHash,
  }));
}

/** A transaction's sender and nonce (eth_getTransactionByHash). */
export async function senderOf(client: EvmClient, hash: string): Promise<{ from: string; nonce: number }> {
  const tx = await client.getTransaction({ hash: hash as `0x${string}` });
  return { from: tx.from, nonce: tx.nonce };
}

/** How many of `from`'s transactions the node's chain holds (eth_getTransactionCount at the latest block): its next nonce. */
export async function minedCount(client: EvmClient, from: string): Promise<number> {
  return client.getTransactionCount({ address: from as Address, blockTag: "latest" });
}

/** An ERC-20 contract's `decimals()`, to check a configured token against the coin catalogue. */
export async function readErc20Decimals(client: EvmClient, contract: string): Promise<number> {
  return client.readContract({ address: contract as Address, abi: erc20Abi, functionName: "decimals" });
}
