/**
 * Display formatting of the dashboard's payment pages. Times are shown in UTC, so the
 * server-rendered text is the same for every visitor and matches the UTC days of the filters,
 * the chart and the CSV; the element's dateTime carries the exact instant.
 */

/** "2026-01-31 14:02:31 UTC". */
export function formatUtc(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : `${d.toISOString().slice(0, 19).replace("T", " ")} UTC`;
}

/** "$19.99", "€5.00": an amount in its currency's usual notation. */
export function formatMoney(amount: number | null | undefined, currency: string | null): string {
  if (amount === null || amount === undefined) return "—";
  if (!currency) return String(amount);
  try {
    return new Intl.NumberFormat("en-US", { style: "currency", currency, currencyDisplay: "narrowSymbol", maximumFractionDigits: 4 }).format(amount);
  } catch {
    return `${amount} ${currency}`;
  }
}

/** A coin amount with every decimal it has, never in exponent notation ("0.00012345"). */
export function formatCoin(amount: number): string {
  return amount.toLocaleString("en-US", { maximumFractionDigits: 20, useGrouping: false });
}

/** "AWAITING_PAYMENT" → "Awaiting payment". */
export function statusLabel(status: string): string {
  const words = status.toLowerCase().replaceAll("_", " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}
