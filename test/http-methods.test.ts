import { readdirSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Handler } from "@/lib/http/route";
import { RELAY_HEADER, RELAY_SECRET_ENV, ROUTE_METHODS } from "@/lib/http/methods.mjs";
import { methodGuard, rejectedRequestLine } from "../scripts/method-guard.mjs";

/**
 * Issue 28: methods the framework cannot dispatch (TRACE, CONNECT, PROPFIND, FOO, lowercase get).
 * The route modules answer them through the relay (lib/http/route.ts), and the production server's
 * guard (scripts/method-guard.mjs) gets each such request to them; e2e/methods.spec.ts runs the same
 * against the real server.
 */

const SECRET = "test-relay-secret";
type RouteModule = Record<string, unknown>;

/** Every API route module, found on disk (a new route cannot be left out), by its URL pattern. */
function apiRouteFiles(): { pattern: string; file: string }[] {
  const root = path.resolve(import.meta.dirname, "..", "app");
  const out: { pattern: string; file: string }[] = [];
  const walk = (dir: string) => {
    for (const d of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, d.name);
      if (d.isDirectory()) walk(full);
      else if (d.name === "route.ts") out.push({ pattern: "/" + path.relative(root, dir).split(path.sep).join("/"), file: full });
    }
  };
  walk(path.join(root, "v1"));
  walk(path.join(root, "admin", "v1"));
  return out.sort((a, b) => a.pattern.localeCompare(b.pattern));
}

/** A concrete URL for a route pattern: ids for dynamic segments, two segments for a catch-all. */
const urlFor = (pattern: string) =>
  "http://localhost:3000" +
  pattern.replace(/\[\.\.\.[^\]]+\]/, "no/such-route").replace(/\[paymentId\]/, "3f1c2b6e-8a0d-4c57-9e21-6b8f0d4a7c11").replace(/\[[^\]]+\]/g, "7");

const call = (mod: RouteModule, method: string, url: string, headers: Record<string, string> = {}) =>
  (mod[method] as Handler)(new Request(url, { method, headers }), { params: Promise.resolve({}) });

async function problemOf(res: Response) {
  expect(res.headers.get("content-type")).toBe("application/problem+json; charset=utf-8");
  const body = await res.json();
  expect(Object.keys(body)).toEqual(["type", "title", "status", "detail", "instance"]);
  expect(body.status).toBe(res.status);
  return body;
}

describe("the route modules answer relayed methods (one list of methods per route)", () => {
  const routes = apiRouteFiles();
  let mods: RouteModule[];
  beforeAll(async () => {
    process.env[RELAY_SECRET_ENV] = SECRET;
    mods = await Promise.all(routes.map((r) => import(r.file) as Promise<RouteModule>));
  });
  afterAll(() => {
    delete process.env[RELAY_SECRET_ENV];
  });

  it("finds the API's route modules", () => {
    expect(routes.map((r) => r.pattern)).toContain("/v1/openapi.json");
    expect(routes.map((r) => r.pattern)).toContain("/v1/[[...path]]");
    expect(routes.length).toBeGreaterThanOrEqual(13);
  });

  it("every route module exports all seven methods the framework dispatches (HEAD comes from GET)", () => {
    routes.forEach((r, i) => {
      const missing = ROUTE_METHODS.filter((m) => typeof mods[i][m] !== "function" && !(m === "HEAD" && mods[i].GET));
      expect(missing, r.pattern).toEqual([]);
    });
  });

  it("a known route: 405 with the same Allow as its other wrong methods and its OPTIONS", async () => {
    for (const [i, r] of routes.entries()) {
      if (r.pattern.includes("[...")) continue;
      const url = urlFor(r.pattern);
      const allow = (await call(mods[i], "OPTIONS", url)).headers.get("allow")!.replace(/, OPTIONS$/, "");
      for (const method of ["TRACE", "CONNECT", "PROPFIND", "FOO", "get"]) {
        const res = await call(mods[i], "OPTIONS", url, { [RELAY_HEADER]: `${SECRET} ${method}` });
        expect(res.status, `${method} ${r.pattern}`).toBe(405);
        expect(res.headers.get("allow"), r.pattern).toBe(allow);
        expect(await problemOf(res)).toEqual({
          type: "/docs#problem-method-not-allowed",
          title: "Method not allowed",
          status: 405,
          detail: `${method} is not allowed here; allowed: ${allow}.`,
          instance: new URL(url).pathname,
        });
      }
      const wrong = ROUTE_METHODS.find((m) => m !== "OPTIONS" && m !== "HEAD" && !allow.split(", ").includes(m));
      if (wrong) expect((await call(mods[i], wrong, url)).headers.get("allow"), r.pattern).toBe(allow);
    }
  });

  it("an unknown path: 404 naming the relayed method", async () => {
    for (const [i, r] of routes.entries()) {
      if (!r.pattern.includes("[...")) continue;
      const url = urlFor(r.pattern);
      const res = await call(mods[i], "OPTIONS", url, { [RELAY_HEADER]: `${SECRET} TRACE` });
      expect(await problemOf(res)).toMatchObject({ status: 404, detail: `No endpoint matches TRACE ${new URL(url).pathname}.` });
    }
  });

  it("ignores the header without the server's secret: a client cannot forge it", async () => {
    const i = routes.findIndex((r) => r.pattern === "/v1/openapi.json");
    for (const value of ["wrong TRACE", "TRACE", `${SECRET}x TRACE`, `x${SECRET} TRACE`, `${SECRET}`]) {
      const res = await call(mods[i], "OPTIONS", urlFor("/v1/openapi.json"), { [RELAY_HEADER]: value });
      expect(res.status, value).toBe(204);
    }
    delete process.env[RELAY_SECRET_ENV]; // as under `next dev` or a bare `next start`
    const res = await call(mods[i], "OPTIONS", urlFor("/v1/openapi.json"), { [RELAY_HEADER]: `${SECRET} TRACE` });
    expect(res.status).toBe(204);
    process.env[RELAY_SECRET_ENV] = SECRET;
  });
});

describe("the production server's guard (scripts/method-guard.mjs), over a real socket", () => {
  let server: http.Server;
  let port: number;
  const seen: { method: string; relayed?: string }[] = [];

  beforeAll(async () => {
    process.env[RELAY_SECRET_ENV] = SECRET;
    const openapi = (await import("@/app/v1/openapi.json/route")) as RouteModule;
    const unknown = (await import("@/app/v1/[[...path]]/route")) as RouteModule;
    // Stands in for Next.js: hands the request to the route module its path names.
    const handle = async (req: http.IncomingMessage, res: http.ServerResponse) => {
      seen.push({ method: req.method!, relayed: req.headers[RELAY_HEADER] as string | undefined });
      const url = new URL(req.url!, "http://localhost");
      if (!url.pathname.startsWith("/v1/")) return void res.writeHead(200).end("page");
      const mod = url.pathname === "/v1/openapi.json" ? openapi : unknown;
      const headers = Object.entries(req.headers).map(([k, v]) => [k, String(v)] as [string, string]);
      const answer = await call(mod, req.method!, url.href, Object.fromEntries(headers));
      const body = Buffer.from(await answer.arrayBuffer());
      res.writeHead(answer.status, { ...Object.fromEntries(answer.headers), "content-length": body.length }).end(body);
    };
    const guard = methodGuard(handle, SECRET);
    server = http.createServer(guard.request).on("connect", guard.connect).on("clientError", guard.clientError);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as net.AddressInfo).port;
  });
  afterAll(async () => {
    delete process.env[RELAY_SECRET_ENV];
    await new Promise((resolve) => server.close(resolve));
  });

  /** Writes `text` on a fresh connection; resolves to everything the server sent before closing. */
  const raw = (text: string) =>
    new Promise<string>((resolve) => {
      const s = net.connect(port, "127.0.0.1");
      let got = "";
      s.on("data", (d) => (got += d)).on("close", () => resolve(got)).on("error", () => resolve(got));
      s.end(text);
    });
  const req = (method: string, target: string, extra = "") => `${method} ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n${extra}\r\n`;
  // A status line may follow a body that ends without a newline.
  const statusLines = (got: string) => got.match(/HTTP\/1\.1 \d{3} [^\r\n]*(?=\r\n)/g);

  it.each([
    ["TRACE", "request"],
    ["PROPFIND", "request"],
    ["CONNECT", "CONNECT"],
    ["FOO", "unknown token"],
    ["get", "lowercase"],
  ])("%s (%s) on a known route: 405 ProblemDetails with its Allow", async (method) => {
    const got = await raw(req(method, "/v1/openapi.json"));
    expect(statusLines(got)).toEqual(["HTTP/1.1 405 Method Not Allowed"]);
    expect(got).toMatch(/^allow: GET\r$/im);
    expect(got).toMatch(/^content-type: application\/problem\+json; charset=utf-8\r$/im);
    expect(JSON.parse(got.slice(got.indexOf("\r\n\r\n") + 4))).toEqual({
      type: "/docs#problem-method-not-allowed",
      title: "Method not allowed",
      status: 405,
      detail: `${method} is not allowed here; allowed: GET.`,
      instance: "/v1/openapi.json",
    });
  });

  it.each(["TRACE", "CONNECT", "FOO"])("%s on an unknown API path: 404 ProblemDetails, Accept honoured", async (method) => {
    const got = await raw(req(method, "/v1/no/such", "Accept: text/plain\r\n"));
    expect(statusLines(got)).toEqual(["HTTP/1.1 404 Not Found"]);
    expect(got).toMatch(/^content-type: text\/plain; charset=utf-8\r$/im);
    expect(got).toContain(`"detail":"No endpoint matches ${method} /v1/no/such."`);
  });

  it.each(["TRACE", "PROPFIND", "CONNECT", "FOO"])("%s outside the API: 501 Not Implemented", async (method) => {
    const got = await raw(req(method, "/docs"));
    expect(statusLines(got)).toEqual(["HTTP/1.1 501 Not Implemented"]);
    expect(got).toMatch(/^content-type: text\/plain; charset=utf-8\r$/im);
  });

  it("passes the seven methods through untouched; a relayed one arrives as OPTIONS with the secret", async () => {
    seen.length = 0;
    await raw(req("GET", "/v1/openapi.json", `${RELAY_HEADER}: forged TRACE\r\n`));
    await raw(req("TRACE", "/v1/openapi.json"));
    expect(seen).toEqual([
      { method: "GET", relayed: "forged TRACE" },
      { method: "OPTIONS", relayed: `${SECRET} TRACE` },
    ]);
  });

  it("answers on a kept-alive connection after the response before it, pipelined or not", async () => {
    const keep = (m: string, t: string) => `${m} ${t} HTTP/1.1\r\nHost: x\r\n\r\n`;
    const got = await raw(keep("GET", "/v1/openapi.json") + keep("FOO", "/v1/openapi.json"));
    expect(statusLines(got)).toEqual(["HTTP/1.1 200 OK", "HTTP/1.1 405 Method Not Allowed"]);
    const trace = await raw(keep("TRACE", "/v1/openapi.json") + req("GET", "/v1/nothing"));
    expect(statusLines(trace)).toEqual(["HTTP/1.1 405 Method Not Allowed", "HTTP/1.1 404 Not Found"]);
  });

  it("leaves other unparseable requests to Node's answers", async () => {
    expect(await raw("\x01\x02 nonsense\r\n\r\n")).toBe("HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n");
    const big = await raw(`GET /v1/x HTTP/1.1\r\nHost: x\r\nX: ${"a".repeat(20_000)}\r\n\r\n`);
    expect(big).toBe("HTTP/1.1 431 Request Header Fields Too Large\r\nConnection: close\r\n\r\n");
  });
});

describe("rejectedRequestLine", () => {
  it("reads the method, target and Accept of the request Node's parser rejected", () => {
    const first = "GET /a HTTP/1.1\r\nHost: x\r\n\r\n";
    const packet = Buffer.from(`${first}FOO /v1/b?q=1 HTTP/1.1\r\nHost: x\r\nAccept:  text/json \r\n\r\n`);
    expect(rejectedRequestLine(packet, first.length + 1)).toEqual({ method: "FOO", target: "/v1/b?q=1", accept: "text/json" });
    expect(rejectedRequestLine(Buffer.from("get /v1 HTTP/1.0\r\n\r\n"), 0)).toEqual({ method: "get", target: "/v1", accept: undefined });
  });

  it("gives up on anything that is not a whole request line", () => {
    for (const text of ["FOO /v1/b HTT", "FOO /v1/b\r\n", "F(O /v1 HTTP/1.1\r\n", "FOO  /v1 HTTP/1.1\r\n", "FOO /v1 HTTP/2\r\n"]) {
      expect(rejectedRequestLine(Buffer.from(text), 0), text).toBeUndefined();
    }
    expect(rejectedRequestLine(undefined, 0)).toBeUndefined();
  });
});
