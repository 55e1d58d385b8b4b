import { z } from "zod";
import { DELIVERY_STATUSES } from "@/lib/webhooks/delivery-log";
import { EVENT_TYPES } from "@/domain/events";
import {
  CryptoCoinNameSchema,
  IpConnectionTypeSchema,
  NetworkSchema,
  PaymentMethodSchema,
  PaymentStatusSchema,
} from "@/lib/payments/schemas";

/**
 * Output shapes of the webhook delivery log (lib/webhooks/delivery-log.ts: `deliveryView`,
 * `listBusinessDeliveries`) and of the webhook body it carries (lib/webhooks/payload.ts).
 * test/openapi.test.ts parses real responses with these strict schemas.
 */
const dateTime = z.iso.datetime({ offset: true });
const int64 = z.number().int().meta({ format: "int64" });
const int32 = z.number().int().meta({ format: "int32" });

export const EventTypeSchema = z.enum(EVENT_TYPES).meta({ id: "WebhookEventType", description: "What happened to the payment." });

const WebhookTransactionSchema = z
  .strictObject({
    Amount: z.number().meta({ description: "Whole coins." }),
    ToAddress: z.string().nullable(),
    Id: z.string().nullable().meta({ description: "The transaction hash." }),
    Confirmations: int32,
    BlockNumber: z.string().nullable(),
    Network: NetworkSchema.nullable(),
    FromAddress: z.string().nullable(),
    TokenName: CryptoCoinNameSchema.nullable(),
  })
  .meta({ id: "WebhookTransaction" });

const WebhookChargeSchema = z
  .strictObject({
    Amount: z.number().meta({ description: "The amount due, in whole coins." }),
    CoinName: z.string().nullable(),
    ExchangeRate: z.number(),
    IsUnderpaid: z.boolean(),
    Address: z.string().nullable().meta({ description: "The deposit address." }),
    Transaction: WebhookTransactionSchema.nullable(),
    WalletName: z.string().nullable(),
  })
  .meta({ id: "WebhookCharge" });

const WebhookCustomerSchema = z
  .strictObject({
    Id: int64,
    Email: z.string().nullable(),
    IpAddresses: z.array(
      z.strictObject({
        City: z.string().nullable(),
        Ip: z.string().nullable(),
        Country: z.string().nullable(),
        RiskScore: z.number().nullable(),
        ConnectionType: IpConnectionTypeSchema,
        ISP: z.string().nullable(),
        DateCreated: dateTime,
      }),
    ),
  })
  .meta({ id: "WebhookCustomer" });

export const WebhookPayloadSchema = z
  .strictObject({
    EventType: EventTypeSchema,
    ForPaymentEvents: z.strictObject({
      Id: z.uuid(),
      BusinessId: int64.meta({ description: "The business the payment belongs to (a sub-business's parent)." }),
      Name: z.string().nullable(),
      Description: z.string().nullable(),
      EndAmount: z.number(),
      PrePaymentAmount: z.number(),
      Currency: z.string().nullable(),
      Status: PaymentStatusSchema,
      CreatedAt: dateTime,
      ExpiresAt: dateTime,
      Timeline: z.array(z.strictObject({ Time: dateTime, PaymentStatus: PaymentStatusSchema })),
      Customer: WebhookCustomerSchema.nullable(),
      Metadata: z.record(z.string(), z.string()).nullable(),
      SelectedPaymentMethod: PaymentMethodSchema.nullable(),
      PlatformCryptoCharge: WebhookChargeSchema.nullable(),
      ContractCharge: WebhookChargeSchema.nullable(),
      PlatformFee: z.number().nullable(),
      RedirectUrl: z.string().nullable(),
    }),
  })
  .meta({
    id: "WebhookPayload",
    description:
      "The signed JSON body POSTed to the webhook address: the payment as the Payment record shows it, in PascalCase, with `BusinessId` and `RedirectUrl`. Verify it with the `hook-id`, `hook-timestamp` and `hook-signature` headers (the same values also as `webhook-*`).",
  });

export const WebhookAttemptSchema = z
  .strictObject({
    attemptedAt: dateTime,
    succeeded: z.boolean().meta({ description: "Whether the endpoint answered 2xx within 15 s." }),
    statusCode: int32.nullable().meta({ description: "The endpoint's HTTP status; null when it gave none (timeout, connection error)." }),
    latencyMs: int32.meta({ description: "How long the attempt took, in milliseconds." }),
    error: z.string().nullable().meta({ description: "Why the attempt failed; null when it succeeded." }),
    responseBody: z.string().nullable().meta({ description: "The first 2048 characters of the endpoint's answer." }),
  })
  .meta({ id: "WebhookAttempt", description: "One attempt to deliver a webhook." });

export const WebhookDeliverySchema = z
  .strictObject({
    deliveryId: int64.positive().meta({ description: "The id to redeliver it with." }),
    messageId: z.string().meta({ description: "The `hook-id` (and `webhook-id`) header: the same on every attempt, for receivers to dedupe." }),
    paymentId: z.uuid(),
    eventType: EventTypeSchema,
    endpointId: int64
      .positive()
      .nullable()
      .meta({ description: "The endpoint it is for; null when it goes to the payment's own `notifyUrl` (or its endpoint was deleted)." }),
    url: z.string().meta({ description: "Where it was last sent (or is to be sent): its endpoint's URL, or the payment's `notifyUrl`." }),
    status: z.enum(DELIVERY_STATUSES).meta({
      description:
        "`pending`: not delivered yet, retried 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h after each failure; `succeeded`: a 2xx was received; `failed`: every scheduled attempt failed.",
    }),
    attemptCount: int32.min(0),
    nextAttemptAt: dateTime.nullable().meta({ description: "When the next scheduled attempt is due; null when none is." }),
    lastAttemptAt: dateTime.nullable(),
    lastStatusCode: int32.nullable().meta({ description: "The HTTP status of the last attempt; null when it got none." }),
    createdAt: dateTime,
    payload: WebhookPayloadSchema,
    attempts: z.array(WebhookAttemptSchema).meta({ description: "Every attempt, oldest first." }),
  })
  .meta({ id: "WebhookDelivery", description: "One webhook message to one endpoint, with every attempt to deliver it." });

export const WebhookDeliveryListSchema = z
  .strictObject({
    items: z.array(WebhookDeliverySchema).meta({ description: "Newest first." }),
    pageNumber: int32,
    pageSize: int32,
    totalCount: int64,
    totalPages: int64,
  })
  .meta({ id: "WebhookDeliveryList" });
