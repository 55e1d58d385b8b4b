/**
 * The coin catalogue of the spec: every CryptoCoinName with its charge type (the
 * `paymentMethods` key it belongs to), network, readable name and base-unit decimals.
 */
/**
 * The coin identifiers a payment can offer (the spec's CryptoCoinName without UNKNOWN). `COINS` below
 * gives each its network and decimals and must have exactly these keys.
 */
export type CoinName =
  | "BITCOIN"
  | "ETHEREUM"
  | "LITECOIN"
  | "BITCOIN_CASH"
  | "ETH_USD_COIN"
  | "ETH_TETHER"
  | "MONERO"
  | "BNB"
  | "ETH_BUSD"
  | "ETH_MATIC"
  | "ETH_SHIBA_INU"
  | "ETH_APE_COIN"
  | "ETH_CRONOS"
  | "ETH_DAI"
  | "ETH_UNISWAP"
  | "TRON"
  | "TRX_TETHER"
  | "TRX_USD_C"
  | "SOLANA"
  | "SOL_TETHER"
  | "SOL_USD_COIN"
  | "TON"
  | "TON_TETHER"
  | "CONTRACT_ERC20_ETH"
  | "CONTRACT_ERC20_USDT"
  | "CONTRACT_ERC20_USDC"
  | "CONTRACT_TRC20_TRX"
  | "CONTRACT_TRC20_USDT"
  | "CONTRACT_TRC20_USDC";

export const CHARGE_TYPES = ["PLATFORM_CRYPTO", "CONTRACT_CRYPTO", "CONTRACT_TRX", "NONE"] as const;
export type ChargeType = (typeof CHARGE_TYPES)[number];

export const NETWORKS = ["ETHEREUM", "TRON", "BTC", "LTC", "SOLANA"] as const;
export type Network = (typeof NETWORKS)[number];

type CoinInfo = {
  chargeType: Exclude<ChargeType, "NONE">;
  network: Network | null;
  name: string;
  symbol: string;
  decimals: number;
};

export const COINS = {
  BITCOIN: { chargeType: "PLATFORM_CRYPTO", network: "BTC", name: "Bitcoin", symbol: "BTC", decimals: 8 },
  ETHEREUM: { chargeType: "PLATFORM_CRYPTO", network: "ETHEREUM", name: "Ether", symbol: "ETH", decimals: 18 },
  LITECOIN: { chargeType: "PLATFORM_CRYPTO", network: "LTC", name: "Litecoin", symbol: "LTC", decimals: 8 },
  BITCOIN_CASH: { chargeType: "PLATFORM_CRYPTO", network: "BTC", name: "Bitcoin Cash", symbol: "BCH", decimals: 8 },
  ETH_USD_COIN: { chargeType: "PLATFORM_CRYPTO", network: "ETHEREUM", name: "USD Coin (Ethereum)", symbol: "USDC", decimals: 6 },
  ETH_TETHER: { chargeType: "PLATFORM_CRYPTO", network: "ETHEREUM", name: "Tether (Ethereum)", symbol: "USDT", decimals: 6 },
  MONERO: { chargeType: "PLATFORM_CRYPTO", network: null, name: "Monero", symbol: "XMR", decimals: 12 },
  BNB: { chargeType: "PLATFORM_CRYPTO", network: "ETHEREUM", name: "BNB (Ethereum)", symbol: "BNB", decimals: 18 },
  ETH_BUSD: { chargeType: "PLATFORM_CRYPTO", network: "ETHEREUM", name: "Binance USD (Ethereum)", symbol: "BUSD", decimals: 18 },
  ETH_MATIC: { chargeType: "PLATFORM_CRYPTO", network: "ETHEREUM", name: "Polygon (Ethereum)", symbol: "MATIC", decimals: 18 },
  ETH_SHIBA_INU: { chargeType: "PLATFORM_CRYPTO", network: "ETHEREUM", name: "Shiba Inu (Ethereum)", symbol: "SHIB", decimals: 18 },
  ETH_APE_COIN: { chargeType: "PLATFORM_CRYPTO", network: "ETHEREUM", name: "ApeCoin (Ethereum)", symbol: "APE", decimals: 18 },
  ETH_CRONOS: { chargeType: "PLATFORM_CRYPTO", network: "ETHEREUM", name: "Cronos (Ethereum)", symbol: "CRO", decimals: 8 },
  ETH_DAI: { chargeType: "PLATFORM_CRYPTO", network: "ETHEREUM", name: "Dai (Ethereum)", symbol: "DAI", decimals: 18 },
  ETH_UNISWAP: { chargeType: "PLATFORM_CRYPTO", network: "ETHEREUM", name: "Uniswap (Ethereum)", symbol: "UNI", decimals: 18 },
  TRON: { chargeType: "PLATFORM_CRYPTO", network: "TRON", name: "TRON", symbol: "TRX", decimals: 6 },
  TRX_TETHER: { chargeType: "PLATFORM_CRYPTO", network: "TRON", name: "Tether (TRON)", symbol: "USDT", decimals: 6 },
  TRX_USD_C: { chargeType: "PLATFORM_CRYPTO", network: "TRON", name: "USD Coin (TRON)", symbol: "USDC", decimals: 6 },
  SOLANA: { chargeType: "PLATFORM_CRYPTO", network: "SOLANA", name: "Solana", symbol: "SOL", decimals: 9 },
  SOL_TETHER: { chargeType: "PLATFORM_CRYPTO", network: "SOLANA", name: "Tether (Solana)", symbol: "USDT", decimals: 6 },
  SOL_USD_COIN: { chargeType: "PLATFORM_CRYPTO", network: "SOLANA", name: "USD Coin (Solana)", symbol: "USDC", decimals: 6 },
  TON: { chargeType: "PLATFORM_CRYPTO", network: null, name: "Toncoin", symbol: "TON", decimals: 9 },
  // Not in the spec's CryptoCoinName: Tether's USDT jetton on TON, this service's addition (docs/decisions.md).
  TON_TETHER: { chargeType: "PLATFORM_CRYPTO", network: null, name: "Tether (TON)", symbol: "USDT", decimals: 6 },
  CONTRACT_ERC20_ETH: { chargeType: "CONTRACT_CRYPTO", network: "ETHEREUM", name: "Ether (contract)", symbol: "ETH", decimals: 18 },
  CONTRACT_ERC20_USDT: { chargeType: "CONTRACT_CRYPTO", network: "ETHEREUM", name: "Tether ERC-20 (contract)", symbol: "USDT", decimals: 6 },
  CONTRACT_ERC20_USDC: { chargeType: "CONTRACT_CRYPTO", network: "ETHEREUM", name: "USD Coin ERC-20 (contract)", symbol: "USDC", decimals: 6 },
  CONTRACT_TRC20_TRX: { chargeType: "CONTRACT_TRX", network: "TRON", name: "TRON (contract)", symbol: "TRX", decimals: 6 },
  CONTRACT_TRC20_USDT: { chargeType: "CONTRACT_TRX", network: "TRON", name: "Tether TRC-20 (contract)", symbol: "USDT", decimals: 6 },
  CONTRACT_TRC20_USDC: { chargeType: "CONTRACT_TRX", network: "TRON", name: "USD Coin TRC-20 (contract)", symbol: "USDC", decimals: 6 },
} as const satisfies Record<CoinName, CoinInfo>;

export const COIN_NAMES = Object.keys(COINS) as CoinName[];

/** CryptoCoinName of the spec: the payable coins plus UNKNOWN (seen on transactions only). */
export const CRYPTO_COIN_NAMES = [...COIN_NAMES, "UNKNOWN"] as const;

export function coinsOfChargeType(type: ChargeType): CoinName[] {
  return COIN_NAMES.filter((c) => COINS[c].chargeType === type);
}
