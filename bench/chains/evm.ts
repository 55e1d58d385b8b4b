import { randomBytes } from "node:crypto";
import { toHex, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { ANVIL_CHAIN_ID, ANVIL_DEV_KEY_0, startAnvil, type Anvil } from "../../test/chains/nodes/anvil";

/**
 * An anvil (the tests' `startAnvil`) for the chain-watcher bench: Ether transfers from its first
 * dev account, signed here with explicit nonces and fees and sent in JSON-RPC batches, so that
 * a block of a hundred transactions takes one request; anvil mines each transaction into a block
 * of its own unless automine is off (`automine(false)`, then `mine(n)` puts everything pending
 * in the first of n blocks).
 */

export type EvmOutput = { to: string; wei: bigint };

/** A random 20-byte address: nobody's. */
export function randomEvmAddress(): string {
  return `0x${randomBytes(20).toString("hex")}`;
}

export type EvmBench = Awaited<ReturnType<typeof startEvmBench>>;

export async function startEvmBench() {
  const node: Anvil = await startAnvil();
  const account = privateKeyToAccount(ANVIL_DEV_KEY_0);

  async function batch(calls: { method: string; params: unknown[] }[]): Promise<unknown[]> {
    const res = await fetch(node.url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(calls.map((c, id) => ({ jsonrpc: "2.0", id, ...c }))),
    });
    const answers = (await res.json()) as { id: number; result: unknown; error?: { message: string } }[];
    const bad = answers.find((a) => a.error);
    if (bad) throw new Error(`${calls[bad.id].method}: ${bad.error!.message}`);
    return answers.sort((a, b) => a.id - b.id).map((a) => a.result);
  }
  const rpc = async <T>(method: string, params: unknown[] = []) => (await batch([{ method, params }]))[0] as T;

  let nonce = Number(await rpc<Hex>("eth_getTransactionCount", [account.address, "pending"]));

  return {
    node,
    url: node.url,
    client: node.client,
    rpc,
    /** Mines `n` blocks at once (anvil_mine); with automine off, the pending transactions go in the first. */
    mine: (n: number) => rpc("anvil_mine", [toHex(n)]),
    automine: (on: boolean) => rpc("evm_setAutomine", [on]),
    /** One transaction per output, sent in batches of 500; returns their hashes. */
    async pay(outputs: EvmOutput[]): Promise<string[]> {
      const hashes: string[] = [];
      for (let i = 0; i < outputs.length; i += 500) {
        const signed = await Promise.all(
          outputs.slice(i, i + 500).map((o) =>
            account.signTransaction({
              chainId: ANVIL_CHAIN_ID,
              type: "eip1559",
              to: o.to as Hex,
              value: o.wei,
              nonce: nonce++,
              gas: 21_000n,
              maxFeePerGas: 100_000_000_000n,
              maxPriorityFeePerGas: 1_000_000_000n,
            }),
          ),
        );
        hashes.push(...((await batch(signed.map((raw) => ({ method: "eth_sendRawTransaction", params: [raw] })))) as string[]));
      }
      return hashes;
    },
    async version(): Promise<string> {
      return rpc<string>("web3_clientVersion");
    },
    stop: () => node.stop(),
  };
}
