import { createWalletClient, http, toHex, type Address, type Hash } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { anvil as anvilChain } from "viem/chains";
import { compileTestToken, TEST_TOKEN_ABI } from "../fixtures/compile-token";
import { ANVIL_DEV_KEY_0, type Anvil } from "./anvil";

/**
 * What the EVM tests do on an anvil as its first dev account: send Ether, deploy, mint and send
 * the test token (compiled from TestToken.sol), mine blocks and call anvil's own methods. Anvil
 * mines each transaction into its own block as it arrives; every helper waits for that block and
 * returns the receipt.
 */
export function anvilWallet(node: Anvil) {
  const wallet = createWalletClient({ account: privateKeyToAccount(ANVIL_DEV_KEY_0), chain: anvilChain, transport: http(node.url) });
  const rpc = (method: string, params: unknown[]) => node.client.request({ method, params } as never) as Promise<unknown>;

  async function mined(hash: Hash) {
    const receipt = await node.client.waitForTransactionReceipt({ hash, pollingInterval: 20 });
    if (receipt.status !== "success") throw new Error(`transaction ${hash} reverted`);
    return receipt;
  }
  const call = async (token: Address, functionName: "mint" | "transfer", to: Address, units: bigint) =>
    mined(await wallet.writeContract({ address: token, abi: TEST_TOKEN_ABI, functionName, args: [to, units] }));

  return {
    wallet,
    rpc,
    mined,
    mine: (blocks: number) => rpc("anvil_mine", [toHex(blocks)]),
    pay: async (to: Address, wei: bigint) => mined(await wallet.sendTransaction({ to, value: wei })),
    async deployToken(name: string, symbol: string, decimals: number): Promise<Address> {
      const hash = await wallet.deployContract({ abi: TEST_TOKEN_ABI, bytecode: compileTestToken().bytecode, args: [name, symbol, decimals] });
      return (await mined(hash)).contractAddress!;
    },
    mint: (token: Address, to: Address, units: bigint) => call(token, "mint", to, units),
    payToken: (token: Address, to: Address, units: bigint) => call(token, "transfer", to, units),
  };
}
