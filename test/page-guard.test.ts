import { NextRequest } from "next/server";
import { unstable_doesMiddlewareMatch, unstable_getResponseFromNextConfig } from "next/experimental/testing/server";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "@/lib/config";
import { NOT_PAGES, securePage } from "@/lib/http/page-guard";
import { hstsHeader, NON_PAGE_CSP } from "@/lib/http/security-headers.mjs";
import nextConfig from "@/next.config";
import { config as proxyConfig, proxy } from "@/proxy";
import { expectProblem } from "./helpers";

/**
 * What runs before Next.js renders (proxy.ts, lib/http/page-guard.ts) and the headers
 * next.config.ts adds: each page's nonce-based Content-Security-Policy, the static security
 * headers everywhere, a 400 for an undecodable path wherever it points, and a 403 for a server
 * action from a foreign origin. The browser's side (scripts run under the policy, a foreign frame
 * is refused) is e2e/security-headers.spec.ts.
 */

const BASE = "http://pay.test";
const PAGES = ["/", "/docs", "/metrics-and-more", "/dashboard", "/dashboard/sign-in", "/dashboard/7/payments", "/dashboard/7/payments/export", "/pay/abc", "/pay/abc/", "/nowhere"];
const NOT_PAGE_PATHS = ["/v1", "/v1/businesses/1/payments", "/admin/v1/businesses", "/api/auth/get-session", "/api/inngest", "/pay/abc/state", "/logos/0123abcd", "/_next/static/chunks/a.js", "/bench/noop", "/metrics", "/healthz", "/readyz"];

const call = (path: string, init: ConstructorParameters<typeof NextRequest>[1] = {}) => proxy(new NextRequest(`${BASE}${path}`, init));
const directives = (csp: string) => Object.fromEntries(csp.split(";").map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name, values]));

describe("which requests the proxy sees", () => {
  it.each(PAGES)("the page %s", (path) => {
    expect(unstable_doesMiddlewareMatch({ config: proxyConfig, url: path })).toBe(true);
    expect(NOT_PAGES.test(path)).toBe(false);
  });

  it.each(NOT_PAGE_PATHS)("not %s (it is no page): the API stays off the proxy", (path) => {
    expect(unstable_doesMiddlewareMatch({ config: proxyConfig, url: path })).toBe(false);
    expect(NOT_PAGES.test(path)).toBe(true);
  });

  it.each(["/v1/%ff", "/admin/v1/x%E0%A4%A", "/api/auth/%ff", "/pay/abc/state%ff", "/_next/static/%ff", "/bench/%ff"])("%s: any path with a percent sign", (path) => {
    expect(unstable_doesMiddlewareMatch({ config: proxyConfig, url: path })).toBe(true);
  });
});

describe("security headers", () => {
  it("every page gets a Content-Security-Policy with a fresh nonce, also handed to Next.js on the request", async () => {
    const nonces = new Set<string>();
    for (const path of PAGES) {
      const res = await call(path);
      const csp = res.headers.get("content-security-policy")!;
      const d = directives(csp);
      const nonce = /'nonce-([A-Za-z0-9+/=]+)'/.exec(csp)![1];
      nonces.add(nonce);
      expect(d["script-src"]).toEqual(["'self'", `'nonce-${nonce}'`, "'strict-dynamic'"]);
      expect(d["style-src"]).toEqual(["'self'", `'nonce-${nonce}'`]);
      expect(d["object-src"]).toEqual(["'none'"]);
      expect(d["base-uri"]).toEqual(["'none'"]);
      expect(d["frame-ancestors"]).toEqual(["'none'"]);
      expect(d["upgrade-insecure-requests"]).toBeUndefined(); // PUBLIC_BASE_URL is http here
      // NextResponse.next({ request: { headers } }) passes the request's new headers on this way.
      expect(res.headers.get("x-middleware-request-content-security-policy")).toBe(csp);
    }
    expect(nonces.size).toBe(PAGES.length);
  });

  it("over https the page policy upgrades insecure requests; CHECKOUT_FRAME_ANCESTORS opens the checkout alone to framing", () => {
    const cfg = { publicBaseUrl: "https://pay.example.com", checkoutFrameAncestors: ["https://shop.example.com", "http://localhost:8080"] };
    const checkout = directives(securePage(new NextRequest(`${BASE}/pay/abc`), cfg).headers.get("content-security-policy")!);
    expect(checkout["frame-ancestors"]).toEqual(["https://shop.example.com", "http://localhost:8080"]);
    expect(checkout["upgrade-insecure-requests"]).toEqual([]);
    for (const path of ["/dashboard/sign-in", "/dashboard/7/payments", "/docs", "/"]) {
      const d = directives(securePage(new NextRequest(`${BASE}${path}`), cfg).headers.get("content-security-policy")!);
      expect(d["frame-ancestors"]).toEqual(["'none'"]);
    }
  });

  it("CHECKOUT_FRAME_ANCESTORS takes origins only, normalised", () => {
    const env = (v: string) => ({ DATA_DIR: ":memory:", CHECKOUT_FRAME_ANCESTORS: v }) as unknown as NodeJS.ProcessEnv;
    expect(loadConfig(env("https://Shop.example.com, http://127.0.0.1:8080/")).checkoutFrameAncestors).toEqual(["https://shop.example.com", "http://127.0.0.1:8080"]);
    expect(loadConfig(env("")).checkoutFrameAncestors).toEqual([]);
    for (const bad of ["*", "shop.example.com", "https://shop.example.com/pay", "ftp://shop.example.com", "https://u:p@shop.example.com", "'self'"]) {
      expect(() => loadConfig(env(bad)), bad).toThrow(ConfigError);
    }
  });

  it.each([...PAGES, ...NOT_PAGE_PATHS])("next.config.ts gives %s nosniff, a referrer policy and a permissions policy", async (path) => {
    const res = await unstable_getResponseFromNextConfig({ url: `${BASE}${path}`, nextConfig });
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("referrer-policy")).toBe("same-origin");
    expect(res.headers.get("permissions-policy")).toMatch(/camera=\(\).*geolocation=\(\)/);
  });

  it("next.config.ts gives the responses that are not pages a policy that allows nothing, and leaves pages to the proxy", async () => {
    for (const path of NOT_PAGE_PATHS) {
      const res = await unstable_getResponseFromNextConfig({ url: `${BASE}${path}`, nextConfig });
      expect(res.headers.get("content-security-policy"), path).toBe(NON_PAGE_CSP);
    }
    for (const path of PAGES) {
      const res = await unstable_getResponseFromNextConfig({ url: `${BASE}${path}`, nextConfig });
      expect(res.headers.get("content-security-policy"), path).toBeNull();
    }
  });

  it("HSTS (added by scripts/server.mjs) only when PUBLIC_BASE_URL is https", () => {
    expect(hstsHeader("https://pay.example.com")).toBe("max-age=31536000");
    expect(hstsHeader("HTTPS://pay.example.com")).toBe("max-age=31536000");
    expect(hstsHeader("http://localhost:3000")).toBeUndefined();
    expect(hstsHeader(undefined)).toBeUndefined();
  });
});

describe("a path that cannot be percent-decoded is a 400 wherever it points", () => {
  it.each(["/dashboard/%E0%A4%A", "/pay/%E0%A4%A", "/dashboard/7/payments/%ff", "/%ff", "/docs/%C0%AF", "/pay/abc/state%ff", "/_next/static/%ff"])("%s → a 400 page", async (path) => {
    const res = await call(path);
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(res.headers.get("content-security-policy")).toBe(NON_PAGE_CSP);
    expect(await res.text()).toContain("not valid percent-encoded UTF-8");
  });

  it.each(["/api/auth/%ff", "/api/inngest%E0%A4%A", "/v1/businesses/1/payments/%E0%A4%A", "/admin/v1/%ff"])("%s → a ProblemDetails 400", async (path) => {
    await expectProblem(await call(path), 400);
  });

  it("a path that decodes goes on", async () => {
    expect((await call("/v1/businesses/1/payments/a%20b")).headers.get("x-middleware-next")).toBe("1");
    expect((await call("/pay/a%20b")).headers.get("x-middleware-next")).toBe("1");
  });
});

describe("a server action from another origin is refused with 403, as the framework would (with a 500)", () => {
  const action = (headers: Record<string, string>, contentType = "text/plain;charset=UTF-8") =>
    call("/pay/abc", { method: "POST", headers: { host: "pay.test", "content-type": contentType, ...headers }, body: "[]" });

  it.each([
    ["another site", { "next-action": "7f00", origin: "https://evil.example" }],
    ["another port", { "next-action": "7f00", origin: "http://pay.test:8080" }],
    ["an opaque origin", { "next-action": "7f00", origin: "null" }],
    ["an Origin that is no URL", { "next-action": "7f00", origin: "::" }],
    ["a forwarded host that differs", { "next-action": "7f00", origin: "http://pay.test", "x-forwarded-host": "pay.example.com" }],
  ])("%s → 403", async (_what, headers) => {
    const res = await action(headers);
    expect(res.status).toBe(403);
    expect(await res.text()).toContain("another site");
  });

  it.each(["/dashboard/7/settings", "/dashboard/7/developers", "/dashboard/security", "/dashboard/invite/abc", "/"])("on any page: %s", async (path) => {
    const res = await call(path, { method: "POST", headers: { host: "pay.test", "next-action": "7f00", origin: "https://evil.example" }, body: "[]" });
    expect(res.status).toBe(403);
  });

  it("a multipart form posted without an action id (a form before hydration) too", async () => {
    expect((await action({ origin: "https://evil.example" }, "multipart/form-data; boundary=x")).status).toBe(403);
  });

  it.each([
    ["its own origin", { "next-action": "7f00", origin: "http://pay.test" }],
    ["the host a reverse proxy forwarded", { "next-action": "7f00", origin: "https://pay.example.com", "x-forwarded-host": "pay.example.com, proxy.internal" }],
    ["no Origin at all (not a browser)", { "next-action": "7f00" }],
  ])("%s goes on to the action", async (_what, headers) => {
    const res = await action(headers);
    expect(res.status).toBe(200);
    expect(res.headers.get("x-middleware-next")).toBe("1");
  });

  it("a POST that is no action (a JSON body, no action id) is left to the page", async () => {
    const res = await call("/pay/abc", { method: "POST", headers: { host: "pay.test", origin: "https://evil.example", "content-type": "application/json" }, body: "{}" });
    expect(res.headers.get("x-middleware-next")).toBe("1");
  });
});

describe("a form posted to a page that is not readable form data is a 400, not the framework's 500", () => {
  const post = (contentType: string, body: string, headers: Record<string, string> = {}) =>
    call("/docs", { method: "POST", headers: { host: "pay.test", origin: BASE, "content-type": contentType, ...headers }, body });
  const form = '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--\r\n';

  it.each([
    ["no boundary", "multipart/form-data", form],
    ["an empty boundary", "multipart/form-data; boundary=", form],
    ["a body that is no multipart", "multipart/form-data; boundary=x", "garbage"],
    ["an empty body", "multipart/form-data; boundary=x", ""],
  ])("%s → 400", async (_what, contentType, body) => {
    const res = await post(contentType, body);
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("form data could not be read");
  });

  it("a readable form, and one carrying an action id (the framework reads those itself and answers 400), go on", async () => {
    expect((await post("multipart/form-data; boundary=x", form)).headers.get("x-middleware-next")).toBe("1");
    expect((await post("multipart/form-data", "garbage", { "next-action": "7f00" })).headers.get("x-middleware-next")).toBe("1");
  });
});
