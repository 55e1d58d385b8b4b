/**
 * Small helpers over the generated OpenAPI document (plain JSON) for the /docs page:
 * `$ref` resolution, a field list of an object schema and its constraints in words.
 */
export type Json = Record<string, any>;

export const HTTP_METHODS = ["get", "post", "put", "patch", "delete"] as const;

/** Follows a local `$ref` ("#/components/schemas/Payment") to its target, repeatedly. */
export function resolve(doc: Json, node: Json | undefined): Json {
  let cur: Json = node ?? {};
  for (let i = 0; i < 10 && typeof cur.$ref === "string"; i++) {
    const target = cur.$ref
      .replace(/^#\//, "")
      .split("/")
      .reduce((o: Json | undefined, key: string) => o?.[key.replace(/~1/g, "/").replace(/~0/g, "~")], doc);
    if (!target) break;
    cur = target;
  }
  return cur;
}

/** "Payment" for `{ $ref: "#/components/schemas/Payment" }`. */
export const refName = (node: Json | undefined): string | undefined =>
  typeof node?.$ref === "string" ? node.$ref.split("/").pop() : undefined;

export type FieldRow = { name: string; schema: Json; required: boolean };

/**
 * The fields of an object schema; inline nested objects (and arrays of them) are expanded
 * with dotted names, referenced component schemas are not (they are linked instead).
 */
export function fieldRows(doc: Json, node: Json, prefix = "", depth = 0): FieldRow[] {
  const schema = node.$ref ? resolve(doc, node) : node;
  const props: Json = schema.properties ?? {};
  const required = new Set<string>(schema.required ?? []);
  const rows: FieldRow[] = [];
  for (const [key, child] of Object.entries(props) as [string, Json][]) {
    const name = prefix + key;
    rows.push({ name, schema: child, required: required.has(key) });
    if (depth >= 3 || child.$ref) continue;
    if (child.type === "object" && child.properties) rows.push(...fieldRows(doc, child, `${name}.`, depth + 1));
    const items = child.items;
    if (child.type === "array" && items && !items.$ref && items.type === "object" && items.properties) {
      rows.push(...fieldRows(doc, items, `${name}[].`, depth + 1));
    }
  }
  return rows;
}

const LONG_ENUM = 6;

/** Validation rules of a schema in words: "≥ 0.5", "≤ 200 chars", "one of: …", "default 20". */
export function constraints(schema: Json): string[] {
  const out: string[] = [];
  const s = schema;
  if (s.format) out.push(`format: ${s.format}`);
  if (s.minimum !== undefined && s.minimum !== -Number.MAX_SAFE_INTEGER) out.push(`≥ ${s.minimum}`);
  if (s.exclusiveMinimum !== undefined) out.push(`> ${s.exclusiveMinimum}`);
  if (s.maximum !== undefined && s.maximum !== Number.MAX_SAFE_INTEGER) out.push(`≤ ${s.maximum}`);
  if (s.exclusiveMaximum !== undefined) out.push(`< ${s.exclusiveMaximum}`);
  if (s.minLength !== undefined && s.minLength > 0) out.push(`at least ${s.minLength} chars`);
  if (s.maxLength !== undefined) out.push(`at most ${s.maxLength} chars`);
  if (s.minItems !== undefined && s.minItems > 0) out.push(`at least ${s.minItems} items`);
  if (s.maxItems !== undefined) out.push(`at most ${s.maxItems} items`);
  // Formats (date-time, uuid, email) carry long generated patterns: the format says it better.
  if (s.pattern && !s.format) out.push(`pattern: ${s.pattern}`);
  if (Array.isArray(s.enum) && s.enum.length > LONG_ENUM) out.push(`one of: ${s.enum.join(", ")}`);
  if (s.const !== undefined) out.push(`exactly ${JSON.stringify(s.const)}`);
  if (s.minProperties > 0) out.push(`at least ${s.minProperties} keys`);
  if (s.maxProperties !== undefined) out.push(`at most ${s.maxProperties} keys`);
  if (s.propertyNames) {
    const keys = constraints(s.propertyNames);
    if (s.propertyNames.not?.const !== undefined) keys.push(`not ${JSON.stringify(s.propertyNames.not.const)}`);
    if (keys.length) out.push(`each key: ${keys.join(", ")}`);
  }
  if (s.additionalProperties && typeof s.additionalProperties === "object" && !s.properties && !s.additionalProperties.$ref) {
    const values = constraints(s.additionalProperties);
    if (values.length) out.push(`each value: ${values.join(", ")}`);
  }
  if (s.default !== undefined) out.push(`default: ${JSON.stringify(s.default)}`);
  if (s.type === "array" && s.items && !s.items.$ref) {
    const inner = constraints(s.items).filter((c) => !c.startsWith("default"));
    if (inner.length) out.push(`each item: ${inner.join(", ")}`);
  }
  for (const alt of (s.anyOf ?? s.oneOf ?? []) as Json[]) {
    if (alt.type !== "null") out.push(...constraints(alt));
  }
  return out;
}

export const isShortEnum = (s: Json) => Array.isArray(s.enum) && s.enum.length <= LONG_ENUM;
