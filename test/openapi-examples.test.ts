import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { describe, expect, it } from "vitest";
import { openApiDocument } from "@/lib/openapi/document";
import { adminToken, json, request } from "./helpers";

/**
 * Every example of the OpenAPI document is valid against its own schema (JSON Schema 2020-12,
 * ajv in strict mode), and the request examples work against the real server: a client that
 * knows only the document can create a business, a key and a payment, and drive it.
 */
const doc = openApiDocument() as any;

// ajv-formats is CommonJS with a default export; both interop shapes are handled.
const addFormats = ((addFormatsModule as any).default ?? addFormatsModule) as typeof addFormatsModule;
const COMPONENTS = "https://openapi.invalid/components";
const ajv = new Ajv2020({ allErrors: true, strict: true, strictTypes: false });
addFormats(ajv);

/** A copy whose `#/components/schemas/X` references point at the components registered below. */
function pointRefs(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(pointRefs);
  if (!node || typeof node !== "object") return node;
  return Object.fromEntries(
    Object.entries(node).map(([k, v]) => [
      k,
      k === "$ref" && typeof v === "string" ? v.replace("#/components/schemas/", `${COMPONENTS}#/$defs/`) : pointRefs(v),
    ]),
  );
}
ajv.addSchema({ $id: COMPONENTS, $defs: pointRefs(doc.components.schemas) as object });

const compiled = new Map<object, ValidateFunction>();
function errorsOf(schema: object, value: unknown): string {
  let fn = compiled.get(schema);
  if (!fn) compiled.set(schema, (fn = ajv.compile(pointRefs(schema) as object)));
  return fn(value) ? "" : ajv.errorsText(fn.errors);
}

const SUBSCHEMAS = ["items", "additionalProperties", "propertyNames", "not", "contains"];
const SCHEMA_LISTS = ["anyOf", "oneOf", "allOf", "prefixItems"];

/** Every schema node under `schema` (itself included), with where it sits. */
function* schemaNodes(schema: any, at: string): Generator<[string, any]> {
  if (!schema || typeof schema !== "object") return;
  yield [at, schema];
  for (const [k, v] of Object.entries<any>(schema.properties ?? {})) yield* schemaNodes(v, `${at}.properties.${k}`);
  for (const k of SUBSCHEMAS) if (typeof schema[k] === "object") yield* schemaNodes(schema[k], `${at}.${k}`);
  for (const k of SCHEMA_LISTS) for (const [i, v] of (schema[k] ?? []).entries()) yield* schemaNodes(v, `${at}.${k}[${i}]`);
}

type Op = { method: string; path: string; op: any };
const ops: Op[] = Object.entries<any>(doc.paths).flatMap(([path, item]) =>
  Object.entries<any>(item).map(([method, op]) => ({ method, path, op })),
);
const opById = (id: string) => ops.find((o) => o.op.operationId === id)!;

/** Every schema of the document: components, parameters, bodies, response bodies and headers. */
function* allSchemas(): Generator<[string, any]> {
  for (const [name, s] of Object.entries<any>(doc.components.schemas)) yield* schemaNodes(s, name);
  for (const { method, path, op } of ops) {
    for (const p of op.parameters ?? []) yield* schemaNodes(p.schema, `${method} ${path} ${p.name}`);
    for (const [t, m] of Object.entries<any>(op.requestBody?.content ?? {})) yield* schemaNodes(m.schema, `${method} ${path} body ${t}`);
  }
  for (const r of Object.values<any>(doc.components.responses ?? {})) {
    for (const [h, header] of Object.entries<any>(r.headers ?? {})) yield* schemaNodes(header.schema, `header ${h}`);
  }
}

describe("the document's examples", () => {
  it("give every parameter a description and an example valid against its schema", () => {
    for (const { method, path, op } of ops) {
      for (const p of op.parameters ?? []) {
        const where = `${method} ${path} ${p.in} ${p.name}`;
        expect(p.description, where).toBeTruthy();
        expect(p.example, where).toBeDefined();
        expect(errorsOf(p.schema, p.example), where).toBe("");
      }
    }
  });

  it("give every request body an example, in every media type, valid against its schema", () => {
    for (const { method, path, op } of ops.filter((o) => o.op.requestBody)) {
      for (const [type, media] of Object.entries<any>(op.requestBody.content)) {
        const values = media.example !== undefined ? [media.example] : Object.values<any>(media.examples ?? {}).map((e) => e.value);
        expect(values.length, `${method} ${path} ${type}`).toBeGreaterThan(0);
        for (const v of values) expect(errorsOf(media.schema, v), `${method} ${path} ${type} ${JSON.stringify(v)}`).toBe("");
      }
    }
  });

  it("are JSON Schema `examples` inside schemas (never the deprecated `example`), each valid", () => {
    let checked = 0;
    for (const [where, node] of allSchemas()) {
      expect(node.example, `${where} uses the deprecated example keyword`).toBeUndefined();
      for (const ex of node.examples ?? []) {
        expect(errorsOf(node, ex), `${where}: ${JSON.stringify(ex)}`).toBe("");
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(20);
  });

  it("describe the limits a schema can state as JSON Schema keywords", () => {
    const s = doc.components.schemas;
    expect(s.Metadata).toMatchObject({ maxProperties: 50, propertyNames: { minLength: 1, maxLength: 40 }, additionalProperties: { maxLength: 500 } });
    expect(s.CreatePaymentRequest.properties.amount).toMatchObject({ minimum: 0.5, maximum: 1_000_000_000 });
    expect(s.CreatePaymentRequest.properties.feeTransfers).toMatchObject({ maxItems: 10 });
    expect(s.CreatePaymentRequest.properties.currency.anyOf[0].enum).toEqual(expect.arrayContaining(["EUR", "USD", "JPY"]));
    expect(s.CreatePaymentRequest.properties.currency.anyOf[0].enum).not.toContain("XAU");
    expect(s.CreatePaymentRequest.properties.currency.description).toMatch(/XAU.*refused/);
    expect(JSON.stringify(doc)).not.toMatch(/not (an )?ISO 4217/i);
  });
});

/** The operation's path with `values` for its path parameters (the document's examples otherwise). */
function pathOf({ path, op }: Op, values: Record<string, string | number> = {}, query = false): string {
  const filled = path.replace(/\{(\w+)\}/g, (_, name) => {
    const p = op.parameters.find((x: any) => x.in === "path" && x.name === name);
    return encodeURIComponent(String(values[name] ?? p.example));
  });
  if (!query) return filled;
  const qs = new URLSearchParams();
  for (const p of op.parameters.filter((x: any) => x.in === "query")) {
    for (const v of [p.example].flat()) qs.append(p.name, String(v));
  }
  return `${filled}?${qs}`;
}

/** The example body of an operation (all its media types carry the same), or the named one. */
function bodyOf({ op }: Op, name?: string): unknown {
  const media = Object.values<any>(op.requestBody.content);
  for (const m of media) expect(m.example ?? m.examples).toEqual(media[0].example ?? media[0].examples);
  return name ? media[0].examples[name].value : media[0].example;
}

describe("the request examples against the real server", () => {
  it("create a business, change it, issue a key, create a payment, set its note and drive its chain", async () => {
    const admin = { key: adminToken() };
    const createBusiness = opById("adminCreateBusiness");
    let res = await request("POST", pathOf(createBusiness), { ...admin, body: bodyOf(createBusiness) });
    expect(res.status, await res.clone().text()).toBe(201);
    const business = (await json(res)).data;
    const ids = { businessId: business.businessId };

    const patch = opById("adminPatchBusiness");
    res = await request("PATCH", pathOf(patch, ids), { ...admin, body: bodyOf(patch) });
    expect(res.status, await res.clone().text()).toBe(200);

    const createKey = opById("adminCreateApiKey");
    res = await request("POST", pathOf(createKey, ids), { ...admin, body: bodyOf(createKey) });
    expect(res.status, await res.clone().text()).toBe(201);
    const key = (await json(res)).data.apiKey as string;

    const create = opById("createPayment");
    const idempotency = create.op.parameters.find((p: any) => p.name === "Idempotency-Key").example;
    res = await request("POST", pathOf(create, ids), { key, body: bodyOf(create), headers: { "Idempotency-Key": idempotency } });
    expect(res.status, await res.clone().text()).toBe(200);
    const paymentId = (await json(res)).data.id as string;
    const payment = { ...ids, paymentId };

    const note = opById("updatePaymentNote");
    res = await request("PUT", pathOf(note, payment), { key, body: bodyOf(note) });
    expect(res.status, await res.clone().text()).toBe(200);
    expect((await json(res)).data.note).toBe((bodyOf(note) as any).note);

    const simulate = opById("simulatePayment");
    for (const action of ["select", "payPart", "pay", "confirm"]) {
      res = await request("POST", pathOf(simulate, payment), { key, body: bodyOf(simulate, action) });
      expect(res.status, `${action}: ${await res.clone().text()}`).toBe(200);
    }
    expect((await json(res)).data.status).toBe("COMPLETED");

    // `fail` drops the transfers of another payment, made from the same examples.
    res = await request("POST", pathOf(create, ids), { key, body: { ...(bodyOf(create) as object), name: "Second" } });
    const second = { ...ids, paymentId: (await json(res)).data.id };
    for (const action of ["select", "pay", "fail"]) {
      res = await request("POST", pathOf(simulate, second), { key, body: bodyOf(simulate, action) });
      expect(res.status, `${action}: ${await res.clone().text()}`).toBe(200);
    }
  });

  it("read with every query parameter example at once", async () => {
    const admin = { key: adminToken() };
    const business = (await json(await request("POST", "/admin/v1/businesses", { ...admin, body: { name: "Query examples" } }))).data;
    const ids = { businessId: business.businessId };
    let res = await request("GET", pathOf(opById("listPayments"), ids, true), { key: business.apiKey });
    expect(res.status, await res.clone().text()).toBe(200);
    res = await request("GET", pathOf(opById("adminListWebhookDeliveries"), ids, true), admin);
    expect(res.status, await res.clone().text()).toBe(200);
  });
});
