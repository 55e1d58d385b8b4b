import { randomBytes } from "node:crypto";
import { Webhook } from "svix";

/** D5: one message id per event and endpoint, stable across retries. */
export function newMessageId(): string {
  return `msg_${randomBytes(16).toString("base64url")}`;
}

/** D5: `whsec_` + base64 of 32 random bytes, the format svix's verifier expects. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

/**
 * Signs the exact body bytes with svix (`v1,<base64 HMAC-SHA256>` over `{id}.{timestamp}.{body}`)
 * and returns the spec's `hook-*` headers plus the same values as `webhook-*` (D5), which an
 * unmodified svix / Standard Webhooks verifier reads directly. Several secrets (a rotation's
 * overlap) give one signature each, space-separated, as the Standard Webhooks spec allows: a
 * receiver holding either secret verifies the message.
 */
export function signatureHeaders(secrets: string | string[], messageId: string, body: string, at: Date): Record<string, string> {
  const timestamp = String(Math.floor(at.getTime() / 1000));
  const signature = (Array.isArray(secrets) ? secrets : [secrets]).map((s) => new Webhook(s).sign(messageId, at, body)).join(" ");
  return {
    "hook-id": messageId,
    "hook-timestamp": timestamp,
    "hook-signature": signature,
    "webhook-id": messageId,
    "webhook-timestamp": timestamp,
    "webhook-signature": signature,
  };
}
