import type { CoinName } from "./coins";

/**
 * Mainnet mints of the SPL tokens in the coin catalogue, as their issuers publish them: USDC
 * (Circle; the Solana Pay specification's own example, anza-xyz/solana-pay SPEC.md) and USDT
 * (Tether). Both live under the SPL Token program (not Token-2022), with 6 decimals.
 */
export const SPL_MINTS = {
  SOL_USD_COIN: "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v",
  SOL_TETHER: "Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB",
} as const satisfies Partial<Record<CoinName, string>>;

export type SplCoin = keyof typeof SPL_MINTS;

export function isSplCoin(coin: CoinName): coin is SplCoin {
  return Object.hasOwn(SPL_MINTS, coin);
}

/**
 * Solana's clusters by genesis hash (`getGenesisHash`, solana.com/docs/rpc/http/getgenesishash),
 * with the numeric ids the Solana token list gave them (solana-labs/token-list: 101 mainnet-beta,
 * 102 testnet, 103 devnet), stored as the chain's id. Any other genesis is a private cluster
 * (a local validator), counted as a development chain.
 */
export const SOLANA_CLUSTERS: Record<string, { name: string; chainId: number }> = {
  "5eykt4UsFv8P8NJdTREpY1vzqKqZKvdpKuc147dw2N9d": { name: "mainnet-beta", chainId: 101 },
  "4uhcVJyU9pJkvQyS88uRDiswHXSCkY3zQawwpjk2NsNY": { name: "testnet", chainId: 102 },
  EtWTRABZaYq6iMfeYKouRu166VU2xqa1wcaWoxPkrZBG: { name: "devnet", chainId: 103 },
};
export const SOLANA_MAINNET_CHAIN_ID = 101;

/** A Solana cluster's name from its chain id (SOLANA_CLUSTERS); "private" for any other. */
export function solanaClusterName(chainId: number | null): string {
  return Object.values(SOLANA_CLUSTERS).find((c) => c.chainId === chainId)?.name ?? "private";
}

/**
 * Each SPL coin's mint on a cluster: on mainnet-beta the built-in mints, each replaced by the
 * configured one; on any other cluster only the configured ones (a mainnet mint does not exist
 * there, or is somebody else's account).
 */
export function splMintsOn(chainId: number | null, configured: Partial<Record<SplCoin, string>>): Partial<Record<SplCoin, string>> {
  return { ...(chainId === SOLANA_MAINNET_CHAIN_ID ? SPL_MINTS : {}), ...configured };
}
