import { parse } from "lossless-json";
import { RateLimitedError, RateProviderError, retryAfterMs } from "./errors";
import { DEFAULT_TIMEOUT_MS, type FetchRatesOptions } from "./types";

/** Error bodies are quoted in messages for operators; longer ones are cut. */
const SNIPPET = 200;

/**
 * GET `url` and parse the body as JSON with lossless-json, so every JSON number stays a
 * LosslessNumber holding the exact digits sent (CoinGecko sends prices as numbers). One
 * AbortController bounds the whole exchange, body included: a server that accepts the
 * connection and never answers, or stops mid-body, fails with kind "timeout" at timeoutMs.
 */
export async function getJson(
  provider: string,
  url: URL,
  o: FetchRatesOptions & { headers?: Record<string, string> } = {},
): Promise<unknown> {
  const timeoutMs = o.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const doFetch = o.fetch ?? fetch;
  const now = o.now ?? (() => new Date());
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  let status: number | null = null;
  let text: string;
  try {
    const res = await doFetch(url, {
      signal: controller.signal,
      headers: { accept: "application/json", ...o.headers },
      redirect: "error",
    });
    status = res.status;
    text = await res.text();
    if (res.status === 429) {
      throw new RateLimitedError(provider, retryAfterMs(res.headers.get("retry-after"), now()), `HTTP 429 for ${url.pathname}: ${text.slice(0, SNIPPET)}`);
    }
    if (!res.ok) throw new RateProviderError(provider, "http", `HTTP ${res.status} for ${url.pathname}: ${text.slice(0, SNIPPET)}`, res.status);
  } catch (e) {
    if (e instanceof RateProviderError) throw e;
    if (controller.signal.aborted) {
      throw new RateProviderError(provider, "timeout", `no complete answer from ${url.host}${url.pathname} within ${timeoutMs} ms`, status, { cause: e });
    }
    // fetch says only "fetch failed"; the reason (ENOTFOUND, ECONNREFUSED, a TLS error) is its cause's.
    const cause = (e as { cause?: { code?: string; message?: string } }).cause;
    const why = cause?.code ?? cause?.message ?? (e as Error).message;
    throw new RateProviderError(provider, "network", `GET ${url.host}${url.pathname} failed: ${why}`, status, { cause: e });
  } finally {
    clearTimeout(timer);
  }
  try {
    return parse(text);
  } catch (e) {
    throw new RateProviderError(provider, "malformed", `${url.pathname} answered with invalid JSON: ${(e as Error).message}`, status, { cause: e });
  }
}

/** The provider's URL for `path` under `baseUrl` (which may carry a path prefix). */
export function endpoint(baseUrl: string, path: string, query: Record<string, string> = {}): URL {
  const url = new URL(baseUrl.replace(/\/+$/, "") + path);
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
  return url;
}

/** A zod failure as one readable line naming the fields, for a "malformed" error. */
export function describeIssues(issues: readonly { path: readonly PropertyKey[]; message: string }[]): string {
  return issues
    .slice(0, 5)
    .map((i) => `${i.path.map(String).join(".") || "(root)"}: ${i.message}`)
    .join("; ");
}
