import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { resolvePublic, UnsafeUrlError, checkScheme, webhookGuard } from "@/lib/http/url-safety";

export const DELIVERY_TIMEOUT_MS = 15_000;
const KEEP_BYTES = 2048;

export type SendResult = {
  ok: boolean;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  responseBody: string | null;
};

// Pooled connections: a busy endpoint gets many events, and TLS set-up per event would dominate.
// Guarded deliveries have pools of their own: a pool keys sockets by host and port, not by how
// the address was looked up, so an unguarded socket to a private address is never reused for one.
const pool = () => ({
  "http:": new http.Agent({ keepAlive: true, maxSockets: 64 }),
  "https:": new https.Agent({ keepAlive: true, maxSockets: 64 }),
});
const agents = { guarded: pool(), open: pool() };

/** `lookup` for guarded deliveries: the address connected to is the address checked (D7). */
const publicLookup: LookupFunction = (hostname, options, callback) => {
  resolvePublic(hostname).then(
    (a) => {
      if ((options as { all?: boolean }).all) callback(null, [{ address: a.address, family: a.family }]);
      else callback(null, a.address, a.family);
    },
    (e: Error) => callback(e as NodeJS.ErrnoException, "", 0),
  );
};

/**
 * One delivery attempt (D5): POST the exact body, success = a 2xx within 15 s, redirects are
 * answers, not followed (a 3xx is a failure). Never throws: the outcome is data to record.
 */
export async function postWebhook(
  url: string,
  body: string,
  headers: Record<string, string>,
  mode: "test" | "live",
  timeoutMs = DELIVERY_TIMEOUT_MS,
): Promise<SendResult> {
  const started = performance.now();
  const done = (r: Omit<SendResult, "latencyMs">): SendResult => ({ ...r, latencyMs: Math.round(performance.now() - started) });
  let target: URL;
  const guard = webhookGuard(mode);
  try {
    target = new URL(url);
    checkScheme(target, guard.httpsOnly ? "live" : "test");
    // Refused before any connection: a refused target's reply is never read, so never logged.
    if (guard.publicOnly) await resolvePublic(target.hostname);
  } catch (e) {
    const error = e instanceof UnsafeUrlError ? `refused: ${e.message}` : `invalid URL: ${(e as Error).message}`;
    return done({ ok: false, statusCode: null, error, responseBody: null });
  }
  return new Promise((resolve) => {
    const lib = target.protocol === "https:" ? https : http;
    const req = lib.request(
      target,
      {
        method: "POST",
        agent: agents[guard.publicOnly ? "guarded" : "open"][target.protocol as "http:" | "https:"],
        headers: {
          ...headers,
          "content-type": "application/json",
          "content-length": Buffer.byteLength(body),
          "user-agent": "cryptopay-webhooks/1.0",
        },
        ...(guard.publicOnly ? { lookup: publicLookup } : {}),
      },
      (res) => {
        const chunks: Buffer[] = [];
        let kept = 0;
        res.on("data", (chunk: Buffer) => {
          if (kept < KEEP_BYTES) {
            chunks.push(chunk);
            kept += chunk.length;
          }
        });
        res.on("end", () => {
          clearTimeout(timer);
          const status = res.statusCode ?? 0;
          const ok = status >= 200 && status < 300;
          resolve(
            done({
              ok,
              statusCode: status,
              error: ok ? null : status >= 300 && status < 400 ? `redirect (${status}) not followed` : `HTTP ${status}`,
              responseBody: Buffer.concat(chunks).subarray(0, KEEP_BYTES).toString("utf8"),
            }),
          );
        });
        res.on("error", (e) => {
          clearTimeout(timer);
          resolve(done({ ok: false, statusCode: res.statusCode ?? null, error: e.message, responseBody: null }));
        });
      },
    );
    const timer = setTimeout(() => req.destroy(new Error(`no answer within ${timeoutMs / 1000} s`)), timeoutMs);
    req.on("error", (e) => {
      clearTimeout(timer);
      resolve(done({ ok: false, statusCode: null, error: e.message, responseBody: null }));
    });
    req.end(body);
  });
}
