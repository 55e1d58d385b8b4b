import cc from "currency-codes";

/**
 * ISO 4217 currencies with their minor units, from the `currency-codes` data set. Precious
 * metals, bond units, the IMF's drawing right and the test/no-currency codes (XAU, XTS, XXX, …)
 * are ISO codes too, but have no minor units: no customer pays in them, so no rate table may
 * price them and no payment is made in them.
 */
const WITHOUT_MINOR_UNITS = new Set(["XAG", "XAU", "XBA", "XBB", "XBC", "XBD", "XPD", "XPT", "XTS", "XXX", "XDR", "XSU", "XUA"]);

const ISO_CODES: ReadonlySet<string> = new Set(cc.codes());

const MINOR_UNITS = new Map<string, number>(
  cc.data.filter((c) => !WITHOUT_MINOR_UNITS.has(c.code)).map((c) => [c.code, c.digits]),
);

/** Whether `code` is in ISO 4217 at all (XAU included). */
export function isIsoCurrency(code: string): boolean {
  return ISO_CODES.has(code);
}

/** Minor units (decimal places) of an ISO 4217 currency, or undefined when it has none (XAU) or is no ISO code. */
export function minorUnits(code: string): number | undefined {
  return MINOR_UNITS.get(code);
}

/** An ISO 4217 currency with minor units: one that money can be counted in. */
export function isPayableCurrency(code: string): boolean {
  return MINOR_UNITS.has(code);
}
