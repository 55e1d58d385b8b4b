/**
 * Display formatting for the checkout page. Amounts arrive as exact decimal strings and are
 * formatted as strings (Intl formats numeric strings without a float round trip).
 */
type Numeric = `${number}`;

function fractionDigits(currency: string): number {
  try {
    return new Intl.NumberFormat("en-US", { style: "currency", currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

/** "$19.99", "€5.00", "¥500": the amount in its currency's usual notation. */
export function formatFiat(amount: string, currency: string): string {
  try {
    return new Intl.NumberFormat("en-US", { style: "currency", currency, currencyDisplay: "narrowSymbol" }).format(
      amount as Numeric,
    );
  } catch {
    return `${amount} ${currency}`;
  }
}

/**
 * A fiat price per coin for reading: the currency's minor digits ("65,000.00", "60,185.19"),
 * and up to 8 decimals for prices below one unit ("0.00002"). The exact rate is what the
 * coin amount was computed with; this is only its display.
 */
export function formatRate(rate: string, currency: string): string {
  const digits = fractionDigits(currency);
  const max = Number(rate) >= 1 ? digits : Math.max(digits, 8);
  return new Intl.NumberFormat("en-US", { minimumFractionDigits: digits, maximumFractionDigits: max }).format(rate as Numeric);
}

/** "1 BTC = 65,000.00 USD". */
export function rateLine(symbol: string, rate: string, currency: string): string {
  return `1 ${symbol} = ${formatRate(rate, currency)} ${currency}`;
}

/**
 * "14:02:31 UTC": the time of day of an ISO instant, in UTC so the server-rendered text is the
 * same for every visitor (the element's dateTime carries the full instant).
 */
export function formatUtcTime(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : `${d.toISOString().slice(11, 19)} UTC`;
}

/** A countdown as "m:ss" or "h:mm:ss"; never negative. */
export function formatRemaining(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const ss = String(s).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${ss}` : `${m}:${ss}`;
}
