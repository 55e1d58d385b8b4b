import { COINS, COIN_NAMES, type CoinName } from "./coins";
import { isErc20Coin, TOKEN_CONTRACTS, type Erc20Coin } from "./token-contracts";

/**
 * The chains a live business can be paid on: those with a real watcher (lib/chains/watch).
 * TRON, Solana, Monero and TON have none, so only test businesses (the simulator) offer them.
 */
export const WATCHED_CHAINS = ["BITCOIN", "LITECOIN", "BITCOIN_CASH", "ETHEREUM"] as const;
export type WatchedChain = (typeof WATCHED_CHAINS)[number];

/** The watched chain a coin is paid on: the Bitcoin-family coins their own, every Ethereum-network coin ETHEREUM. */
export function watchedChainOf(coin: CoinName): WatchedChain | null {
  if (coin === "BITCOIN" || coin === "LITECOIN" || coin === "BITCOIN_CASH") return coin;
  return COINS[coin].network === "ETHEREUM" ? "ETHEREUM" : null;
}

/** Coins a live business may enable: those of a watched chain. */
export const LIVE_COINS: readonly CoinName[] = COIN_NAMES.filter((c) => watchedChainOf(c) !== null);

/** The coins a business of this mode can be paid in when it does not choose. */
export function defaultEnabledCoins(mode: "test" | "live"): CoinName[] {
  return mode === "test" ? [...COIN_NAMES] : [...LIVE_COINS];
}

/** The coins of a chain whose transfers are the chain's own (not a token's): what the watcher reads from blocks. */
export function nativeCoinsOf(chain: WatchedChain): CoinName[] {
  return chain === "ETHEREUM" ? ["ETHEREUM", "CONTRACT_ERC20_ETH"] : [chain];
}

/** The contract coins pay the token of their catalogue twin unless a contract of their own is configured. */
const TWIN: Partial<Record<Erc20Coin, Erc20Coin>> = { CONTRACT_ERC20_USDT: "ETH_TETHER", CONTRACT_ERC20_USDC: "ETH_USD_COIN" };

/**
 * The ERC-20 contract of each token coin on the EVM chain `chainId`: on mainnet (1) the built-in
 * contracts, each replaced by ETHEREUM_TOKEN_CONTRACTS where it names the coin; on any other chain
 * only the configured ones (a mainnet address means nothing there, or somebody else's contract).
 */
export function tokenContractsOn(chainId: number, configured: Partial<Record<Erc20Coin, string>>): Partial<Record<Erc20Coin, string>> {
  const out: Partial<Record<Erc20Coin, string>> = chainId === 1 ? { ...TOKEN_CONTRACTS } : {};
  for (const coin of Object.keys(TOKEN_CONTRACTS) as Erc20Coin[]) {
    const own = configured[coin] ?? (TWIN[coin] && configured[TWIN[coin]]);
    if (own) out[coin] = own;
  }
  return out;
}

/** The coins a chain serves on its network: its native ones, and for ETHEREUM the tokens with a contract there. */
export function coinsOfChain(chain: WatchedChain, tokens: Partial<Record<Erc20Coin, string>> = {}): CoinName[] {
  if (chain !== "ETHEREUM") return nativeCoinsOf(chain);
  return [...nativeCoinsOf(chain), ...COIN_NAMES.filter((c) => isErc20Coin(c) && tokens[c] !== undefined)];
}
