import { readdirSync } from "node:fs";
import path from "node:path";
import { validate, compileErrors } from "@readme/openapi-parser";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import * as openApiRoute from "@/app/v1/openapi.json/route";
import DocsPage from "@/app/docs/page";
import { PROBLEM_TYPES } from "@/lib/http/errors";
import { isJsonMediaType } from "@/lib/http/media";
import {
  ApiKeyInfoSchema,
  BusinessSchema,
  CreatedApiKeySchema,
  CreatedBusinessSchema,
  RevokedApiKeySchema,
  WebhookSecretSchema,
} from "@/lib/openapi/admin";
import { openApiDocument } from "@/lib/openapi/document";
import { WebhookDeliveryListSchema, WebhookDeliverySchema } from "@/lib/openapi/webhooks";
import { adminToken, json, request } from "./helpers";
import { startReceiver } from "./webhooks/support";

const doc = openApiDocument() as any;

// The spec's Payment record fields, in its order.
const PAYMENT_FIELDS = [
  "id", "name", "description", "endAmount", "prePaymentAmount", "currency", "status", "createdAt",
  "expiresAt", "timeline", "customer", "metadata", "selectedPaymentMethod", "platformCryptoCharge",
  "contractCharge", "platformFee", "note", "onBehalfOfBusinessId", "netAmountUsd",
];

const LIST_PARAMS = [
  "PageNumber", "PageSize", "fromTime", "toTime", "statuses", "cryptoCoins", "fromAmount", "toAmount",
  "searchString", "onBehalfOfBusinessId",
];

const resolve = (node: any) => (node?.$ref ? node.$ref.split("/").slice(1).reduce((o: any, k: string) => o[k], doc) : node);

describe("OpenAPI document", () => {
  it("is a valid OpenAPI 3.1 document", async () => {
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info.version).toBe("1.0.0");
    const result = await validate(structuredClone(doc));
    expect(result.valid, compileErrors(result)).toBe(true);
  });

  it("is memoized and names the configured base URL as its server", () => {
    expect(openApiDocument()).toBe(openApiDocument());
    expect(doc.servers).toEqual([{ url: "http://pay.test", description: expect.any(String) }]);
  });

  it("states its licence and the limits every request is held to", () => {
    expect(doc.info.license.name).toMatch(/UNLICENSED/);
    for (const rule of ["64 KB", "32 levels", "control characters", "unpaired surrogates", "Retry-After", "100 requests per second"]) {
      expect(doc.info.description).toContain(rule);
    }
  });

  it("documents every /v1 endpoint of the spec with bearer JWT security", () => {
    const ops = [
      ["post", "/v1/businesses/{businessId}/payments"],
      ["get", "/v1/businesses/{businessId}/payments"],
      ["get", "/v1/businesses/{businessId}/payments/{paymentId}"],
      ["put", "/v1/businesses/{businessId}/payments/{paymentId}/note"],
      ["post", "/v1/businesses/{businessId}/payments/{paymentId}/simulate"],
    ];
    for (const [method, path] of ops) {
      const op = doc.paths[path]?.[method];
      expect(op, `${method} ${path}`).toBeDefined();
      expect(op.security).toEqual([{ bearerAuth: [] }]);
      const business = op.parameters.find((p: any) => p.name === "businessId");
      expect(business).toMatchObject({ in: "path", required: true, schema: { type: "integer", format: "int64" } });
      if (path.includes("{paymentId}")) {
        expect(op.parameters.find((p: any) => p.name === "paymentId")).toMatchObject({
          in: "path",
          required: true,
          schema: { type: "string", format: "uuid" },
        });
      }
      for (const status of ["400", "401", "403", "429"]) {
        const res = resolve(op.responses[status]);
        expect(Object.keys(res.content)).toEqual(
          expect.arrayContaining(["application/problem+json", "application/json", "text/json", "text/plain"]),
        );
        expect(res.content["application/problem+json"].schema).toEqual({ $ref: "#/components/schemas/ProblemDetails" });
      }
      const ok = op.responses["200"].content;
      expect(Object.keys(ok).sort()).toEqual(["application/json", "text/json", "text/plain"]);
      const envelope = resolve(ok["application/json"].schema);
      expect(envelope.required).toEqual(["data", "message", "errors"]);
      expect(envelope.properties.message).toEqual({ type: "null", description: expect.any(String) });
    }
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer", bearerFormat: "JWT" });
  });

  it("lists every request body under concrete media types the server reads, and names the +json family", () => {
    const bodies = Object.values(doc.paths).flatMap((item: any) => Object.values(item).map((op: any) => op.requestBody).filter(Boolean));
    expect(bodies.length).toBeGreaterThan(0);
    for (const body of bodies) {
      // A range (`application/*+json`) is no Content-Type: a client sending it as listed got a 415.
      expect(Object.keys(body.content)).toEqual(["application/json", "text/json"]);
      for (const type of Object.keys(body.content)) expect(isJsonMediaType(type), type).toBe(true);
      expect(body.description).toContain("`application/<name>+json`");
    }
  });

  it("lists the query parameters of the list endpoint, with repeatable arrays", () => {
    const params = doc.paths["/v1/businesses/{businessId}/payments"].get.parameters.filter((p: any) => p.in === "query");
    expect(params.map((p: any) => p.name)).toEqual(LIST_PARAMS);
    const statuses = params.find((p: any) => p.name === "statuses");
    expect(statuses).toMatchObject({ style: "form", explode: true, schema: { type: "array" } });
    expect(resolve(statuses.schema.items).enum).toContain("COMPLETED");
  });

  it("documents the optional Idempotency-Key header on create", () => {
    const header = doc.paths["/v1/businesses/{businessId}/payments"].post.parameters.find((p: any) => p.in === "header");
    expect(header).toMatchObject({ name: "Idempotency-Key", schema: { type: "string", maxLength: 255 } });
    expect(header.required).toBeFalsy();
  });

  it("describes the Payment record with exactly the spec's fields and no others", () => {
    const payment = doc.components.schemas.Payment;
    expect(payment.additionalProperties).toBe(false);
    expect(Object.keys(payment.properties)).toEqual(PAYMENT_FIELDS);
  });

  it("has a ProblemDetails schema with the field-errors map", () => {
    const problem = doc.components.schemas.ProblemDetails;
    expect(Object.keys(problem.properties)).toEqual(["type", "title", "status", "detail", "instance", "errors"]);
    expect(problem.properties.errors.additionalProperties).toEqual({ type: "array", items: { type: "string" } });
  });

  it("documents the admin API under its own tag and security scheme", () => {
    const adminOps = Object.entries(doc.paths)
      .filter(([path]) => path.startsWith("/admin/v1/"))
      .flatMap(([, item]: [string, any]) => Object.values(item) as any[]);
    expect(adminOps).toHaveLength(25);
    for (const op of adminOps) {
      expect(op.tags).toEqual(["Admin"]);
      expect(op.security).toEqual([{ adminBearer: [] }]);
      expect(resolve(op.responses["403"]).description).toContain("admin-disabled");
    }
    expect(doc.components.securitySchemes.adminBearer).toMatchObject({ type: "http", scheme: "bearer" });
  });
});

const APP = path.resolve(import.meta.dirname, "../app");
// Route files that are no API operation: the Inngest endpoint, the dashboard's sign-in endpoints (Better Auth), the benchmark's no-op route and
// the checkout page's own polling endpoint, the checkout's logos (images at the Business's `logoUrl`), and the operator's health checks and
// metrics (docs/monitoring.md). Catch-all routes (`[[...path]]`) only answer 404.
const NOT_API = ["api/inngest", "api/auth/[...all]", "bench/noop", "pay/[paymentId]/state", "logos/[sha256]", "healthz", "readyz", "metrics"];
const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

function routeDirs(dir = APP): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return routeDirs(full);
    return e.name === "route.ts" ? [path.relative(APP, dir).split(path.sep).join("/")] : [];
  });
}

describe("route coverage", () => {
  it("documents every method every API route file implements, and nothing else", async () => {
    const dirs = routeDirs();
    for (const skipped of NOT_API) expect(dirs, "stale NOT_API entry").toContain(skipped);
    const implemented: string[] = [];
    // The dashboard's routes (a CSV download) serve signed-in browsers, not API clients.
    const api = (d: string) => !NOT_API.includes(d) && !d.startsWith("dashboard/") && !d.split("/").some((s) => s.includes("..."));
    for (const dir of dirs.filter(api)) {
      const mod = await import(path.join(APP, dir, "route.ts"));
      const exported = METHODS.filter((m) => typeof mod[m] === "function");
      // otherMethods() answers OPTIONS with the methods the route implements; without it, every export is one.
      const options: Response | undefined = await mod.OPTIONS?.(new Request(`http://localhost/${dir}`, { method: "OPTIONS" }), {
        params: Promise.resolve({}),
      });
      const allow = options?.headers.get("allow")?.split(",").map((m) => m.trim()).filter((m) => m !== "OPTIONS");
      const methods = allow ?? exported.filter((m) => m !== "HEAD");
      for (const m of methods) expect(exported, `${dir} allows ${m} but does not export it`).toContain(m);
      const docPath = `/${dir.replace(/\[([^\]]+)\]/g, "{$1}")}`;
      for (const m of methods) {
        expect(doc.paths[docPath]?.[m.toLowerCase()], `${m} ${docPath} is not in the OpenAPI document`).toBeDefined();
        implemented.push(`${m.toLowerCase()} ${docPath}`);
      }
    }
    const documented = Object.entries(doc.paths).flatMap(([p, item]: [string, any]) => Object.keys(item).map((m) => `${m} ${p}`));
    expect(documented.sort()).toEqual(implemented.sort());
  });
});

describe("GET /v1/openapi.json", () => {
  it("serves the document as JSON without authentication", async () => {
    const res = await openApiRoute.GET();
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await res.json()).toEqual(JSON.parse(JSON.stringify(doc)));
  });

  it("answers other methods with a 405 ProblemDetails", async () => {
    const req = new Request("http://localhost:3000/v1/openapi.json", { method: "POST" });
    const res = await openApiRoute.POST!(req, { params: Promise.resolve({}) });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET");
  });
});

describe("admin response schemas", () => {
  it("match what the admin API returns", async () => {
    const auth = { key: adminToken() };
    const created = (await json(await request("POST", "/admin/v1/businesses", { ...auth, body: { name: "Docs Ltd" } }))).data;
    CreatedBusinessSchema.parse(created);
    const id = created.businessId;
    BusinessSchema.parse((await json(await request("GET", `/admin/v1/businesses/${id}`, auth))).data);
    const key = (await json(await request("POST", `/admin/v1/businesses/${id}/api-keys`, { ...auth, body: {} }))).data;
    CreatedApiKeySchema.parse(key);
    const list = (await json(await request("GET", `/admin/v1/businesses/${id}/api-keys`, auth))).data;
    for (const k of list) ApiKeyInfoSchema.parse(k);
    const revoked = await request("DELETE", `/admin/v1/businesses/${id}/api-keys/${key.keyId}`, auth);
    RevokedApiKeySchema.parse((await json(revoked)).data);
    const rotated = await request("POST", `/admin/v1/businesses/${id}/webhook-secret/rotate`, auth);
    WebhookSecretSchema.parse((await json(rotated)).data);
  });

  it("match the webhook delivery log and a redelivery", async () => {
    const auth = { key: adminToken() };
    const receiver = await startReceiver();
    try {
      const body = { name: "Hooks Ltd", webhookUrl: receiver.url };
      const b = (await json(await request("POST", "/admin/v1/businesses", { ...auth, body }))).data;
      const pay = (await json(await request("POST", `/v1/businesses/${b.businessId}/payments`, { key: b.apiKey, body: { currency: "USD", amount: 20 } }))).data;
      for (const action of [{ action: "select", coin: "ETH_TETHER" }, { action: "pay", confirmations: 1 }, { action: "confirm" }]) {
        const res = await request("POST", `/v1/businesses/${b.businessId}/payments/${pay.id}/simulate`, { key: b.apiKey, body: action });
        expect(res.status).toBe(200);
      }
      const res = await request("GET", `/admin/v1/businesses/${b.businessId}/webhook-deliveries?PageSize=100`, auth);
      expect(res.status).toBe(200);
      const list = WebhookDeliveryListSchema.parse((await json(res)).data);
      expect(list.items.map((d) => d.eventType)).toContain("PAYMENT_COMPLETED");
      expect(list.items.some((d) => d.payload.ForPaymentEvents.PlatformCryptoCharge?.Transaction)).toBe(true);
      // Another process's scheduler may be attempting the delivery at this moment (a shared database): 409, then retry.
      let again: Response;
      for (let i = 0; ; i++) {
        again = await request("POST", `/admin/v1/businesses/${b.businessId}/webhook-deliveries/${list.items[0].deliveryId}/redeliver`, auth);
        if (again.status !== 409 || i === 20) break;
        await new Promise((r) => setTimeout(r, 250));
      }
      expect(again.status).toBe(200);
      const delivered = WebhookDeliverySchema.parse((await json(again)).data);
      expect(delivered.attempts.at(-1)).toMatchObject({ succeeded: true, statusCode: 200, error: null });
    } finally {
      await receiver.close();
    }
  });
});

describe("/docs page", () => {
  it("renders every endpoint and an anchor for every problem type", async () => {
    const html = renderToString(await DocsPage());
    for (const code of Object.keys(PROBLEM_TYPES)) expect(html).toContain(`id="problem-${code}"`);
    for (const [path, item] of Object.entries(doc.paths) as [string, any][]) {
      expect(html).toContain(path);
      for (const op of Object.values(item) as any[]) expect(html).toContain(`id="op-${op.operationId}"`);
    }
    // Request examples and the simulator's variants are shown.
    expect(html).toContain("Order #1042");
    expect(html).toContain("A partial transfer (whole coins) with one confirmation");
    expect(html).toContain('href="/v1/openapi.json"');
    expect(html).toContain('id="authentication"');
    expect(html).toContain('id="schema-Payment"');
    // Fully offline: nothing loaded from another origin.
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
  });
});
