/**
 * Why a provider poll failed as a whole. Per-pair problems (a zero price, an unlisted coin) are
 * not errors: they land in the snapshot's `skipped` list and the other pairs still count.
 */
export type RateProviderErrorKind =
  | "timeout" // no complete answer within timeoutMs (includes a server that never answers)
  | "network" // connection refused, reset, DNS
  | "http" // a non-2xx status other than 429
  | "rate-limited" // 429 or the provider's own throttling message
  | "malformed" // not JSON, or JSON without the documented fields
  | "provider"; // the provider's documented error envelope (Kraken `error`, Coinbase `errors`)

export class RateProviderError extends Error {
  constructor(
    readonly provider: string,
    readonly kind: RateProviderErrorKind,
    message: string,
    readonly status: number | null = null,
    options?: { cause?: unknown },
  ) {
    super(`${provider}: ${message}`, options);
    this.name = "RateProviderError";
  }
}

/** The provider asked us to slow down; `retryAfterMs` is its stated delay, null when it gave none. */
export class RateLimitedError extends RateProviderError {
  constructor(
    provider: string,
    readonly retryAfterMs: number | null,
    message: string,
    status: number | null = 429,
  ) {
    super(provider, "rate-limited", message, status);
    this.name = "RateLimitedError";
  }
}

/**
 * A Retry-After header (RFC 9110: delay-seconds or an HTTP-date) as milliseconds from `now`;
 * null when absent or unreadable, so the caller falls back to its own backoff.
 */
export function retryAfterMs(header: string | null, now: Date): number | null {
  if (header === null) return null;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return null;
  return Math.max(0, at - now.getTime());
}
