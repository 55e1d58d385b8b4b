import type { PaymentStatus } from "./statuses";

/** D4: the spec's seven event kinds plus PROCESSING and FAILED. */
export const EVENT_TYPES = [
  "PAYMENT_CREATED",
  "PAYMENT_METHOD_SELECTED",
  "PAYMENT_PENDING",
  "PAYMENT_PROCESSING",
  "PAYMENT_UNDERPAID",
  "PAYMENT_COMPLETED",
  "PAYMENT_FAILED",
  "PAYMENT_EXPIRED",
  "PAYMENT_CANCELLED",
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export function eventForStatus(status: Exclude<PaymentStatus, "AWAITING_PAYMENT">): EventType {
  return `PAYMENT_${status}` as EventType;
}
