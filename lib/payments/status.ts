// The statuses are stored values, defined with the tables (db/domain.ts).
export { PAYMENT_STATUSES, type PaymentStatus } from "@/db/domain";
