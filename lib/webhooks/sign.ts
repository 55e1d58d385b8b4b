import { randomBytes } from "node:crypto";
import { Webhook } from "svix";

/** D5: one message id per event and endpoint, stable across retries. */
export function newMessageId(): string {
  return `msg_${randomBytes(16).toString("base64url")}`;
}

/**
 * Signs the exact body bytes with svix (`v1,<base64 HMAC-SHA256>` over `{id}.{timestamp}.{body}`)
 * and returns the spec's `hook-*` headers plus the same values as `webhook-*` (D5), which an
 * unmodified svix / Standard Webhooks verifier reads directly.
 */
export function signatureHeaders(secret: string, messageId: string, body: string, at: Date): Record<string, string> {
  const timestamp = String(Math.floor(at.getTime() / 1000));
  const signature = new Webhook(secret).sign(messageId, at, body);
  return {
    "hook-id": messageId,
    "hook-timestamp": timestamp,
    "hook-signature": signature,
    "webhook-id": messageId,
    "webhook-timestamp": timestamp,
    "webhook-signature": signature,
  };
}
