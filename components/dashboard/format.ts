import { COINS, type CoinName } from "@/domain/coins";

/**
 * Display formatting of the dashboard. Times are shown in UTC, so the server-rendered text is
 * the same for every visitor and matches the UTC days of the filters, the chart and the CSV; the
 * element's dateTime carries the exact instant. Numbers are formatted with Intl.NumberFormat in
 * en-US, the dashboard's one language until it is translated.
 */

/** "2026-01-31 14:02:31 UTC". */
export function formatUtc(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : `${d.toISOString().slice(0, 19).replace("T", " ")} UTC`;
}

/** The minor digits of a currency (2 for USD, 0 for JPY, 3 for KWD); 2 for a code Intl does not know. */
function minorDigits(currency: string): number {
  try {
    return new Intl.NumberFormat("en-US", { style: "currency", currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

/**
 * "$19.99", "€5.00", "CA$5.00", "¥500": an amount in its currency's notation, with the
 * currency's minor digits. The symbol is the unambiguous one ("CA$", not "$", for Canadian
 * dollars): a merchant may take several currencies that share a narrow symbol.
 */
export function formatMoney(amount: number | string | null | undefined, currency: string | null): string {
  if (amount === null || amount === undefined || amount === "") return "—";
  if (!currency) return String(amount);
  try {
    return new Intl.NumberFormat("en-US", { style: "currency", currency }).format(amount as number);
  } catch {
    return `${amount} ${currency}`;
  }
}

/**
 * An exchange rate, fiat per whole coin: "$60,185.19" (the currency's minor digits), and for a
 * price below one unit up to 8 decimals ("$0.00001235"), as the checkout shows it. The exact
 * rate, which the coin amount was computed with, goes in a title beside it.
 */
export function formatRate(rate: number | string, currency: string | null): string {
  if (!currency) return String(rate);
  const digits = minorDigits(currency);
  const max = Number(rate) >= 1 ? digits : Math.max(digits, 8);
  try {
    return new Intl.NumberFormat("en-US", { style: "currency", currency, minimumFractionDigits: digits, maximumFractionDigits: max }).format(rate as number);
  } catch {
    return `${rate} ${currency}`;
  }
}

/** Whether `coin` is one of the catalogue's coins (a record's coin name is a plain string). */
export function isCoin(coin: string | null | undefined): coin is CoinName {
  return typeof coin === "string" && Object.hasOwn(COINS, coin);
}

/**
 * "0.00123456 BTC", "1,250.5 USDT": a coin amount with no more decimals than the coin has and
 * no trailing zeros, followed by the coin's symbol (an unknown coin: its name as given).
 */
export function formatCoinAmount(amount: number | string, coin: string | null | undefined): string {
  const decimals = isCoin(coin) ? COINS[coin].decimals : 18;
  const number = new Intl.NumberFormat("en-US", { maximumFractionDigits: decimals }).format(amount as number);
  if (!coin) return number;
  return `${number} ${isCoin(coin) ? COINS[coin].symbol : coin}`;
}

/** "$1,234.50": a USD total, such as the net volume of completed payments. */
export function formatUsd(amount: number | string): string {
  return formatMoney(amount, "USD");
}

/** "3", "1,204", "100+" when a count stopped at its cap. */
export function formatCount(n: number, capped = false): string {
  return `${new Intl.NumberFormat("en-US").format(n)}${capped ? "+" : ""}`;
}
