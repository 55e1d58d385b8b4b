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
