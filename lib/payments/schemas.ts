import { z } from "zod";
import { urlField } from "@/lib/http/url-field";
import { emailField } from "@/lib/http/email-field";
import { CHARGE_TYPES, coinsOfChargeType, COIN_NAMES } from "@/domain/coins";
import { Big, decimalPlaces } from "@/domain/decimal";
import { isIsoCurrency, isPayableCurrency, minorUnits } from "@/domain/currencies";
import { acceptedCurrencies, isAcceptedCurrency } from "@/lib/rates/quote";
import { liveUrlProblem } from "@/lib/http/url-safety";
import { LIVE_URL_RULE, URL_RULE, URL_SCHEME_PATTERN } from "@/lib/http/rules";

/**
 * The zod schemas of the merchant API, defined once: request parsing, TypeScript types and
 * the OpenAPI document (`lib/openapi`) all come from here. The Payment record and the enums it
 * shares with requests are in ./record-schema.ts.
 */

export * from "@/domain/payment-record";

export const MIN_AMOUNT = 0.5;
/** The spec leaves the maximum open; one billion units of any currency is far above real orders. */
export const MAX_AMOUNT = 1_000_000_000;

const coinList = (type: (typeof CHARGE_TYPES)[number]) => {
  const allowed = coinsOfChargeType(type) as [string, ...string[]];
  return z
    .array(
      z.enum(allowed, {
        error: (issue) =>
          `${typeof issue.input === "string" && issue.input.length <= 40 ? JSON.stringify(issue.input) : "the value"} is not a ${type} coin; allowed: ${allowed.join(", ")}`,
      }),
    )
    .max(COIN_NAMES.length)
    .meta({ description: `${type} coins to offer (a coin may repeat; repeats change nothing).` });
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
    description:
      "Charge type → the coins of that charge type to offer. Narrows the business's `enabledCoins`: checkout offers the coins named here that the business has enabled (and, for a `live` business, has a deposit-address source for). When none is left the create is refused with 400 on `paymentMethods`, naming each coin left out and why (not enabled, no node configured for its chain, no extended public key for its family). `NONE` takes no coins.",
    examples: [{ PLATFORM_CRYPTO: ["BITCOIN", "ETH_TETHER"] }],
  });

export const FeeTransferSchema = z
  .strictObject({
    businessId: z.number().int().positive().max(Number.MAX_SAFE_INTEGER).meta({ format: "int64", description: "The business credited." }),
    percent: z.number().gt(0).max(100).meta({ description: "Its share of the settled amount, in percent: more than 0, at most 100." }),
  })
  .meta({
    id: "FeeTransfer",
    description: "A share of the settled amount credited to another business (recorded with the payment).",
    examples: [{ businessId: 2, percent: 10 }],
  });

export const MetadataSchema = z
  .record(
    z.string().min(1, "keys must not be empty").max(40, "keys must be at most 40 characters"),
    z.string({ error: "values must be strings" }).max(500, "values must be at most 500 characters"),
  )
  .refine((m) => Object.keys(m).length <= 50, "at most 50 keys")
  .meta({
    id: "Metadata",
    description:
      "String-to-string pairs, returned on fetch and in webhooks, never shown to the customer: at most 50 keys of 1 to 40 characters (not `__proto__`), each value a string of at most 500 characters.",
    maxProperties: 50,
    examples: [{ orderId: "1042", cartId: "c_8f2a" }],
    override: ({ jsonSchema }) => {
      Object.assign(jsonSchema.propertyNames as object, { not: { const: "__proto__" } });
    },
  });

/**
 * ISO 4217 code (case-insensitive), accepted only where the rate source can price coins in it:
 * a payment in a currency without a rate could be created but never paid.
 */
export const CurrencySchema = z
  .string()
  .regex(/^[A-Za-z]{3}$/, "must be a three-letter ISO 4217 code")
  .transform((c) => c.toUpperCase())
  .superRefine((code, ctx) => {
    if (!isIsoCurrency(code)) {
      ctx.addIssue({ code: "custom", message: "is not an ISO 4217 currency code" });
    } else if (!isAcceptedCurrency(code)) {
      const why = isPayableCurrency(code) ? "no exchange rate is available for it" : "it has no minor units (a metal, fund or test code)";
      ctx.addIssue({ code: "custom", message: `${code} is not accepted: ${why}; accepted: ${acceptedCurrencies().join(", ")}` });
    }
  })
  .meta({
    description:
      "Three-letter ISO 4217 code of `amount`. Only the currencies this service has an exchange rate for are accepted, and `enum` lists exactly those (the server also reads them in lower or mixed case: `eur` is `EUR`). ISO 4217 codes without minor units — precious metals such as XAU and XAG, the IMF's XDR, bond units, the test codes XTS and XXX — are refused, and so is every currency without a rate.",
    examples: ["EUR"],
  });

/** D7: a live business's URLs are https and not loopback, private or link-local. */
const liveUrlField = urlField.superRefine((value, ctx) => {
  if (!URL.canParse(value)) return; // urlField has already said so
  const problem = liveUrlProblem(value);
  if (problem) ctx.addIssue({ code: "custom", message: problem });
});

function createRequestSchema(url: typeof urlField) {
  return z
    .strictObject({
      currency: CurrencySchema,
      amount: z
        .number({ error: "must be a number" })
        .min(MIN_AMOUNT, `must be at least ${MIN_AMOUNT}`)
        .max(MAX_AMOUNT, `must be at most ${MAX_AMOUNT}`)
        .meta({
          description:
            "Amount in `currency`, from 0.5 to 1,000,000,000, with at most as many decimals as the currency has minor units (2 for USD and EUR, 0 for JPY, 3 for KWD). Read exactly as written: a number with more significant digits than a double holds (`0.499999999999999999999`) is refused, never rounded.",
          examples: [49.9],
        }),
      name: z.string().max(200, "must be at most 200 characters").optional().meta({ description: "Display name shown to the customer on checkout.", examples: ["Order #1042"] }),
      description: z.string().max(1000, "must be at most 1000 characters").optional().meta({ description: "Internal description, hidden from customers.", examples: ["2x T-shirt, 1x mug"] }),
      customerEmail: emailField.optional().meta({
        description: "Used for receipts and status updates. At most 254 characters, at most 64 of them before the `@` (RFC 5321).",
        examples: ["jane@example.com"],
      }),
      customerIp: z
        .union([z.ipv4(), z.ipv6()], { error: "must be an IPv4 or IPv6 address" })
        .optional()
        .meta({ description: "The customer's IPv4 or IPv6 address; detected from the checkout page visit when omitted.", examples: ["203.0.113.7"] }),
      customerUserAgent: z
        .string()
        .max(1024, "must be at most 1024 characters")
        .optional()
        .meta({ description: "The customer's browser user agent; detected from the checkout page visit when omitted.", examples: ["Mozilla/5.0 (X11; Linux x86_64)"] }),
      redirectUrl: url.optional().meta({
        description: `Where the customer is sent after payment. Without it the customer stays on the checkout page. ${URL_RULE} ${LIVE_URL_RULE}`,
        pattern: URL_SCHEME_PATTERN,
        examples: ["https://shop.example.com/orders/1042/thanks"],
      }),
      notifyUrl: url.optional().meta({
        description: `Webhook address for this payment only; overrides the business default. ${URL_RULE} ${LIVE_URL_RULE}`,
        pattern: URL_SCHEME_PATTERN,
        examples: ["https://shop.example.com/hooks/payments"],
      }),
      metadata: MetadataSchema.optional(),
      paymentMethods: PaymentMethodsSchema.optional().meta({
        description:
          "Narrows the coins offered to those named here that the business has enabled; none left is a 400 on `paymentMethods`. When omitted, every coin enabled for the business (and, when `live`, with a deposit-address source) is offered.",
      }),
      feeTransfers: z
        .array(FeeTransferSchema)
        .max(10, "at most 10 fee transfers")
        .refine((f) => f.reduce((s, t) => s.plus(t.percent), new Big(0)).lte(100), "percentages add up to more than 100")
        .optional()
        .meta({
          description:
            "Shares of the settled amount for other businesses: at most 10 entries, whose `percent` values add up to at most 100.",
          examples: [[{ businessId: 2, percent: 10 }]],
        }),
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
    });
}

/** The create body of the README (and of every example of the document): accepted as is. */
export const CREATE_PAYMENT_EXAMPLE = {
  currency: "EUR",
  amount: 49.9,
  name: "Order #1042",
  description: "2x T-shirt, 1x mug",
  customerEmail: "jane@example.com",
  redirectUrl: "https://shop.example.com/orders/1042/thanks",
  metadata: { orderId: "1042", cartId: "c_8f2a" },
  paymentMethods: { PLATFORM_CRYPTO: ["BITCOIN", "ETH_TETHER"] },
};

export const CreatePaymentRequestSchema = createRequestSchema(urlField).meta({
  id: "CreatePaymentRequest",
  description:
    "A new payment. Rules across fields: `amount` has at most the decimals of `currency`; the `percent` values of `feeTransfers` add up to at most 100; `paymentMethods` must leave at least one coin the business has enabled; a `live` business's `redirectUrl` and `notifyUrl` must be public `https://` URLs.",
  examples: [CREATE_PAYMENT_EXAMPLE],
});
const LiveCreatePaymentRequestSchema = createRequestSchema(liveUrlField);

/** The create body's schema for a business of `mode`: live businesses' URLs are checked with the rest. */
export function createPaymentRequestSchema(mode: "test" | "live") {
  return mode === "live" ? LiveCreatePaymentRequestSchema : CreatePaymentRequestSchema;
}
export type CreatePaymentRequest = z.infer<typeof CreatePaymentRequestSchema>;

export const CreateResultSchema = z
  .strictObject({
    id: z.uuid().meta({ description: "Payment identifier." }),
    url: z.string().meta({ description: "Hosted checkout URL to redirect the customer to." }),
  })
  .meta({ id: "CreatePaymentResult" });

export const NoteRequestSchema = z
  .strictObject({
    note: z
      .string({ error: "must be a string" })
      .max(256, "must be at most 256 characters")
      .meta({
        description: "The internal note, at most 256 characters; replaces any previous one. Visible only to the business team.",
        examples: ["Customer asked for gift wrapping"],
      }),
  })
  .meta({ id: "UpdateNoteRequest", examples: [{ note: "Customer asked for gift wrapping" }] });
