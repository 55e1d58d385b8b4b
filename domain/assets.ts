import { COINS, type CoinName } from "./coins";

/**
 * Coins as a customer knows them: an asset (USDT) sent on a network (TRON). The catalogue's
 * `network` field follows the spec, which files Bitcoin Cash under BTC and gives Monero and TON
 * none; a customer sends each of those on its own chain, so the network shown is this one.
 */
export const PAYMENT_NETWORKS = ["BITCOIN", "ETHEREUM", "TRON", "SOLANA", "LITECOIN", "BITCOIN_CASH", "MONERO", "TON"] as const;
export type PaymentNetwork = (typeof PAYMENT_NETWORKS)[number];

export const NETWORK_NAMES: Record<PaymentNetwork, string> = {
  BITCOIN: "Bitcoin",
  ETHEREUM: "Ethereum",
  TRON: "TRON",
  SOLANA: "Solana",
  LITECOIN: "Litecoin",
  BITCOIN_CASH: "Bitcoin Cash",
  MONERO: "Monero",
  TON: "TON",
};

/** Each network's own coin: a token is any other asset sent on it. */
const NATIVE_SYMBOL: Record<PaymentNetwork, string> = {
  BITCOIN: "BTC",
  ETHEREUM: "ETH",
  TRON: "TRX",
  SOLANA: "SOL",
  LITECOIN: "LTC",
  BITCOIN_CASH: "BCH",
  MONERO: "XMR",
  TON: "TON",
};

/** The token standard wallets and exchanges name beside a network when a token is sent on it. */
const TOKEN_STANDARD: Partial<Record<PaymentNetwork, string>> = { ETHEREUM: "ERC-20", TRON: "TRC-20", SOLANA: "SPL", TON: "Jetton" };

/** The network a coin is sent on. */
export function paymentNetworkOf(coin: CoinName): PaymentNetwork {
  if (coin === "BITCOIN_CASH" || coin === "MONERO" || coin === "TON") return coin;
  if (coin === "TON_TETHER") return "TON";
  const network = COINS[coin].network;
  if (network === "BTC") return "BITCOIN";
  if (network === "LTC") return "LITECOIN";
  if (network === null) throw new Error(`${coin} has no network`);
  return network;
}

/** The token standard of a coin sent as a token ("ERC-20" for USDT on Ethereum), or null for a network's own coin. */
export function tokenStandardOf(coin: CoinName): string | null {
  const network = paymentNetworkOf(coin);
  return COINS[coin].symbol === NATIVE_SYMBOL[network] ? null : (TOKEN_STANDARD[network] ?? null);
}

/** Assets by ticker, as wallets name them, in the order a checkout lists them: the most held first. */
export const ASSET_NAMES: Record<string, string> = {
  BTC: "Bitcoin",
  ETH: "Ethereum",
  USDT: "Tether",
  USDC: "USD Coin",
  LTC: "Litecoin",
  BCH: "Bitcoin Cash",
  SOL: "Solana",
  TRX: "TRON",
  XMR: "Monero",
  TON: "Toncoin",
  BNB: "BNB",
  DAI: "Dai",
  BUSD: "Binance USD",
  MATIC: "Polygon",
  SHIB: "Shiba Inu",
  APE: "ApeCoin",
  CRO: "Cronos",
  UNI: "Uniswap",
};

/** An asset's name by its ticker (the ticker itself for one not listed). */
export function assetNameOf(symbol: string): string {
  return ASSET_NAMES[symbol] ?? symbol;
}
