import type { PaymentStatus } from "./status";

/** D3: the one table of allowed status changes. Every writer goes through `canTransition`. */
export const TRANSITIONS: Record<PaymentStatus, readonly PaymentStatus[]> = {
  AWAITING_PAYMENT: ["PENDING", "PROCESSING", "UNDERPAID", "CANCELLED", "EXPIRED", "FAILED"],
  PENDING: ["PROCESSING", "UNDERPAID", "FAILED"],
  UNDERPAID: ["PENDING", "PROCESSING", "EXPIRED", "FAILED"],
  PROCESSING: ["COMPLETED", "FAILED"],
  COMPLETED: [],
  FAILED: [],
  CANCELLED: [],
  EXPIRED: [],
};

export function canTransition(from: PaymentStatus, to: PaymentStatus): boolean {
  return TRANSITIONS[from].includes(to);
}

export function isTerminal(status: PaymentStatus): boolean {
  return TRANSITIONS[status].length === 0;
}
