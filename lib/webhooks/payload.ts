import type { EventType } from "@/domain/events";
import type { PaymentRecord } from "@/domain/payment-record";

type Tx = NonNullable<NonNullable<PaymentRecord["platformCryptoCharge"]>["transaction"]>;
type Charge = NonNullable<PaymentRecord["contractCharge"]>;

function transaction(t: Tx) {
  return {
    Amount: t.amount,
    ToAddress: t.toAddress,
    Id: t.id,
    Confirmations: t.confirmations,
    BlockNumber: t.blockNumber ?? null,
    Network: t.network ?? null,
    FromAddress: t.fromAddress ?? null,
    TokenName: t.tokenName ?? null,
  };
}

function charge(c: Charge) {
  return {
    Amount: c.amount,
    CoinName: c.coinName,
    ExchangeRate: c.exchangeRate,
    IsUnderpaid: c.isUnderpaid,
    Address: c.address,
    Transaction: c.transaction ? transaction(c.transaction) : null,
    WalletName: c.walletName,
  };
}

/**
 * The spec's webhook body: `EventType` and `ForPaymentEvents`, the PascalCase mapping of the
 * Payment record the REST API returns (`paymentRecord`, lib/payments/record.ts), nothing
 * re-derived from rows, so the two can never disagree. The spec's payload leaves out `note`,
 * `onBehalfOfBusinessId`, `netAmountUsd` and a charge's `transactions`, shows an absent optional
 * field as null, and adds the two fields only webhooks carry: BusinessId and RedirectUrl.
 */
export function webhookPayload(
  type: EventType,
  record: PaymentRecord,
  extra: { businessId: number; redirectUrl: string | null },
) {
  const c = record.customer;
  return {
    EventType: type,
    ForPaymentEvents: {
      Id: record.id,
      BusinessId: extra.businessId,
      Name: record.name,
      Description: record.description,
      EndAmount: record.endAmount,
      PrePaymentAmount: record.prePaymentAmount,
      Currency: record.currency,
      Status: record.status,
      CreatedAt: record.createdAt,
      ExpiresAt: record.expiresAt,
      Timeline: (record.timeline ?? []).map((t) => ({ Time: t.time, PaymentStatus: t.paymentStatus })),
      Customer: c
        ? {
            Id: c.id,
            Email: c.email,
            IpAddresses: (c.ipAddresses ?? []).map((ip) => ({
              City: ip.city,
              Ip: ip.ip,
              Country: ip.country,
              RiskScore: ip.riskScore,
              ConnectionType: ip.connectionType,
              ISP: ip.isp,
              DateCreated: ip.dateCreated,
            })),
          }
        : null,
      Metadata: record.metadata ?? null,
      SelectedPaymentMethod: record.selectedPaymentMethod ?? null,
      PlatformCryptoCharge: record.platformCryptoCharge ? charge(record.platformCryptoCharge) : null,
      ContractCharge: record.contractCharge ? charge(record.contractCharge) : null,
      PlatformFee: record.platformFee ?? null,
      RedirectUrl: extra.redirectUrl,
    },
  };
}
export type WebhookPayload = ReturnType<typeof webhookPayload>;
