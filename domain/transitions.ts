import type { PaymentStatus, TerminalStatus } from "@/domain/statuses";

/**
 * D3: the one table of allowed status changes. Every writer goes through `canTransition`. Its
 * type holds it to domain/statuses.ts's TERMINAL_STATUSES, on which the list's count cache relies:
 * those and only those have no way out.
 */
export const TRANSITIONS: Record<TerminalStatus, readonly []> &
  Record<Exclude<PaymentStatus, TerminalStatus>, readonly [PaymentStatus, ...PaymentStatus[]]> = {
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
  return (TRANSITIONS[from] as readonly PaymentStatus[]).includes(to);
}

export function isTerminal(status: PaymentStatus): boolean {
  return TRANSITIONS[status].length === 0;
}
