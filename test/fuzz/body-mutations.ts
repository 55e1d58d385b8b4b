import fc from "fast-check";
import { invalidArb, withControlChar } from "./invalid-values";
import { rawNumber } from "./fuzz-request";
import { resolve, type Schema } from "./openapi";
import { isValid } from "./schema-validator";
import { queryScalar as plainDecimal } from "./valid-request";

/**
 * Invalid changes to a valid JSON body, found by walking the body along its schema: any
 * present field (at any depth) made invalid, an absent optional one added invalid, a required
 * one removed, an unknown field added, a bad dictionary key, control characters in a string or
 * a key. Each names the field the service must report, in its notation: `amount`,
 * `metadata.orderId`, `feeTransfers[0].percent`, and `body` for the body as a whole.
 */

type Path = (string | number)[];
type Json = any;

export type BodyChange = {
  what: string;
  field: string;
  /** The change is to a key (unknown field, bad key): naming the parent object is fine too. */
  keyChange: boolean;
  apply: (body: Json) => Json;
};

/** The service's field notation for a path into the body. */
export function fieldName(path: Path): string {
  let out = "";
  for (const p of path) out += typeof p === "number" ? `[${p}]` : out ? `.${p}` : p;
  return out || "body";
}

/** Sets a value at a path of a deep copy; own-property semantics, so `__proto__` is just a key. */
function setAt(root: Json, path: Path, value: Json): Json {
  if (path.length === 0) return value;
  const copy = structuredCloneKeepingKeys(root);
  let node = copy;
  for (const p of path.slice(0, -1)) node = node[p];
  Object.defineProperty(node, path[path.length - 1], { value, enumerable: true, writable: true, configurable: true });
  return copy;
}

function deleteAt(root: Json, path: Path): Json {
  const copy = structuredCloneKeepingKeys(root);
  let node = copy;
  for (const p of path.slice(0, -1)) node = node[p];
  delete node[path[path.length - 1]];
  return copy;
}

/** JSON round trip: keeps an own `__proto__` key as a key (JSON.parse defines, never sets). */
const structuredCloneKeepingKeys = (v: Json): Json => (v === undefined ? undefined : JSON.parse(JSON.stringify(v)));

const short = (v: unknown) => {
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 40 ? `${s.slice(0, 37)}...` : s;
};

const change = (path: Path, what: string, apply: (b: Json) => Json, keyChange = false): BodyChange => ({
  what: `${fieldName(path)}: ${what}`,
  field: fieldName(path),
  keyChange,
  apply,
});

/** Property names a schema does not define: near misses of real ones, and prototype names. */
function unknownNames(known: string[]): fc.Arbitrary<string> {
  const near = known.flatMap((k) => [k.toUpperCase(), k[0].toUpperCase() + k.slice(1), `${k}_`]);
  return fc
    .oneof(
      fc.stringMatching(/^[a-z][a-zA-Z0-9_]{0,15}$/),
      fc.constantFrom("__proto__", "constructor", "toString", "hasOwnProperty", "color", ...near),
    )
    .filter((n) => !known.includes(n));
}

/** For a oneOf/anyOf node, the branch the (valid) value takes: its fields are walked. */
function branchOf(s: Schema, value: Json): Schema {
  const branches: Schema[] = s.oneOf ?? s.anyOf ?? [];
  const found = branches.map((b) => resolve(b)).find((b) => isValid(b, value));
  return found ?? s;
}

/** Every invalid change the schema allows at `path` and below, for the value found there. */
export function bodyChanges(schema: Schema, value: Json, path: Path = []): fc.Arbitrary<BodyChange>[] {
  const node = resolve(schema);
  const out: fc.Arbitrary<BodyChange>[] = [];
  const here = invalidArb(node);
  const s = branchOf(node, value);
  if (here) out.push(here.map((inv) => change(path, `${inv.why}: ${short(inv.value)}`, (b) => setAt(b, path, inv.value))));
  if (typeof value === "number") {
    // Read exactly as written (docs/api.md): digits no double holds are refused, never rounded.
    // Past 17 significant digits the text differs from every double; 0 gets an underflow instead.
    const longer = value === 0 ? "1e-400" : `${plainDecimal(value)}${Number.isInteger(value) ? "." : ""}000000000000000000001`;
    const inexact = fc.constantFrom(longer, "1e400", "-1e400");
    out.push(inexact.map((t) => change(path, `number no double holds exactly: ${t}`, (b) => setAt(b, path, rawNumber(t)))));
  }
  if (typeof value === "string") {
    out.push(withControlChar(value).map((v) => change(path, `control character: ${short(v)}`, (b) => setAt(b, path, v))));
  }
  if (Array.isArray(value)) {
    value.forEach((item, i) => out.push(...bodyChanges(resolve(s.items ?? {}), item, [...path, i])));
  } else if (value && typeof value === "object") {
    const props: Record<string, Schema> = s.properties ?? {};
    const known = Object.keys(props);
    for (const [name, sub] of Object.entries(props)) {
      if (name in value) {
        out.push(...bodyChanges(sub, value[name], [...path, name]));
        continue;
      }
      const inv = invalidArb(sub);
      if (inv) out.push(inv.map((x) => change([...path, name], `added invalid (${x.why}): ${short(x.value)}`, (b) => setAt(b, [...path, name], x.value))));
    }
    for (const name of s.required ?? []) {
      if (name in value) out.push(fc.constant(change([...path, name], "required field missing", (b) => deleteAt(b, [...path, name]))));
    }
    const extra = s.additionalProperties;
    if (extra === false) {
      out.push(unknownNames(known).map((n) => change([...path, n], "unknown field", (b) => setAt(b, [...path, n], "x"), true)));
    } else if (extra && typeof extra === "object") {
      for (const [k, v] of Object.entries(value)) if (!known.includes(k)) out.push(...bodyChanges(extra, v, [...path, k]));
      const badKey = s.propertyNames ? invalidArb({ type: "string", ...resolve(s.propertyNames) }) : undefined;
      if (badKey) {
        out.push(
          badKey
            .filter((inv) => typeof inv.value === "string" && inv.value !== "")
            .map((inv) => change([...path, inv.value as string], `key ${inv.why}`, (b) => setAt(b, [...path, inv.value as string], "x"), true)),
        );
      }
    }
    // A key with a control character: refused whether or not the object takes unknown keys.
    out.push(
      unknownNames(known)
        .chain(withControlChar)
        .map((k) => change([...path, k], `key with a control character: ${short(k)}`, (b) => setAt(b, [...path, k], "x"), true)),
    );
  }
  return out;
}

/** Text that is not JSON, made from a valid body's text. */
export function malformedJson(valid: string): fc.Arbitrary<string> {
  return fc
    .oneof(
      fc.nat({ max: Math.max(0, valid.length - 1) }).map((n) => valid.slice(0, n)),
      fc.constantFrom(`${valid}}`, `${valid},`, valid.replace(/"/g, "'"), `{${valid}`, "{", "nul", "[1,2", '{"a" 1}', "{'a':1}", "NaN", "{\"a\":1,}"),
    )
    .filter((t) => t.trim() !== "" && !parses(t));
}

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** A body nested `depth` levels deep at one field. */
export const deeplyNested = (depth: number) => `{"x":${"[".repeat(depth)}${"]".repeat(depth)}}`;
