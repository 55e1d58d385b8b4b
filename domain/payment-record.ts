import { z } from "zod";
import { CHARGE_TYPES, CRYPTO_COIN_NAMES, NETWORKS } from "@/domain/coins";
import { PAYMENT_STATUSES } from "./statuses";

/**
 * The Payment record as the API returns it (fetch, list, note) and webhooks carry it in
 * PascalCase: exactly the specification's fields, nothing else. With the enums requests share.
 */

export const PaymentStatusSchema = z.enum(PAYMENT_STATUSES).meta({ id: "PaymentStatus" });
export const PaymentMethodSchema = z.enum(CHARGE_TYPES).meta({ id: "PaymentMethod" });
export const CryptoCoinNameSchema = z.enum(CRYPTO_COIN_NAMES).meta({ id: "CryptoCoinName" });
export const NetworkSchema = z.enum(NETWORKS).meta({ id: "Network" });
export const IpConnectionTypeSchema = z
  .enum(["RESIDENTIAL", "BUSINESS", "WIRELESS", "VPN", "SOCKS", "COMPROMISED_SERVER", "Unknown"])
  .meta({ id: "IpConnectionType" });


const dateTime = z.iso.datetime({ offset: true });

export const TimelineEntrySchema = z
  .strictObject({ time: dateTime, paymentStatus: PaymentStatusSchema })
  .meta({ id: "TimelineEntry" });

export const CustomerIpDetailsSchema = z
  .strictObject({
    city: z.string().nullable().meta({ description: "City the address is in (bundled DB-IP City Lite database), or null when unknown." }),
    ip: z.string().nullable(),
    country: z.string().nullable().meta({ description: "ISO 3166-1 alpha-2 code of the country the address is in (bundled DB-IP City Lite database), or null when unknown.", examples: ["US"] }),
    riskScore: z.number().nullable(),
    connectionType: IpConnectionTypeSchema,
    isp: z.string().nullable().meta({ description: "Organisation of the autonomous system the address belongs to (bundled @ip-location-db/asn database), or null when unknown.", examples: ["Google LLC"] }),
    dateCreated: dateTime,
  })
  .meta({ id: "CustomerIpDetails" });

export const CustomerSchema = z
  .strictObject({
    id: z.number().int().meta({ format: "int64" }),
    email: z.string().nullable(),
    ipAddresses: z.array(CustomerIpDetailsSchema).nullable().optional(),
  })
  .meta({ id: "Customer" });

export const TransactionSchema = z
  .strictObject({
    amount: z.number().meta({ description: "What the transaction paid to the charge's address (all its outputs or token transfers there), in whole coins." }),
    toAddress: z.string().nullable(),
    id: z.string().nullable().meta({ description: "Transaction hash, as a block explorer shows it. One entry per on-chain transaction." }),
    confirmations: z.number().int().meta({ format: "int32" }),
    blockNumber: z.string().nullable().optional(),
    network: NetworkSchema.optional(),
    fromAddress: z.string().nullable().optional(),
    tokenName: CryptoCoinNameSchema.optional(),
  })
  .meta({ id: "Transaction" });

const chargeFields = {
  amount: z.number(),
  coinName: z.string().nullable(),
  exchangeRate: z.number(),
  isUnderpaid: z.boolean(),
  address: z.string().nullable(),
  transaction: TransactionSchema.optional(),
  walletName: z.string().nullable(),
};

export const CryptoChargeSchema = z
  .strictObject({ ...chargeFields, transactions: z.array(TransactionSchema).nullable().optional() })
  .meta({ id: "CryptoCharge" });
export const ContractChargeSchema = z.strictObject(chargeFields).meta({ id: "ContractCharge" });

export const PaymentSchema = z
  .strictObject({
    id: z.uuid().meta({ description: "Payment identifier." }),
    name: z.string().nullable().meta({ description: "Display name." }),
    description: z.string().nullable().meta({ description: "Internal description." }),
    endAmount: z.number().meta({ format: "double", description: "Final payment amount, in `currency`." }),
    prePaymentAmount: z.number().meta({ format: "double", description: "The amount requested at creation, in `currency`." }),
    currency: z.string().nullable().meta({ description: "ISO 4217 code." }),
    status: PaymentStatusSchema,
    createdAt: dateTime,
    expiresAt: dateTime.meta({ description: "When an unpaid payment expires." }),
    timeline: z.array(TimelineEntrySchema).nullable().meta({ description: "Status change history, oldest first." }),
    customer: CustomerSchema.optional(),
    metadata: z.record(z.string(), z.string()).nullable().optional().meta({ description: "The pairs attached at creation." }),
    selectedPaymentMethod: PaymentMethodSchema.optional().meta({ description: "Method chosen by the customer." }),
    platformCryptoCharge: CryptoChargeSchema.optional().meta({ description: "Present once the customer has selected a PLATFORM_CRYPTO coin." }),
    contractCharge: ContractChargeSchema.optional().meta({ description: "Present once the customer has selected a CONTRACT_CRYPTO or CONTRACT_TRX coin." }),
    platformFee: z.number().nullable().optional().meta({ format: "double", description: "Fee amount, in `currency`." }),
    note: z.string().nullable().optional().meta({ description: "Internal note." }),
    onBehalfOfBusinessId: z.number().int().optional().meta({ format: "int64" }),
    netAmountUsd: z.number().optional().meta({ format: "double", description: "Net amount (after the fee) in USD." }),
  })
  .meta({ id: "Payment" });
export type PaymentRecord = z.infer<typeof PaymentSchema>;

export const PaymentListSchema = z
  .strictObject({
    items: z.array(PaymentSchema).meta({ description: "Newest first." }),
    pageNumber: z.number().int().meta({ format: "int32" }),
    pageSize: z.number().int().meta({ format: "int32" }),
    totalCount: z.number().int().meta({ format: "int64", description: "Payments matching the filters, on every page." }),
    totalPages: z.number().int().meta({ format: "int64" }),
  })
  .meta({ id: "PaymentList" });
