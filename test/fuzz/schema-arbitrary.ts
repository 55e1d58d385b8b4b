import fc from "fast-check";
import { examplesOf, resolve, type Schema } from "./openapi";
import { isValid } from "./schema-validator";

/**
 * JSON Schema 2020-12 → fast-check arbitraries of VALID values. Small on purpose: it covers
 * what the document uses (type/enum/const, string length/pattern/format, numeric bounds and
 * multipleOf, arrays, objects with required/additionalProperties/propertyNames, anyOf/oneOf/
 * allOf, nullable). Examples in the document come first: a value starts from an example and
 * varies its fields within their schemas. Every value is checked with ajv before it is used,
 * so a generator shortcut can never pass an invalid value off as valid.
 */

const OMIT = Symbol("omit");

/**
 * The characters of valid text: mostly printable ASCII, then what tends to break servers
 * (quotes, backslash, LIKE wildcards, allowed whitespace, non-ASCII, astral symbols,
 * zero-width and separator characters). Never C0 controls other than tab, LF and CR, nor DEL
 * or C1 controls: the service refuses them in all text (mutations.ts sends them on purpose).
 */
export const textChar: fc.Arbitrary<string> = fc.oneof(
  { weight: 8, arbitrary: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)) },
  {
    weight: 2,
    arbitrary: fc.constantFrom("'", '"', "\\", "%", "_", "\t", "\n", "\r", "é", "ß", "中", "😀", "\u200b", "\u00a0", "\u2028", "\ufeff"),
  },
  {
    weight: 1,
    arbitrary: fc
      .integer({ min: 0xa0, max: 0x10ffff })
      .filter((c) => c < 0xd800 || c > 0xdfff)
      .map((c) => String.fromCodePoint(c)),
  },
);

/** Text of `min`..`max` code points (JSON Schema counts code points, not UTF-16 units). */
export const textOf = (min: number, max: number) => fc.array(textChar, { minLength: min, maxLength: max }).map((a) => a.join(""));

const intIn = (lo: number, hi: number) => fc.bigInt({ min: BigInt(lo), max: BigInt(hi) }).map(Number);

export function typesOf(s: Schema): string[] {
  const types = Array.isArray(s.type) ? [...s.type] : s.type ? [s.type] : [];
  if (s.nullable === true && !types.includes("null")) types.push("null"); // OpenAPI 3.0 style
  return types;
}

/** Inclusive numeric bounds of a schema, with `fallback` where it has none. */
export function numericBounds(s: Schema, integer: boolean, fallback: number) {
  const step = integer ? 1 : Number.EPSILON;
  let lo = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + step : -fallback);
  let hi = s.maximum ?? (s.exclusiveMaximum !== undefined ? s.exclusiveMaximum - step : fallback);
  if (integer) [lo, hi] = [Math.ceil(lo), Math.floor(hi)];
  return { lo, hi };
}

function integerArb(s: Schema): fc.Arbitrary<number> {
  const { lo, hi } = numericBounds(s, true, Number.MAX_SAFE_INTEGER);
  const m = s.multipleOf ?? 1;
  const k = intIn(Math.ceil(lo / m), Math.floor(hi / m)).map((n) => n * m);
  return fc.oneof({ weight: 1, arbitrary: fc.constantFrom(lo, hi) }, { weight: 5, arbitrary: k });
}

function numberArb(s: Schema): fc.Arbitrary<number> {
  if (s.multipleOf) return integerArb({ ...s, multipleOf: s.multipleOf });
  const { lo, hi } = numericBounds(s, false, 1e15);
  // Prices are decimals: two places most of the time, then any double in range, then the bounds.
  const cents = intIn(Math.ceil(lo * 100), Math.floor(Math.min(hi, 1e13) * 100)).map((c) => c / 100);
  const dbl = fc.double({ min: lo, max: s.maximum ?? s.exclusiveMaximum ?? Number.MAX_VALUE, noNaN: true, noDefaultInfinity: true });
  return fc.oneof({ weight: 4, arbitrary: cents }, { weight: 2, arbitrary: dbl }, { weight: 1, arbitrary: fc.constantFrom(lo, hi) });
}

/** A date-time in RFC 3339's shape: any year 0000-9999 (the ends more often), optional fraction, Z or an offset. */
const dateTimeArb = fc
  .record({
    date: fc.oneof(
      { weight: 4, arbitrary: fc.date({ min: new Date("0000-01-01T00:00:00Z"), max: new Date("9999-12-31T23:59:59Z"), noInvalidDate: true }) },
      { weight: 1, arbitrary: fc.constantFrom(...["0000-01-01T00:00:00Z", "1970-01-01T00:00:00Z", "9999-12-31T23:59:59Z"].map((d) => new Date(d))) },
    ),
    fraction: fc.constantFrom("", ".5", ".123", ".123456789"),
    offset: fc.constantFrom("Z", "+00:00", "+05:30", "-08:00", "+14:00"),
  })
  .map(({ date, fraction, offset }) => date.toISOString().slice(0, 19) + fraction + offset);

function formatArb(format: string): fc.Arbitrary<string> | undefined {
  switch (format) {
    case "date-time":
      return dateTimeArb;
    case "date":
      return dateTimeArb.map((d) => d.slice(0, 10));
    case "uuid":
      return fc.uuid();
    case "email":
      return fc.emailAddress();
    case "uri":
    case "url":
      return fc.webUrl({ withQueryParameters: true, withFragments: true });
    case "ipv4":
      return fc.ipV4();
    case "ipv6":
      return fc.ipV6();
    case "hostname":
      return fc.domain();
    default:
      return undefined;
  }
}

/**
 * Strings matching a pattern. fast-check cannot generate from look-arounds, so leading ones
 * (`^(?=[^@]{1,64}@)…`, a length limit on part of the value) are dropped for generating and
 * kept for filtering: the values still match the whole pattern.
 */
function patternArb(pattern: string): fc.Arbitrary<string> {
  const re = new RegExp(pattern, "u");
  const bare = pattern.replace(/^\^(?:\(\?[=!][^()]*\))+/, "^");
  return bare === pattern ? fc.stringMatching(re) : fc.stringMatching(new RegExp(bare, "u")).filter((v) => re.test(v));
}

function stringArb(s: Schema): fc.Arbitrary<string> {
  const min = s.minLength ?? 0;
  // Unbounded: a pattern or a format sets the length itself (64 hex digits is longer than the free-text default).
  const max = s.maxLength ?? (s.pattern !== undefined || s.format ? Infinity : min + 60);
  const len = (v: string) => [...v].length;
  const inLength = (v: string) => len(v) >= min && len(v) <= max;
  const formatted = s.format ? formatArb(s.format) : undefined;
  const patterned = s.pattern !== undefined ? patternArb(s.pattern) : undefined;
  // Both: the format's own generator knows its edge cases, the pattern's is always in shape.
  if (formatted && patterned) {
    const re = new RegExp(s.pattern, "u");
    return fc.oneof(formatted.filter((v) => re.test(v)), patterned).filter(inLength);
  }
  if (formatted || patterned) return (formatted ?? patterned)!.filter(inLength);
  const short = textOf(min, Math.min(max, min + 30));
  // Now and then exactly at the limit, where off-by-one and UTF-16-vs-code-point bugs live.
  return s.maxLength !== undefined ? fc.oneof({ weight: 4, arbitrary: short }, { weight: 1, arbitrary: textOf(max, max) }) : short;
}

function arrayArb(s: Schema): fc.Arbitrary<unknown[]> {
  const items = resolve(s.items ?? {});
  if (s.items === false || (items.not && Object.keys(items.not).length === 0)) return fc.constant([]);
  const minLength = s.minItems ?? 0;
  const maxLength = Math.min(s.maxItems ?? minLength + 5, minLength + 30);
  const item = valueArb(items);
  return s.uniqueItems
    ? fc.uniqueArray(item, { minLength, maxLength, selector: (v) => JSON.stringify(v) })
    : fc.array(item, { minLength, maxLength });
}

/** An object's own properties, each generated or left out (optional ones only). */
function objectArb(s: Schema, base?: Record<string, unknown>): fc.Arbitrary<Record<string, unknown>> {
  const required = new Set<string>(s.required ?? []);
  const fields: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, sub] of Object.entries<Schema>(s.properties ?? {})) {
    const fresh = valueArb(sub);
    const choices: fc.WeightedArbitrary<unknown>[] = [{ weight: 1, arbitrary: fresh }];
    if (base && name in base) choices.push({ weight: 3, arbitrary: fc.constant(base[name]) });
    if (!required.has(name)) choices.push({ weight: base && !(name in base) ? 3 : 1, arbitrary: fc.constant(OMIT) });
    fields[name] = fc.oneof(...choices);
  }
  const extra = s.additionalProperties;
  const extraArb: fc.Arbitrary<Record<string, unknown>> =
    extra && typeof extra === "object"
      ? fc.dictionary(stringArb({ type: "string", ...resolve(s.propertyNames ?? {}) }), valueArb(extra), { maxKeys: 5 })
      : fc.constant({});
  // Extra keys from an example are kept or regenerated, like any other field.
  const baseExtra = base ? Object.fromEntries(Object.entries(base).filter(([k]) => !(k in (s.properties ?? {})))) : {};
  const extraChoice = Object.keys(baseExtra).length ? fc.oneof(fc.constant(baseExtra), extraArb) : extraArb;
  return fc.tuple(fc.record(fields), extraChoice).map(([own, more]) => {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(more)) if (!(k in fields)) out[k] = v;
    for (const [k, v] of Object.entries(own)) if (v !== OMIT) out[k] = v;
    return out;
  });
}

const building = new Set<Schema>();

/** Values of one schema node, before the examples and the final ajv check. */
function generate(s: Schema): fc.Arbitrary<unknown> {
  if (s.const !== undefined) return fc.constant(s.const);
  if (Array.isArray(s.enum)) return fc.constantFrom(...s.enum);
  const branches = s.anyOf ?? s.oneOf;
  if (Array.isArray(branches)) {
    const { anyOf: _a, oneOf: _o, ...rest } = s;
    return fc.oneof(...branches.map((b: Schema) => valueArb({ ...rest, ...resolve(b) })));
  }
  if (Array.isArray(s.allOf)) {
    const { allOf, ...rest } = s;
    return generate(Object.assign({ ...rest }, ...allOf.map((b: Schema) => resolve(b))));
  }
  const types = typesOf(s);
  if (types.length > 1) return fc.oneof(...types.map((type) => generate({ ...s, type, nullable: false })));
  switch (types[0]) {
    case "null":
      return fc.constant(null);
    case "boolean":
      return fc.boolean();
    case "integer":
      return integerArb(s);
    case "number":
      return numberArb(s);
    case "string":
      return stringArb(s);
    case "array":
      return arrayArb(s);
    case "object":
      return objectArb(s);
    default:
      // No type: an object if it describes properties, else any small JSON value.
      if (s.properties || s.additionalProperties) return objectArb(s);
      return fc.oneof(fc.string({ maxLength: 10 }), fc.integer(), fc.boolean(), fc.constant(null));
  }
}

/**
 * Valid values of `schema`, starting from its examples (and `extraExamples`, e.g. a media
 * type's) when it has any: an example as is, an example with some fields varied, or a value
 * generated from the schema alone.
 */
export function valueArb(schema: Schema, extraExamples: unknown[] = []): fc.Arbitrary<unknown> {
  const s = resolve(schema);
  if (building.has(s)) throw new Error("recursive schemas are not supported by the fuzzer's generator");
  building.add(s);
  try {
    const examples = [...extraExamples, ...examplesOf(s)].filter((e) => isValid(s, e));
    const generated = generate(s);
    const choices: fc.WeightedArbitrary<unknown>[] = [{ weight: 1, arbitrary: generated }];
    if (examples.length) {
      const ex = fc.constantFrom(...examples);
      choices.push({ weight: 2, arbitrary: ex });
      const objects = examples.filter((e): e is Record<string, unknown> => !!e && typeof e === "object" && !Array.isArray(e));
      if (objects.length && (s.properties || s.additionalProperties)) {
        choices.push({ weight: 3, arbitrary: fc.constantFrom(...objects).chain((base) => objectArb(s, base)) });
      }
    }
    return fc.oneof(...choices).filter((v) => isValid(s, v));
  } finally {
    building.delete(s);
  }
}
