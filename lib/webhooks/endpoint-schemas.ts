import { z } from "zod";
import { EVENT_TYPES } from "@/domain/events";
import { LIVE_URL_RULE, URL_RULE, URL_SCHEME_PATTERN } from "@/lib/http/rules";
import { urlField } from "@/lib/http/url-field";

/** At most this many endpoints per business (Svix, Stripe and BTCPay set limits of the same order). */
export const MAX_ENDPOINTS = 10;
/** An endpoint whose every attempt has failed for this long is disabled (Svix's rule). */
export const DISABLE_AFTER_MS = 5 * 24 * 3600 * 1000;
/** How long a rotated-out secret keeps signing beside the new one, unless the rotation says otherwise (Svix's 24 h). */
export const DEFAULT_OVERLAP_SECONDS = 24 * 3600;
const MAX_OVERLAP_SECONDS = 7 * 24 * 3600;

const url = urlField.meta({
  description: `Where the endpoint's events are POSTed. ${URL_RULE} ${LIVE_URL_RULE}`,
  pattern: URL_SCHEME_PATTERN,
  examples: ["https://shop.example.com/hooks/payments"],
});

const description = z
  .string()
  .max(500, "must be at most 500 characters")
  .trim()
  .meta({ description: "A note for the people who manage it (what it feeds): at most 500 characters.", examples: ["Order fulfilment"] });

const eventTypes = z
  .array(z.enum(EVENT_TYPES))
  .min(1, "must name at least one event type (null receives every type)")
  .nullable()
  .meta({
    description:
      "The event types the endpoint receives (repeats are dropped); `null` receives every type, those added later included. Other events are not sent to it and not logged for it.",
    examples: [["PAYMENT_COMPLETED", "PAYMENT_EXPIRED"]],
  });

const enabled = z.boolean().meta({
  description:
    "Whether events are sent to it. Events that happen while it is disabled are logged as `failed` deliveries without an attempt; `POST …/recover` sends them once it is enabled again.",
});

export const CREATE_ENDPOINT_EXAMPLE = {
  url: "https://shop.example.com/hooks/payments",
  description: "Order fulfilment",
  eventTypes: ["PAYMENT_COMPLETED"],
};

export const CreateWebhookEndpointSchema = z
  .strictObject({
    url,
    description: description.optional(),
    eventTypes: eventTypes.optional(),
    enabled: enabled.optional(),
  })
  .meta({
    id: "CreateWebhookEndpointRequest",
    description: `A new endpoint: only \`url\` is required. It gets its own signing secret. A business has at most ${MAX_ENDPOINTS}.`,
    examples: [CREATE_ENDPOINT_EXAMPLE],
  });
export type CreateWebhookEndpointInput = z.infer<typeof CreateWebhookEndpointSchema>;

export const PatchWebhookEndpointSchema = z
  .strictObject({
    url: url.optional(),
    description: description.optional(),
    eventTypes: eventTypes.optional(),
    enabled: enabled.optional(),
  })
  .meta({
    id: "PatchWebhookEndpointRequest",
    description:
      "The settings to change; omitted ones keep their value. A new `url` applies to the deliveries still pending too. `enabled: true` re-enables an endpoint and ends its failing streak; what it missed is sent only when asked (`POST …/recover`).",
    examples: [{ eventTypes: null, enabled: true }],
  });
export type PatchWebhookEndpointInput = z.infer<typeof PatchWebhookEndpointSchema>;

export const RotateEndpointSecretSchema = z
  .strictObject({
    overlapSeconds: z
      .number()
      .int("must be a whole number of seconds")
      .min(0, "must be at least 0")
      .max(MAX_OVERLAP_SECONDS, `must be at most ${MAX_OVERLAP_SECONDS} (7 days)`)
      .meta({
        format: "int32",
        description: `How long the old secret keeps signing beside the new one, in seconds: 0 to ${MAX_OVERLAP_SECONDS} (7 days). Default ${DEFAULT_OVERLAP_SECONDS} (24 hours). During the overlap each message carries two signatures (\`v1,<new> v1,<old>\`); 0 replaces the secret at once.`,
        examples: [3600],
      }),
  })
  .partial()
  .meta({
    id: "RotateWebhookEndpointSecretRequest",
    description: "Optional: an absent or blank body stands for `{}`.",
    examples: [{ overlapSeconds: 3600 }],
  });

export const RecoverEndpointSchema = z
  .strictObject({
    since: z.iso.datetime({ offset: true, message: "must be an ISO 8601 date-time with an offset" }).meta({
      description:
        "Resend every `failed` delivery of this endpoint created at or after this time (events it missed while disabled, and those whose retries ran out), with a fresh retry schedule and the same message ids. Must not be in the future.",
      examples: ["2026-01-05T00:00:00Z"],
    }),
  })
  .meta({ id: "RecoverWebhookEndpointRequest", examples: [{ since: "2026-01-05T00:00:00Z" }] });
