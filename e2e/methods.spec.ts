import net from "node:net";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { createPayment, newBusiness } from "./helpers";

/**
 * Issue 28 against the real server: every method on every API route is a ProblemDetails (405 with
 * the route's `Allow`, or 404 off the routes), never the bare 500 a TRACE used to get, and pages
 * answer methods they do not take with 501. Playwright's client sends TRACE, PROPFIND and FOO as
 * they are; CONNECT, TRACK and a lowercase `get` go over a raw socket (its client would upper-case
 * `get` and treat CONNECT as a proxy tunnel; Node's parser rejects TRACK, FOO and `get`).
 */

const PROBLEM_KEYS = ["type", "title", "status", "detail", "instance"];

async function routes(request: APIRequestContext): Promise<string[]> {
  const b = await newBusiness(request);
  const p = await createPayment(request, b, { currency: "USD", amount: 5 });
  const { keyId } = b as typeof b & { keyId: string }; // the admin API's answer carries the first key's id
  const biz = `/v1/businesses/${b.businessId}`;
  const admin = `/admin/v1/businesses/${b.businessId}`;
  return [
    "/v1/openapi.json",
    `${biz}/payments`,
    `${biz}/payments/${p.id}`,
    `${biz}/payments/${p.id}/note`,
    `${biz}/payments/${p.id}/simulate`,
    "/admin/v1/businesses",
    admin,
    `${admin}/api-keys`,
    `${admin}/api-keys/${keyId}`,
    `${admin}/webhook-secret/rotate`,
    `${admin}/webhook-deliveries`,
    `${admin}/webhook-deliveries/1/redeliver`,
  ];
}

/** One request on a fresh connection, written as given; the status, headers and body that come back. */
function raw(baseURL: string, method: string, target: string) {
  const { hostname, port } = new URL(baseURL);
  return new Promise<{ status: number; headers: Record<string, string>; body: string }>((resolve, reject) => {
    const s = net.connect(Number(port), hostname);
    let got = "";
    s.on("data", (d) => (got += d)).on("error", reject);
    s.on("close", () => {
      const [head, body = ""] = got.split("\r\n\r\n");
      const [statusLine, ...lines] = head.split("\r\n");
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]));
      resolve({ status: Number(statusLine.split(" ")[1]), headers, body });
    });
    s.write(`${method} ${target} HTTP/1.1\r\nHost: ${hostname}\r\nConnection: close\r\n\r\n`);
  });
}

function expectProblemShape(contentType: string | undefined, body: Record<string, unknown>, status: number, path: string) {
  expect(contentType).toBe("application/problem+json; charset=utf-8");
  expect(Object.keys(body)).toEqual(PROBLEM_KEYS);
  expect(body.status).toBe(status);
  expect(body.instance).toBe(path);
}

test("methods the framework cannot dispatch get each route's 405 and Allow", async ({ request, baseURL }) => {
  for (const path of await routes(request)) {
    const options = await request.fetch(path, { method: "OPTIONS" });
    expect(options.status(), path).toBe(204);
    const allow = options.headers()["allow"].replace(/, OPTIONS$/, "");
    for (const method of ["TRACE", "PROPFIND", "QUERY", "PURGE", "FOO"]) {
      const res = await request.fetch(path, { method });
      expect(res.status(), `${method} ${path}`).toBe(405);
      expect(res.headers()["allow"], `${method} ${path}`).toBe(allow);
      const body = await res.json();
      expectProblemShape(res.headers()["content-type"], body, 405, path);
      expect(body).toMatchObject({ type: "/docs#problem-method-not-allowed", title: "Method not allowed" });
      expect(body.detail).toBe(`${method} is not allowed here; allowed: ${allow}.`);
    }
    for (const method of ["CONNECT", "TRACK", "get"]) {
      const res = await raw(baseURL!, method, path);
      expect(res.status, `${method} ${path}`).toBe(405);
      expect(res.headers["allow"], `${method} ${path}`).toBe(allow);
      expectProblemShape(res.headers["content-type"], JSON.parse(res.body), 405, path);
    }
  }
});

test("the documented Allow lists", async ({ request }) => {
  const openapi = await request.fetch("/v1/openapi.json", { method: "TRACE" });
  expect(openapi.headers()["allow"]).toBe("GET");
  const b = await newBusiness(request);
  const payments = await request.fetch(`/v1/businesses/${b.businessId}/payments`, { method: "TRACE" });
  expect(payments.headers()["allow"]).toBe("GET, POST");
  // The connection the TRACE used still serves the next request.
  expect((await request.get("/v1/openapi.json")).status()).toBe(200);
});

test("unknown paths under the API prefixes: 404 ProblemDetails for any method", async ({ request, baseURL }) => {
  for (const path of ["/v1/no/such/route", "/admin/v1/whatever", "/v1/businesses/1/nothing", "/v1", "/admin/v1"]) {
    for (const method of ["GET", "POST", "TRACE", "PROPFIND", "FOO"]) {
      const res = await request.fetch(path, { method });
      expect(res.status(), `${method} ${path}`).toBe(404);
      const body = await res.json();
      expectProblemShape(res.headers()["content-type"], body, 404, path);
      expect(body.detail).toBe(`No endpoint matches ${method} ${path}.`);
    }
    for (const method of ["CONNECT", "get"]) {
      const res = await raw(baseURL!, method, path);
      expect(res.status, `${method} ${path}`).toBe(404);
      expectProblemShape(res.headers["content-type"], JSON.parse(res.body), 404, path);
    }
  }
});

test("outside the API, TRACE and other methods nothing takes are 501, never a 500", async ({ request, baseURL }) => {
  for (const path of ["/", "/docs", "/pay/x", "/pay/x/state", "/api/inngest"]) {
    for (const method of ["TRACE", "PROPFIND"]) {
      const res = await request.fetch(path, { method });
      expect(res.status(), `${method} ${path}`).toBe(501);
      expect(res.headers()["content-type"]).toBe("text/plain; charset=utf-8");
    }
    expect((await raw(baseURL!, "CONNECT", path)).status, `CONNECT ${path}`).toBe(501);
  }
  expect((await request.get("/docs")).status()).toBe(200);
});
