import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Address } from "viem";
import { evmDriver, evmNetOf } from "@/lib/chains/evm/driver";
import { anvilWallet } from "./nodes/anvil-wallet";
import { ANVIL_CHAIN_ID, startAnvil, type Anvil } from "./nodes/anvil";
import { log } from "@/log/logger.mjs";

/**
 * What the service asks an Ethereum node on start-up (anvil): its chain id, and whether each
 * configured token contract has the decimals of its coin. The watcher's ticks are tested in
 * evm-follower.test.ts.
 */
describe("an Ethereum node's identity (anvil)", () => {
  let node: Anvil;
  let usd6: Address;
  beforeAll(async () => {
    node = await startAnvil();
    usd6 = await anvilWallet(node).deployToken("Test USD", "TUSD", 6);
  }, 60_000);
  afterAll(async () => node?.stop());

  it("maps chain ids to networks", () => {
    expect(evmNetOf(1)).toBe("main");
    expect(evmNetOf(11155111)).toBe("test");
    expect(evmNetOf(ANVIL_CHAIN_ID)).toBe("regtest");
  });

  it("offers a token only when its contract has the coin's decimals, and says why not otherwise", async () => {
    const errors = vi.spyOn(log, "error").mockImplementation(() => {});
    try {
      // USDT has 6 decimals, DAI 18: the same 6-decimal contract fits the one and not the other.
      const id = await evmDriver(node.url, { ETH_TETHER: usd6, ETH_DAI: usd6, ETH_UNISWAP: "0x000000000000000000000000000000000000dEaD" }).identify();
      expect(id).toMatchObject({ network: "regtest", chainId: ANVIL_CHAIN_ID });
      expect(id.coins).toEqual(["ETHEREUM", "CONTRACT_ERC20_ETH", "ETH_TETHER", "CONTRACT_ERC20_USDT"]);
      expect(id.tokens.get(usd6.toLowerCase())).toEqual(["ETH_TETHER", "CONTRACT_ERC20_USDT"]);
      const said = errors.mock.calls.map((c) => String(c[1])).join("\n");
      expect(said).toMatch(/ETH_DAI is not offered: .* it has 6 decimals, ETH_DAI has 18/);
      expect(said).toMatch(/ETH_UNISWAP is not offered: .*decimals\(\) failed/);
    } finally {
      errors.mockRestore();
    }
  }, 30_000);

  it("on a chain other than mainnet, the built-in mainnet contracts are not used", async () => {
    const id = await evmDriver(node.url, {}).identify();
    expect(id.coins).toEqual(["ETHEREUM", "CONTRACT_ERC20_ETH"]);
    expect(id.tokens.size).toBe(0);
  });
});
