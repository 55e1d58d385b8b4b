import { openApiDocument } from "@/lib/openapi/document";

/**
 * The service's OpenAPI 3.1 document, read the way a client reads it: the fuzzer learns every
 * operation, parameter, body and response from here and from nowhere else.
 */

/** A JSON Schema 2020-12 node as the document holds it. */
export type Schema = Record<string, any>;

export type Parameter = {
  name: string;
  in: "path" | "query" | "header" | "cookie";
  required: boolean;
  schema: Schema;
  /** `style: form, explode: true` arrays repeat the parameter once per value. */
  explode: boolean;
  examples: unknown[];
};

export type RequestBodySpec = {
  required: boolean;
  /** Media types as listed. */
  mediaTypes: string[];
  schema: Schema;
  examples: unknown[];
};

export type ResponseSpec = {
  /** Media type → schema of the body. Empty when the response has no body. */
  content: Record<string, Schema>;
  requiredHeaders: string[];
};

export type SecurityScheme = { name: string; type: string; scheme?: string; bearerFormat?: string };

export type Operation = {
  id: string;
  method: string;
  /** The templated path, e.g. `/v1/businesses/{businessId}/payments`. */
  path: string;
  parameters: Parameter[];
  body?: RequestBodySpec;
  /** Status code (or `4XX`, `default`) → response. */
  responses: Record<string, ResponseSpec>;
  /** The schemes of the operation's first security requirement; empty for a public one. */
  security: SecurityScheme[];
};

export const document = openApiDocument() as unknown as Schema;

export const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;

/** Follows `$ref`s (`#/components/...`) inside the document until a real node is reached. */
export function resolve<T = Schema>(node: any): T {
  let current = node;
  for (let hops = 0; current && typeof current.$ref === "string"; hops++) {
    if (hops > 20 || !current.$ref.startsWith("#/")) throw new Error(`cannot resolve ${current.$ref}`);
    current = current.$ref
      .slice(2)
      .split("/")
      .map((p: string) => p.replace(/~1/g, "/").replace(/~0/g, "~"))
      .reduce((o: any, k: string) => o?.[k], document);
  }
  return current as T;
}

/**
 * Every example a node carries: a schema's `examples` array or `example`, or a parameter's or
 * media type's `examples` map (`{ name: { value } }`) or `example`.
 */
export function examplesOf(node: any): unknown[] {
  if (!node || typeof node !== "object") return [];
  const out: unknown[] = [];
  if (Array.isArray(node.examples)) out.push(...node.examples);
  else if (node.examples && typeof node.examples === "object") {
    for (const ex of Object.values<any>(node.examples)) {
      const e = resolve(ex);
      if (e && "value" in e) out.push(e.value);
    }
  }
  if (node.example !== undefined) out.push(node.example);
  return out;
}

function parameterOf(raw: any): Parameter {
  const p = resolve(raw);
  const schema = p.schema ?? {};
  return {
    name: p.name,
    in: p.in,
    required: p.in === "path" || Boolean(p.required),
    schema,
    // OpenAPI's default for query parameters is style form with explode true.
    explode: p.explode ?? (p.in === "query" && (p.style ?? "form") === "form"),
    examples: [...examplesOf(p), ...examplesOf(resolve(schema))],
  };
}

function responsesOf(raw: Record<string, any>): Record<string, ResponseSpec> {
  const out: Record<string, ResponseSpec> = {};
  for (const [status, r] of Object.entries(raw ?? {})) {
    const res = resolve(r);
    const content: Record<string, Schema> = {};
    for (const [type, media] of Object.entries<any>(res.content ?? {})) content[type] = media.schema ?? {};
    const requiredHeaders = Object.entries<any>(res.headers ?? {})
      .filter(([, h]) => resolve(h).required)
      .map(([name]) => name);
    out[status] = { content, requiredHeaders };
  }
  return out;
}

function securityOf(requirements: any[] | undefined): SecurityScheme[] {
  const first = requirements?.[0] ?? {};
  return Object.keys(first).map((name) => ({ ...resolve(document.components?.securitySchemes?.[name]), name }));
}

/** Every path + method of the document, with path-level parameters merged in. */
export function operations(): Operation[] {
  const ops: Operation[] = [];
  for (const [path, item] of Object.entries<any>(document.paths ?? {})) {
    for (const method of HTTP_METHODS) {
      const op = item[method];
      if (!op) continue;
      const params = new Map<string, Parameter>();
      for (const raw of [...(item.parameters ?? []), ...(op.parameters ?? [])]) {
        const p = parameterOf(raw);
        params.set(`${p.in}:${p.name}`, p);
      }
      let body: RequestBodySpec | undefined;
      if (op.requestBody) {
        const rb = resolve(op.requestBody);
        const media = Object.entries<any>(rb.content ?? {});
        const first = media[0]?.[1] ?? {};
        body = {
          required: Boolean(rb.required),
          mediaTypes: media.map(([type]) => type),
          schema: first.schema ?? {},
          examples: media.flatMap(([, m]) => examplesOf(m)),
        };
      }
      ops.push({
        id: op.operationId ?? `${method} ${path}`,
        method: method.toUpperCase(),
        path,
        parameters: [...params.values()],
        body,
        responses: responsesOf(op.responses),
        security: securityOf(op.security ?? document.security),
      });
    }
  }
  return ops;
}

/** The documented methods of each path, upper-case. */
export function methodsByPath(): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const op of operations()) out.set(op.path, [...(out.get(op.path) ?? []), op.method]);
  return out;
}
