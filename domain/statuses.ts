/* The payment statuses: the values of `payments.status`, shared by db/ and every layer above it. */

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
 * on them only gains matches); the transition table (D3, domain/transitions.ts) is typed
 * so that exactly these have no way out.
 */
export const TERMINAL_STATUSES = ["COMPLETED", "FAILED", "CANCELLED", "EXPIRED"] as const satisfies readonly PaymentStatus[];
export type TerminalStatus = (typeof TERMINAL_STATUSES)[number];
