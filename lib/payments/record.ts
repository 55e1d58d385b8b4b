import type { RecordChargeRow, RecordPaymentRow, RecordTransferRow } from "@/db/queries/payments";
import { chargeRecord } from "./charge-record";
import type { CustomerWithIps } from "@/db/queries/customers";
import { toJsonNumber } from "@/lib/money/decimal";
import type { PaymentRecord } from "./schemas";

/**
 * The spec's Payment record from stored rows: required fields always present, optional ones
 * only when they apply, nothing else (no business id, coins, URLs or internal columns).
 * PostgreSQL's list pages write the same record in SQL (db/queries/payment-record-json.ts): a
 * change here is a change there, which test/payments-list-records.test.ts enforces.
 */
export function toPaymentRecord(
  p: RecordPaymentRow,
  customer: CustomerWithIps | undefined,
  charge?: { charge: RecordChargeRow; transfers: RecordTransferRow[] },
): PaymentRecord {
  const record: PaymentRecord = {
    id: p.id,
    name: p.name,
    description: p.description,
    endAmount: Number(p.endAmount),
    prePaymentAmount: Number(p.amount),
    currency: p.currency,
    status: p.status,
    createdAt: p.createdAt.toISOString(),
    expiresAt: p.expiresAt.toISOString(),
    timeline: p.timeline,
    metadata: p.metadata ?? null,
    platformFee: toJsonNumber(p.platformFee),
    note: p.note,
  };
  if (customer) {
    record.customer = {
      id: customer.id,
      email: customer.email,
      ipAddresses: customer.ips.map((ip) => ({
        city: ip.city,
        ip: ip.ip,
        country: ip.country,
        riskScore: ip.riskScore,
        connectionType: ip.connectionType as "Unknown",
        isp: ip.isp,
        dateCreated: ip.createdAt.toISOString(),
      })),
    };
  }
  if (p.selectedPaymentMethod) record.selectedPaymentMethod = p.selectedPaymentMethod as PaymentRecord["selectedPaymentMethod"];
  if (charge) Object.assign(record, chargeRecord(p.status, charge.charge, charge.transfers));
  if (p.onBehalfOfBusinessId !== null) record.onBehalfOfBusinessId = p.onBehalfOfBusinessId;
  if (p.netAmountUsd !== null) record.netAmountUsd = Number(p.netAmountUsd);
  return record;
}
