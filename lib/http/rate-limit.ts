import { TokenBucket } from "limiter";
import { config } from "@/lib/config";
import { ApiError } from "./errors";

/**
 * D14: a token bucket per API key (100 requests/s, burst 200 by default). Buckets live in the
 * process: with several app instances each enforces the limit on its own share of traffic.
 */
const buckets = new Map<string, TokenBucket>();

export function takeToken(keyId: string): void {
  const { perSecond, burst } = config().rateLimit;
  let bucket = buckets.get(keyId);
  if (!bucket) {
    bucket = new TokenBucket({ bucketSize: burst, tokensPerInterval: perSecond, interval: "second" });
    bucket.content = burst; // a new key starts with a full burst allowance
    buckets.set(keyId, bucket);
  }
  if (!bucket.tryRemoveTokens(1)) {
    const retryAfter = Math.max(1, Math.ceil((1 - bucket.content) / perSecond));
    throw new ApiError(
      "rate-limited",
      429,
      `Rate limit of ${perSecond} requests per second (burst ${burst}) exceeded for this API key; retry after ${retryAfter} s.`,
      undefined,
      { "retry-after": String(retryAfter) },
    );
  }
}
