import { z } from "zod";
import { CHARGE_TYPES, CRYPTO_COIN_NAMES, NETWORKS, coinsOfChargeType, COIN_NAMES } from "@/lib/chains/coins";
import { decimalPlaces } from "@/lib/money/decimal";
import { isCurrency, minorUnits } from "@/lib/money/currencies";
import { PAYMENT_STATUSES } from "./status";

/**
 * The zod schemas of the merchant API, defined once: request parsing, TypeScript types and
 * the OpenAPI document (`lib/openapi`) all come from here.
 */

export const MIN_AMOUNT = 0.5;
/** The spec leaves the maximum open; one billion units of any currency is far above real orders. */
export const MAX_AMOUNT = 1_000_000_000;

export const PaymentStatusSchema = z.enum(PAYMENT_STATUSES).meta({ id: "PaymentStatus" });
export const PaymentMethodSchema = z.enum(CHARGE_TYPES).meta({ id: "PaymentMethod" });
export const CryptoCoinNameSchema = z.enum(CRYPTO_COIN_NAMES).meta({ id: "CryptoCoinName" });
export const NetworkSchema = z.enum(NETWORKS).meta({ id: "Network" });
export const IpConnectionTypeSchema = z
  .enum(["RESIDENTIAL", "BUSINESS", "WIRELESS", "VPN", "SOCKS", "COMPROMISED_SERVER", "Unknown"])
  .meta({ id: "IpConnectionType" });

// Hostnames may also be IP literals or `localhost` (test businesses deliver to loopback, D7).
const urlField = z
  .string()
  .max(2048, "must be at most 2048 characters")
  .refine((v) => {
    try {
      const u = new URL(v);
      return (u.protocol === "http:" || u.protocol === "https:") && u.hostname.length > 0;
    } catch {
      return false;
    }
  }, "must be an absolute http(s) URL");

const coinList = (type: (typeof CHARGE_TYPES)[number]) => {
  const allowed = coinsOfChargeType(type) as [string, ...string[]];
  return z
    .array(
      z.enum(allowed, {
        error: (issue) =>
          `${JSON.stringify(issue.input)} is not a ${type} coin; allowed: ${allowed.join(", ")}`,
      }),
    )
    .max(COIN_NAMES.length);
};

export const PaymentMethodsSchema = z
  .strictObject({
    PLATFORM_CRYPTO: coinList("PLATFORM_CRYPTO").optional(),
    CONTRACT_CRYPTO: coinList("CONTRACT_CRYPTO").optional(),
    CONTRACT_TRX: coinList("CONTRACT_TRX").optional(),
    NONE: z.array(z.never()).max(0, "takes no coins").optional(),
  })
  .meta({
    id: "PaymentMethods",
    description: "Charge type → allowed coin identifiers of that charge type. Restricts the coins offered on checkout.",
  });

export const FeeTransferSchema = z
  .strictObject({
    businessId: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
    percent: z.number().gt(0).max(100),
  })
  .meta({
    id: "FeeTransfer",
    description: "A share of the settled amount credited to another business (recorded with the payment).",
  });

export const MetadataSchema = z
  .record(
    z.string().min(1, "keys must not be empty").max(40, "keys must be at most 40 characters"),
    z.string({ error: "values must be strings" }).max(500, "values must be at most 500 characters"),
  )
  .refine((m) => Object.keys(m).length <= 50, "at most 50 keys")
  .meta({ id: "Metadata", description: "String-to-string pairs, returned on fetch and in webhooks." });

export const CreatePaymentRequestSchema = z
  .strictObject({
    currency: z
      .string()
      .regex(/^[A-Za-z]{3}$/, "must be a three-letter ISO 4217 code")
      .transform((c) => c.toUpperCase())
      .refine(isCurrency, "is not an ISO 4217 currency code"),
    amount: z
      .number({ error: "must be a number" })
      .min(MIN_AMOUNT, `must be at least ${MIN_AMOUNT}`)
      .max(MAX_AMOUNT, `must be at most ${MAX_AMOUNT}`),
    name: z.string().max(200, "must be at most 200 characters").optional(),
    description: z.string().max(1000, "must be at most 1000 characters").optional(),
    customerEmail: z.email("must be an email address").max(320).optional(),
    customerIp: z.union([z.ipv4(), z.ipv6()], { error: "must be an IPv4 or IPv6 address" }).optional(),
    customerUserAgent: z.string().max(1024, "must be at most 1024 characters").optional(),
    redirectUrl: urlField.optional(),
    notifyUrl: urlField.optional(),
    metadata: MetadataSchema.optional(),
    paymentMethods: PaymentMethodsSchema.optional(),
    feeTransfers: z
      .array(FeeTransferSchema)
      .max(10, "at most 10 fee transfers")
      .refine((f) => f.reduce((s, t) => s + t.percent, 0) <= 100, "percentages add up to more than 100")
      .optional(),
  })
  .superRefine((body, ctx) => {
    const digits = minorUnits(body.currency);
    if (digits !== undefined && decimalPlaces(body.amount) > digits) {
      ctx.addIssue({
        code: "custom",
        path: ["amount"],
        message: `${body.currency} has ${digits} decimal place${digits === 1 ? "" : "s"}; ${body.amount} has more`,
      });
    }
  })
  .meta({ id: "CreatePaymentRequest" });
export type CreatePaymentRequest = z.infer<typeof CreatePaymentRequestSchema>;

export const CreateResultSchema = z
  .strictObject({ id: z.uuid(), url: z.string().meta({ description: "Hosted checkout URL" }) })
  .meta({ id: "CreatePaymentResult" });

export const NoteRequestSchema = z
  .strictObject({ note: z.string({ error: "must be a string" }).max(256, "must be at most 256 characters") })
  .meta({ id: "UpdateNoteRequest" });

// ---- the Payment record (output): exactly the spec's fields, nothing else ----

const dateTime = z.iso.datetime({ offset: true });

export const TimelineEntrySchema = z
  .strictObject({ time: dateTime, paymentStatus: PaymentStatusSchema })
  .meta({ id: "TimelineEntry" });

export const CustomerIpDetailsSchema = z
  .strictObject({
    city: z.string().nullable(),
    ip: z.string().nullable(),
    country: z.string().nullable(),
    riskScore: z.number().nullable(),
    connectionType: IpConnectionTypeSchema,
    isp: z.string().nullable(),
    dateCreated: dateTime,
  })
  .meta({ id: "CustomerIpDetails" });

export const CustomerSchema = z
  .strictObject({
    id: z.number().int(),
    email: z.string().nullable(),
    ipAddresses: z.array(CustomerIpDetailsSchema).nullable().optional(),
  })
  .meta({ id: "Customer" });

export const TransactionSchema = z
  .strictObject({
    amount: z.number(),
    toAddress: z.string().nullable(),
    id: z.string().nullable(),
    confirmations: z.number().int(),
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
    id: z.uuid(),
    name: z.string().nullable(),
    description: z.string().nullable(),
    endAmount: z.number(),
    prePaymentAmount: z.number(),
    currency: z.string().nullable(),
    status: PaymentStatusSchema,
    createdAt: dateTime,
    expiresAt: dateTime,
    timeline: z.array(TimelineEntrySchema).nullable(),
    customer: CustomerSchema.optional(),
    metadata: z.record(z.string(), z.string()).nullable().optional(),
    selectedPaymentMethod: PaymentMethodSchema.optional(),
    platformCryptoCharge: CryptoChargeSchema.optional(),
    contractCharge: ContractChargeSchema.optional(),
    platformFee: z.number().nullable().optional(),
    note: z.string().nullable().optional(),
    onBehalfOfBusinessId: z.number().int().optional(),
    netAmountUsd: z.number().optional(),
  })
  .meta({ id: "Payment" });
export type PaymentRecord = z.infer<typeof PaymentSchema>;

export const PaymentListSchema = z
  .strictObject({
    items: z.array(PaymentSchema),
    pageNumber: z.number().int(),
    pageSize: z.number().int(),
    totalCount: z.number().int(),
    totalPages: z.number().int(),
  })
  .meta({ id: "PaymentList" });
