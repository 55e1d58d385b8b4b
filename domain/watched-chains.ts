import { COINS, COIN_NAMES, type CoinName } from "./coins";
import { isErc20Coin, isTrc20Coin, TOKEN_CONTRACTS, TRC20_CONTRACTS, type Erc20Coin, type TokenCoin, type Trc20Coin } from "./token-contracts";
import { isSplCoin, solanaClusterName, type SplCoin } from "./solana";

/** The chains a live business can be paid on: those with a real watcher (lib/chains). */
export const WATCHED_CHAINS = ["BITCOIN", "LITECOIN", "BITCOIN_CASH", "ETHEREUM", "TRON", "SOLANA", "MONERO", "TON"] as const;
export type WatchedChain = (typeof WATCHED_CHAINS)[number];

/** The watched chain a coin is paid on: the Bitcoin-family coins their own, every Ethereum-, TRON- or Solana-network coin its network. */
export function watchedChainOf(coin: CoinName): WatchedChain | null {
  if (coin === "BITCOIN" || coin === "LITECOIN" || coin === "BITCOIN_CASH" || coin === "MONERO" || coin === "TON") return coin;
  if (coin === "TON_TETHER") return "TON";
  const network = COINS[coin].network;
  return network === "ETHEREUM" || network === "TRON" || network === "SOLANA" ? network : null;
}

/** Coins a live business may enable: those of a watched chain. */
export const LIVE_COINS: readonly CoinName[] = COIN_NAMES.filter((c) => watchedChainOf(c) !== null);

/** The coins a business of this mode can be paid in: every coin in test mode, the watched chains' in live mode. */
export function servableCoins(mode: "test" | "live"): CoinName[] {
  return mode === "test" ? [...COIN_NAMES] : [...LIVE_COINS];
}

/**
 * What a new business offers when it does not choose: the widely held coins on the watched
 * chains, in either mode, so a first checkout shows a short list a customer recognises rather
 * than every coin of the catalogue. The rest stay one setting away (Settings, `enabledCoins`).
 */
export const DEFAULT_ENABLED_COINS = ["BITCOIN", "ETHEREUM", "LITECOIN", "ETH_TETHER", "ETH_USD_COIN", "TRX_TETHER", "TRX_USD_C"] as const satisfies readonly CoinName[];

/** The coins a new business offers when it does not choose, in either mode. */
export function defaultEnabledCoins(): CoinName[] {
  return [...DEFAULT_ENABLED_COINS];
}

/** The coins of a chain whose transfers are the chain's own (not a token's): what the watcher reads from blocks. */
export function nativeCoinsOf(chain: WatchedChain): CoinName[] {
  if (chain === "ETHEREUM") return ["ETHEREUM", "CONTRACT_ERC20_ETH"];
  if (chain === "TRON") return ["TRON", "CONTRACT_TRC20_TRX"];
  if (chain === "SOLANA") return ["SOLANA"];
  return [chain];
}

/** The contract coins pay the token of their catalogue twin unless a contract of their own is configured. */
const TWIN: Partial<Record<TokenCoin, TokenCoin>> = {
  CONTRACT_ERC20_USDT: "ETH_TETHER",
  CONTRACT_ERC20_USDC: "ETH_USD_COIN",
  CONTRACT_TRC20_USDT: "TRX_TETHER",
  CONTRACT_TRC20_USDC: "TRX_USD_C",
};

/**
 * Each token coin's contract on a chain: on its mainnet the built-in contracts, each replaced by
 * the configured one where it names the coin (or its twin); on any other network only the
 * configured ones (a mainnet address means nothing there, or somebody else's contract).
 */
function contractsOn<C extends TokenCoin>(builtIn: Record<C, string>, mainnet: boolean, configured: Partial<Record<C, string>>): Partial<Record<C, string>> {
  const out: Partial<Record<C, string>> = mainnet ? { ...builtIn } : {};
  for (const coin of Object.keys(builtIn) as C[]) {
    const twin = TWIN[coin] as C | undefined;
    const own = configured[coin] ?? (twin && configured[twin]);
    if (own) out[coin] = own;
  }
  return out;
}

/** The ERC-20 contract of each token coin on the EVM chain `chainId` (1 is mainnet; ETHEREUM_TOKEN_CONTRACTS replaces). */
export function tokenContractsOn(chainId: number, configured: Partial<Record<Erc20Coin, string>>): Partial<Record<Erc20Coin, string>> {
  return contractsOn<Erc20Coin>(TOKEN_CONTRACTS, chainId === 1, configured);
}

/**
 * TRON's chain ids: the last 4 bytes of each network's genesis block id, as java-tron's
 * `eth_chainId` and the CHAINID opcode give them (tronprotocol/documentation-en,
 * docs/api/json-rpc/node/eth_chainId.md). Any other id is a private network.
 */
export const TRON_NETWORKS: Record<number, string> = { 0x2b6653dc: "mainnet", 0xcd8690dc: "Nile", 0x94a9059e: "Shasta" };
export const TRON_MAINNET_CHAIN_ID = 0x2b6653dc;

/** The TRC-20 contract of each token coin on the TRON network `chainId` (TRON_TOKEN_CONTRACTS replaces the built-in mainnet ones). */
export function trc20ContractsOn(chainId: number, configured: Partial<Record<Trc20Coin, string>>): Partial<Record<Trc20Coin, string>> {
  return contractsOn<Trc20Coin>(TRC20_CONTRACTS, chainId === TRON_MAINNET_CHAIN_ID, configured);
}

/** The coins a chain serves on its network: its native ones, and for ETHEREUM, TRON and SOLANA the tokens with a contract (a mint) there. */
export function coinsOfChain(chain: WatchedChain, tokens: Partial<Record<TokenCoin | SplCoin, string>> = {}): CoinName[] {
  const isToken = chain === "ETHEREUM" ? isErc20Coin : chain === "TRON" ? isTrc20Coin : chain === "SOLANA" ? isSplCoin : null;
  if (!isToken) return nativeCoinsOf(chain);
  return [...nativeCoinsOf(chain), ...COIN_NAMES.filter((c) => isToken(c) && tokens[c] !== undefined)];
}

/** A chain's network as people name it: TRON's by its chain id (mainnet, Nile, Shasta or private), Solana's cluster (mainnet-beta, devnet, testnet or private), TON's (mainnet, testnet or private by its global id); null where the network's own word says it. */
export function networkNameOf(chain: WatchedChain, chainId: number | null): string | null {
  if (chain === "SOLANA") return solanaClusterName(chainId);
  if (chain === "TON") return chainId === -239 ? "mainnet" : chainId === -3 ? "testnet" : "private";
  if (chain !== "TRON" || chainId === null) return null;
  return TRON_NETWORKS[chainId] ?? "private";
}
