import { describe, expect, it } from "vitest";
import type { ChainCursorRow } from "@/db/schema";
import { chainHealth, STALL_AFTER_MS, TICK_STALE_MS } from "@/lib/chains/health";
import { coinsOfChain, LIVE_COINS, networkNameOf, tokenContractsOn, trc20ContractsOn, TRON_MAINNET_CHAIN_ID, watchedChainOf } from "@/domain/watched-chains";
import { loadConfig } from "@/lib/config";

const now = new Date("2026-11-26T12:00:00Z");
const ago = (ms: number) => new Date(now.getTime() - ms);
const URL = "http://user:secret@node.example:8332/";

function row(over: Partial<ChainCursorRow> = {}): ChainCursorRow {
  return {
    chain: "BITCOIN",
    network: "main",
    chainId: null,
    height: 100,
    blockHash: "00",
    recent: [],
    tip: 102,
    coins: ["BITCOIN"],
    tipChangedAt: ago(60_000),
    tickedAt: ago(2_000),
    lastError: null,
    lastErrorAt: null,
    leaseOwner: "a",
    leaseUntil: now,
    updatedAt: now,
    ...over,
  };
}

describe("a chain's health", () => {
  it("is healthy when followed within a minute and its tip moves; its coins are offered", () => {
    expect(chainHealth("BITCOIN", URL, row(), now)).toMatchObject({ state: "healthy", lag: 2, coins: ["BITCOIN"], endpoint: "http://node.example:8332" });
  });

  it("offers nothing when not configured, not yet followed, failing, or stalled", () => {
    expect(chainHealth("BITCOIN", undefined, row(), now)).toMatchObject({ state: "not configured", coins: [] });
    expect(chainHealth("BITCOIN", URL, undefined, now)).toMatchObject({ state: "starting", coins: [] });
    expect(chainHealth("BITCOIN", URL, row({ network: "unknown", tickedAt: null, lastErrorAt: ago(1_000), lastError: "down" }), now)).toMatchObject({
      state: "failing",
      network: null,
      lastError: "down",
    });
    expect(chainHealth("BITCOIN", URL, row({ tickedAt: ago(TICK_STALE_MS + 1) }), now)).toMatchObject({ state: "failing", coins: [] });
    expect(chainHealth("BITCOIN", URL, row({ tipChangedAt: ago(STALL_AFTER_MS.BITCOIN + 1) }), now)).toMatchObject({ state: "stalled", coins: [] });
    expect(chainHealth("ETHEREUM", URL, row({ chain: "ETHEREUM", tipChangedAt: ago(STALL_AFTER_MS.ETHEREUM + 1) }), now).state).toBe("stalled");
  });

  it("never calls a regtest chain stalled: its blocks come when asked for", () => {
    expect(chainHealth("LITECOIN", URL, row({ network: "regtest", tipChangedAt: ago(86_400_000) }), now).state).toBe("healthy");
  });
});

describe("the coins of live businesses", () => {
  it("are those of a watched chain: every network's, TON and USDT on TON included", () => {
    expect(watchedChainOf("ETH_TETHER")).toBe("ETHEREUM");
    expect(watchedChainOf("CONTRACT_ERC20_ETH")).toBe("ETHEREUM");
    expect(watchedChainOf("BITCOIN_CASH")).toBe("BITCOIN_CASH");
    for (const coin of ["TRON", "TRX_TETHER", "TRX_USD_C", "CONTRACT_TRC20_TRX", "CONTRACT_TRC20_USDT", "CONTRACT_TRC20_USDC"] as const) {
      expect(watchedChainOf(coin)).toBe("TRON");
      expect(LIVE_COINS).toContain(coin);
    }
    for (const coin of ["SOLANA", "SOL_USD_COIN", "SOL_TETHER"] as const) {
      expect(watchedChainOf(coin)).toBe("SOLANA");
      expect(LIVE_COINS).toContain(coin);
    }
    expect(watchedChainOf("MONERO")).toBe("MONERO");
    expect(LIVE_COINS).toContain("MONERO");
    for (const coin of ["TON", "TON_TETHER"] as const) {
      expect(watchedChainOf(coin)).toBe("TON");
      expect(LIVE_COINS).toContain(coin);
    }
  });

  it("take the built-in token contracts on mainnet only; ETHEREUM_TOKEN_CONTRACTS replaces them", () => {
    const mainnet = tokenContractsOn(1, {});
    expect(mainnet.ETH_TETHER).toBe("0xdAC17F958D2ee523a2206206994597C13D831ec7");
    expect(coinsOfChain("ETHEREUM", mainnet)).toHaveLength(14);
    const own = "0x5FbDB2315678afecb367f032d93F642f64180aa3";
    // On another chain only the configured ones, and the contract coin follows its twin.
    expect(tokenContractsOn(11155111, { ETH_TETHER: own })).toEqual({ ETH_TETHER: own, CONTRACT_ERC20_USDT: own });
    expect(coinsOfChain("ETHEREUM", tokenContractsOn(31337, {}))).toEqual(["ETHEREUM", "CONTRACT_ERC20_ETH"]);
    expect(tokenContractsOn(1, { ETH_DAI: own }).ETH_DAI).toBe(own);
  });

  it("ETHEREUM_TOKEN_CONTRACTS is read as a JSON object of ERC-20 coin → address, and names what is wrong", () => {
    const env = (v: string) => ({ DATA_DIR: ":memory:", ETHEREUM_RPC_URL: "http://127.0.0.1:8545", ETHEREUM_TOKEN_CONTRACTS: v }) as unknown as NodeJS.ProcessEnv;
    const own = "0x5FbDB2315678afecb367f032d93F642f64180aa3";
    expect(loadConfig(env(JSON.stringify({ ETH_TETHER: own }))).chains).toMatchObject({ rpcUrls: { ETHEREUM: "http://127.0.0.1:8545" }, tokenContracts: { ETH_TETHER: own } });
    expect(() => loadConfig(env("[1]"))).toThrow(/ETHEREUM_TOKEN_CONTRACTS: must be a JSON object/);
    expect(() => loadConfig(env(JSON.stringify({ TRX_TETHER: own })))).toThrow(/TRX_TETHER is not an ERC-20 coin/);
    expect(() => loadConfig(env(JSON.stringify({ ETH_TETHER: "0x12" })))).toThrow(/ETH_TETHER: "0x12" is not a 0x-prefixed 20-byte contract address/);
  });

  it("take TRON's built-in TRC-20 contracts on TRON mainnet only (chain id 0x2b6653dc); TRON_TOKEN_CONTRACTS replaces them", () => {
    const mainnet = trc20ContractsOn(TRON_MAINNET_CHAIN_ID, {});
    expect(mainnet).toEqual({
      TRX_TETHER: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t",
      CONTRACT_TRC20_USDT: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t",
      TRX_USD_C: "TEkxiTehnzSmSe2XqrBj4w32RUN966rdz8",
      CONTRACT_TRC20_USDC: "TEkxiTehnzSmSe2XqrBj4w32RUN966rdz8",
    });
    expect(coinsOfChain("TRON", mainnet)).toEqual(["TRON", "CONTRACT_TRC20_TRX", "TRX_TETHER", "TRX_USD_C", "CONTRACT_TRC20_USDT", "CONTRACT_TRC20_USDC"]);
    // Nile: only what is configured, the contract coin following its twin.
    const own = "TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf";
    expect(trc20ContractsOn(0xcd8690dc, { TRX_TETHER: own })).toEqual({ TRX_TETHER: own, CONTRACT_TRC20_USDT: own });
    expect(coinsOfChain("TRON", trc20ContractsOn(0xcd8690dc, {}))).toEqual(["TRON", "CONTRACT_TRC20_TRX"]);
    expect(networkNameOf("TRON", 0xcd8690dc)).toBe("Nile");
    expect(networkNameOf("TRON", 0x94a9059e)).toBe("Shasta");
    expect(networkNameOf("TRON", 1234)).toBe("private");
    expect(networkNameOf("ETHEREUM", 1)).toBeNull();
  });

  it("TRON_RPC_URL, TRON_API_KEY and TRON_TOKEN_CONTRACTS are read and checked, naming what is wrong", () => {
    const env = (extra: Record<string, string>) => ({ DATA_DIR: ":memory:", TRON_RPC_URL: "http://127.0.0.1:8090", ...extra }) as unknown as NodeJS.ProcessEnv;
    const own = "TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf";
    expect(loadConfig(env({ TRON_API_KEY: "abc-123", TRON_TOKEN_CONTRACTS: JSON.stringify({ TRX_TETHER: own }) })).chains).toMatchObject({
      rpcUrls: { TRON: "http://127.0.0.1:8090" },
      tron: { apiKey: "abc-123", tokenContracts: { TRX_TETHER: own } },
    });
    expect(() => loadConfig(env({ TRON_RPC_URL: "ftp://node" }))).toThrow(/TRON_RPC_URL: must be an http\(s\) URL/);
    expect(() => loadConfig(env({ TRON_API_KEY: "two words" }))).toThrow(/TRON_API_KEY: must be the provider's key/);
    expect(() => loadConfig(env({ TRON_TOKEN_CONTRACTS: JSON.stringify({ ETH_TETHER: own }) }))).toThrow(/ETH_TETHER is not a TRC-20 coin/);
    // One character changed: the base58check checksum fails.
    expect(() => loadConfig(env({ TRON_TOKEN_CONTRACTS: JSON.stringify({ TRX_TETHER: "TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBg" }) }))).toThrow(/TRX_TETHER: "TXYZ.*" is not a base58 TRON contract address/);
    expect(() => loadConfig(env({ TRON_TOKEN_CONTRACTS: "{" }))).toThrow(/TRON_TOKEN_CONTRACTS: must be a JSON object such as \{"TRX_TETHER":"T…"\}/);
  });
});
