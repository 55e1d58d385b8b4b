import cc from "currency-codes";

/**
 * ISO 4217 currencies with their minor units, from the `currency-codes` data set. Precious
 * metals, bond units and the test/no-currency codes (XAU, XTS, XXX, …) are not money a
 * customer pays in, so they are refused.
 */
const NOT_PAYABLE = new Set(["XAG", "XAU", "XBA", "XBB", "XBC", "XBD", "XPD", "XPT", "XTS", "XXX", "XDR", "XSU", "XUA"]);

const MINOR_UNITS = new Map<string, number>(
  cc.data.filter((c) => !NOT_PAYABLE.has(c.code)).map((c) => [c.code, c.digits]),
);

/** Minor units (decimal places) of an ISO 4217 code, or undefined when it is not one we accept. */
export function minorUnits(code: string): number | undefined {
  return MINOR_UNITS.get(code);
}

export function isCurrency(code: string): boolean {
  return MINOR_UNITS.has(code);
}
