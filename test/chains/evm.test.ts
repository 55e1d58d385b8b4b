import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Address, Hash } from "viem";
import { TEST_EXTENDED_PUBLIC_KEYS, deriveAddressForCoin } from "@/lib/wallets/derive";
import { matchNativeTransfers, matchTokenTransfers, tokenContracts, watchedSet } from "@/lib/chains/evm/scan";
import { evmChainIdOf, evmTipOf, readErc20Decimals, readEvmBlock, readTransferLogs } from "@/lib/chains/evm/rpc";
import { ANVIL_CHAIN_ID, startAnvil, type Anvil } from "./nodes/anvil";
import { anvilWallet } from "./nodes/anvil-wallet";

/**
 * The EVM reading and matching against a real anvil: native ETH found in a block, ERC-20
 * transfers found through one logs call, and the chain moving under them (new blocks, a
 * reorganisation). The tests share one node and run in order; the reorg comes last.
 */

const derived = Array.from({ length: 50 }, (_, i) => deriveAddressForCoin("ETHEREUM", TEST_EXTENDED_PUBLIC_KEYS.ETHEREUM, i));
const watched = watchedSet(derived);

describe("EVM JSON-RPC and matching against anvil", () => {
  let node: Anvil;
  let anvil: ReturnType<typeof anvilWallet>;
  let usd: Address; // the configured token (6 decimals)
  let fake: Address; // a second token nobody configured
  let tokenTransfer: { hash: Hash; height: number; blockHash: string };

  beforeAll(async () => {
    node = await startAnvil();
    anvil = anvilWallet(node);
    usd = await anvil.deployToken("Test USD", "TUSD", 6);
    fake = await anvil.deployToken("Fake USD", "FUSD", 6);
  }, 60_000);
  afterAll(async () => node?.stop(), 30_000);

  it("asks the node which chain it serves", async () => {
    expect(await evmChainIdOf(node.client)).toBe(ANVIL_CHAIN_ID);
  });

  it("finds ETH paid to a derived address in its block, to the last wei, and nothing else", async () => {
    const wei = 1_234_567_890_123_456_789n; // beyond a double's 2^53: exactness shows
    const receipt = await anvil.pay(derived[7] as Address, wei);
    const hash = receipt.transactionHash;
    const block = await readEvmBlock(node.client, Number(receipt.blockNumber));
    expect(block.hash).toBe(receipt.blockHash);
    expect(matchNativeTransfers(block, watched)).toEqual([
      {
        key: hash,
        coin: "ETHEREUM",
        txHash: hash,
        to: derived[7].toLowerCase(),
        units: wei,
        blockNumber: Number(receipt.blockNumber),
        blockHash: receipt.blockHash,
        // What the transaction uses up: its sender's nonce.
        spends: [`${receipt.from.toLowerCase()}:${(await node.client.getTransaction({ hash })).nonce}`],
      },
    ]);

    // Neither an unwatched recipient nor a zero-value call to a watched one is a payment.
    for (const tx of [{ to: "0x000000000000000000000000000000000000dEaD", value: 5n }, { to: derived[8], value: 0n }]) {
      const r = await anvil.pay(tx.to as Address, tx.value);
      expect(matchNativeTransfers(await readEvmBlock(node.client, Number(r.blockNumber)), watched)).toEqual([]);
    }
  });

  it("reads an ERC-20 contract's decimals", async () => {
    expect(await readErc20Decimals(node.client, usd)).toBe(6);
  });

  it("finds a token transfer to a derived address through one logs call, in base units, as the configured coin", async () => {
    const from = await node.client.getBlockNumber();
    const units = 12_345_678n; // 12.345678 TUSD
    await anvil.mint(usd, anvil.wallet.account.address, 10n ** 12n);
    const receipt = await anvil.payToken(usd, derived[3] as Address, units);
    const hash = receipt.transactionHash;
    const to = await evmTipOf(node.client);

    // Derived addresses are EIP-55 checksummed; the node and the filter take them as they are.
    const logs = await readTransferLogs(node.client, { from: Number(from), to }, [usd], derived);
    expect(logs).toHaveLength(1); // the mint paid the dev account, which is not watched
    const tokens = tokenContracts([[usd, "ETH_USD_COIN"]]);
    const [match] = matchTokenTransfers(logs, watched, tokens);
    const logIndex = receipt.logs[0].logIndex;
    expect(match).toEqual({
      key: `${hash}:${logIndex}`,
      coin: "ETH_USD_COIN",
      txHash: hash,
      to: derived[3].toLowerCase(),
      units,
      blockNumber: Number(receipt.blockNumber),
      blockHash: receipt.blockHash,
    });
    tokenTransfer = { hash, height: Number(receipt.blockNumber), blockHash: receipt.blockHash };
  });

  it("ignores a Transfer to a watched address from a contract that is not configured", async () => {
    const from = (await evmTipOf(node.client)) + 1; // the range is inclusive: start past the earlier transfer
    const receipt = await anvil.mint(fake, derived[5] as Address, 1_000_000n);
    const range = { from, to: Number(receipt.blockNumber) };
    // The node's own filter leaves it out when asked for the configured contracts only …
    expect(await readTransferLogs(node.client, range, [usd], derived)).toEqual([]);
    // … and matching refuses it even when handed the log: only the token's own contract is believed.
    const logs = await readTransferLogs(node.client, range, [usd, fake], derived);
    expect(logs.map((l) => l.contract.toLowerCase())).toEqual([fake.toLowerCase()]);
    expect(matchTokenTransfers(logs, watched, tokenContracts([[usd, "ETH_USD_COIN"]]))).toEqual([]);
    // Empty lists are "any" to a node, so they are answered without asking it.
    expect(await readTransferLogs(node.client, range, [], derived)).toEqual([]);
    expect(await readTransferLogs(node.client, range, [usd, fake], [])).toEqual([]);
  });

  it("keeps counting confirmations as blocks arrive (the client caches no block number)", async () => {
    const confirmations = async () => (await evmTipOf(node.client)) - tokenTransfer.height + 1;
    const before = await confirmations();
    expect(before).toBeGreaterThanOrEqual(1);
    await anvil.rpc("anvil_mine", ["0x5"]);
    expect(await confirmations()).toBe(before + 5);
    await anvil.rpc("anvil_mine", ["0x1"]);
    expect(await confirmations()).toBe(before + 6);
  });

  it("sees a reorganisation: the block at the transfer's height changes and its log is gone", async () => {
    const tip = await evmTipOf(node.client);
    const depth = tip - tokenTransfer.height + 1; // replaces the transfer's block and all above it
    await anvil.rpc("anvil_reorg", [depth, []]);
    expect(await evmTipOf(node.client)).toBe(tip);
    const block = await readEvmBlock(node.client, tokenTransfer.height);
    expect(block.hash).not.toBe(tokenTransfer.blockHash);
    expect(block.transactions.map((t) => t.hash)).not.toContain(tokenTransfer.hash);
    const logs = await readTransferLogs(node.client, { from: tokenTransfer.height, to: tip }, [usd], derived);
    expect(matchTokenTransfers(logs, watched, tokenContracts([[usd, "ETH_USD_COIN"]]))).toEqual([]);
  });
});
