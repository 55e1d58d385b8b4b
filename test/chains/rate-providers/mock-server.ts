import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, it } from "vitest";
import { RateLimitedError, RateProviderError, type RateProvider } from "@/lib/rates/providers/index";

/** What the mock answers on one path: a body (object → JSON, string → sent verbatim), or silence. */
export type Reply = { status?: number; headers?: Record<string, string>; body?: unknown; silent?: boolean };
export type Route = Reply | ((url: URL, req: http.IncomingMessage) => Reply);

/**
 * A real HTTP server on 127.0.0.1, port 0, standing in for a provider's host: the adapters go
 * through fetch, sockets and the body stream exactly as in production. `silent` accepts the
 * request and never answers, like a provider whose backend hangs.
 */
export async function startMockServer(routes: Record<string, Route> = {}) {
  const table = new Map<string, Route>(Object.entries(routes));
  const requests: { url: URL; headers: http.IncomingHttpHeaders }[] = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://mock");
    requests.push({ url, headers: req.headers });
    const route = table.get(url.pathname);
    const reply: Reply = route === undefined ? { status: 404, body: { message: "NotFound" } } : typeof route === "function" ? route(url, req) : route;
    if (reply.silent) return;
    const text = typeof reply.body === "string" ? reply.body : JSON.stringify(reply.body ?? {});
    res.writeHead(reply.status ?? 200, { "content-type": "application/json", ...reply.headers });
    res.end(text);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    route(path: string, r: Route) {
      table.set(path, r);
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type MockServer = Awaited<ReturnType<typeof startMockServer>>;

async function failure(p: Promise<unknown>): Promise<RateProviderError> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(RateProviderError);
  return e as RateProviderError;
}

/**
 * The transport failures every adapter must turn into typed errors, run against `path` (one of
 * the provider's documented paths) while the other paths keep their good answers.
 */
export function transportFailureTests(provider: RateProvider, path: string, server: () => MockServer, goodReply: () => Route) {
  const opts = () => ({ baseUrl: server().baseUrl, timeoutMs: 400, now: () => new Date("2024-03-25T08:46:00Z") });
  const restore = () => server().route(path, goodReply());

  it(`${provider.id}: HTTP 429 with Retry-After is a RateLimitedError carrying the delay`, async () => {
    server().route(path, { status: 429, headers: { "retry-after": "7" }, body: { message: "slow down" } });
    const e = await failure(provider.fetchRates(opts()));
    restore();
    expect(e).toBeInstanceOf(RateLimitedError);
    expect(e.kind).toBe("rate-limited");
    expect((e as RateLimitedError).retryAfterMs).toBe(7000);
    expect(e.status).toBe(429);
  });

  it(`${provider.id}: Retry-After as an HTTP date is measured from now`, async () => {
    server().route(path, { status: 429, headers: { "retry-after": "Mon, 25 Mar 2024 08:47:30 GMT" }, body: "" });
    const e = await failure(provider.fetchRates(opts()));
    restore();
    expect((e as RateLimitedError).retryAfterMs).toBe(90_000);
  });

  it(`${provider.id}: HTTP 500 is an "http" error with the status`, async () => {
    server().route(path, { status: 500, body: "Internal Server Error" });
    const e = await failure(provider.fetchRates(opts()));
    restore();
    expect(e.kind).toBe("http");
    expect(e.status).toBe(500);
    expect(e.message).toContain("Internal Server Error");
  });

  it(`${provider.id}: malformed JSON is a "malformed" error`, async () => {
    server().route(path, { body: '{"result": {"XXBTZUSD": ' });
    const e = await failure(provider.fetchRates(opts()));
    restore();
    expect(e.kind).toBe("malformed");
  });

  it(`${provider.id}: a server that accepts and never answers fails with "timeout" within timeoutMs`, async () => {
    server().route(path, { silent: true });
    const started = performance.now();
    const e = await failure(provider.fetchRates(opts()));
    const elapsed = performance.now() - started;
    restore();
    expect(e.kind).toBe("timeout");
    expect(elapsed).toBeGreaterThanOrEqual(390);
    expect(elapsed).toBeLessThan(2000);
  });

  it(`${provider.id}: a refused connection is a "network" error`, async () => {
    const e = await failure(provider.fetchRates({ ...opts(), baseUrl: "http://127.0.0.1:9" }));
    expect(e.kind).toBe("network");
  });
}
