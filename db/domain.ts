/*
 * The domain values stored rows are typed by, with no imports: db/ depends on nothing of the
 * application (lib/, app/, components/, inngest/), which re-exports these where it defines the
 * rest of the domain (lib/payments/status.ts, lib/payments/transitions.ts, lib/chains/coins.ts).
 */

/** PaymentStatus of the spec, the values of `payments.status`. */
export const PAYMENT_STATUSES = [
  "AWAITING_PAYMENT",
  "PENDING",
  "PROCESSING",
  "UNDERPAID",
  "COMPLETED",
  "FAILED",
  "CANCELLED",
  "EXPIRED",
] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/**
 * Statuses a payment enters once and never leaves. The list's count cache relies on it (a filter
 * on them only gains matches); the transition table (D3, lib/payments/transitions.ts) is typed
 * so that exactly these have no way out.
 */
export const TERMINAL_STATUSES = ["COMPLETED", "FAILED", "CANCELLED", "EXPIRED"] as const satisfies readonly PaymentStatus[];
export type TerminalStatus = (typeof TERMINAL_STATUSES)[number];

/**
 * The coin identifiers a payment can offer (the spec's CryptoCoinName without UNKNOWN). The
 * catalogue with each coin's network and decimals is lib/chains/coins.ts, whose table must have
 * exactly these keys.
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
  | "CONTRACT_ERC20_ETH"
  | "CONTRACT_ERC20_USDT"
  | "CONTRACT_ERC20_USDC"
  | "CONTRACT_TRC20_TRX"
  | "CONTRACT_TRC20_USDT"
  | "CONTRACT_TRC20_USDC";
