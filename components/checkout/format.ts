/**
 * Display formatting for the checkout page, in the customer's locale. Amounts arrive as exact
 * decimal strings and are formatted as strings (Intl formats numeric strings without a float
 * round trip). Coin amounts are not formatted here: they stay in the notation wallets accept
 * (Latin digits, a dot), since the customer types or pastes them into one.
 */
type Numeric = `${number}`;

function fractionDigits(currency: string): number {
  try {
    return new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

/** "$19.99", "19,99 €", "¥500": the amount in its currency's usual notation for the locale. */
export function formatFiat(amount: string, currency: string, locale: string): string {
  try {
    return new Intl.NumberFormat(locale, { style: "currency", currency, currencyDisplay: "narrowSymbol" }).format(amount as Numeric);
  } catch {
    return `${amount} ${currency}`;
  }
}

/**
 * A fiat price per coin for reading: the currency's minor digits ("65,000.00", "60.185,19"),
 * and up to 8 decimals for prices below one unit ("0.00002"). The exact rate is what the
 * coin amount was computed with; this is only its display.
 */
export function formatRate(rate: string, currency: string, locale: string): string {
  const digits = fractionDigits(currency);
  const max = Number(rate) >= 1 ? digits : Math.max(digits, 8);
  return new Intl.NumberFormat(locale, { minimumFractionDigits: digits, maximumFractionDigits: max }).format(rate as Numeric);
}

/** "1 BTC = 65,000.00 USD". */
export function rateLine(symbol: string, rate: string, currency: string, locale: string): string {
  return `1 ${symbol} = ${formatRate(rate, currency, locale)} ${currency}`;
}

/**
 * The time of day of an ISO instant in the locale's digits and separators, on the 24-hour clock
 * as UTC times are written ("14:02:31"), in UTC so the server-rendered text is the same for
 * every visitor; the caller names the zone, and the element's dateTime carries the full instant.
 */
export function formatUtcTime(iso: string, locale: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return new Intl.DateTimeFormat(locale, { hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23", timeZone: "UTC" }).format(d);
}

/** A countdown as "m:ss" or "h:mm:ss" in the locale's digits; never negative. */
export function formatRemaining(ms: number, locale: string): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const one = new Intl.NumberFormat(locale, { useGrouping: false });
  const two = new Intl.NumberFormat(locale, { minimumIntegerDigits: 2, useGrouping: false });
  return h > 0 ? `${one.format(h)}:${two.format(m)}:${two.format(s)}` : `${one.format(m)}:${two.format(s)}`;
}
