import { COINS, COIN_NAMES, type CoinName } from "@/domain/coins";
import { isPayableCurrency } from "@/domain/currencies";

/**
 * Which catalogue coins one market symbol prices. A symbol names one asset whatever chain
 * carries it: USDT on Ethereum, TRON and Solana (and the CONTRACT_* USDT) is the same Tether
 * liability, CONTRACT_ERC20_ETH is ether. Stablecoins get their own market price, never an
 * assumed 1.00 USD: the reference notes USDC at 0.87 USD on 11 March 2023.
 */
export function coinsBySymbol(): Map<string, CoinName[]> {
  const bySymbol = new Map<string, CoinName[]>();
  for (const coin of COIN_NAMES) {
    const symbol: string = COINS[coin].symbol;
    bySymbol.set(symbol, [...(bySymbol.get(symbol) ?? []), coin]);
  }
  return bySymbol;
}

/** The symbols the service needs a price for (BTC, ETH, …, MATIC, …, TON). */
export const COIN_SYMBOLS: readonly string[] = [...coinsBySymbol().keys()];

/**
 * CoinGecko coin ids (reference §8). MATIC is `matic-network`, not `polygon-ecosystem-token`:
 * ETH_MATIC is the MATIC ERC-20 itself; POL is another token since the September 2024
 * migration, so it is not substituted.
 */
export const COINGECKO_IDS: Readonly<Record<string, string>> = {
  BTC: "bitcoin",
  ETH: "ethereum",
  LTC: "litecoin",
  BCH: "bitcoin-cash",
  XMR: "monero",
  BNB: "binancecoin",
  USDT: "tether",
  USDC: "usd-coin",
  BUSD: "binance-usd",
  MATIC: "matic-network",
  SHIB: "shiba-inu",
  APE: "apecoin",
  CRO: "crypto-com-chain",
  DAI: "dai",
  UNI: "uniswap",
  TRX: "tron",
  SOL: "solana",
  TON: "the-open-network",
};

/** Kraken's altname/wsname spellings that differ from the common symbol (reference §2). */
const KRAKEN_ALIASES: Readonly<Record<string, string>> = { XBT: "BTC", XDG: "DOGE" };

export function krakenSymbol(wsPart: string): string {
  return KRAKEN_ALIASES[wsPart] ?? wsPart;
}

/** A fiat code a snapshot may carry: ISO 4217 with minor units, and no coin symbol of ours. */
export function isFiatCode(code: string): boolean {
  return isPayableCurrency(code) && !COIN_SYMBOLS.includes(code);
}

/** Records one price (or one skip) for every coin of `symbol`. */
export function recordSymbol(
  snapshot: { usd: Map<CoinName, string>; skipped: { key: string; why: string }[] },
  bySymbol: Map<string, CoinName[]>,
  symbol: string,
  result: { usd: string } | { why: string },
): void {
  for (const coin of bySymbol.get(symbol) ?? []) {
    if ("usd" in result) snapshot.usd.set(coin, result.usd);
    else snapshot.skipped.push({ key: coin, why: `${symbol}: ${result.why}` });
  }
}
