import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { document, type Schema } from "./openapi";

/**
 * A real JSON Schema 2020-12 validator (ajv) over the document's schemas. The component
 * schemas are registered once under their own id, and every `#/components/schemas/X` reference
 * is pointed there, so any schema of the document compiles with its references resolved.
 */

// ajv-formats is CommonJS with a default export; both interop shapes are handled.
const addFormats = ((addFormatsModule as any).default ?? addFormatsModule) as typeof addFormatsModule;

const COMPONENTS_ID = "https://fuzz.invalid/components";

const ajv = new Ajv2020({ allErrors: true, strict: true, strictTypes: false, validateFormats: true });
// OpenAPI's own keywords that may sit inside its schemas; they assert nothing.
ajv.addVocabulary(["example", "xml", "externalDocs", "discriminator"]);
addFormats(ajv);

/** A deep copy with the document's component references pointed at the registered copy. */
function pointRefs(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(pointRefs);
  if (!node || typeof node !== "object") return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) {
    out[k] =
      k === "$ref" && typeof v === "string" && v.startsWith("#/components/schemas/")
        ? `${COMPONENTS_ID}#/$defs/${v.slice("#/components/schemas/".length)}`
        : pointRefs(v);
  }
  return out;
}

ajv.addSchema({ $id: COMPONENTS_ID, $defs: pointRefs(document.components?.schemas ?? {}) });

// Generators build schema objects on the fly ({ ...s, minimum }), so compiled validators are
// kept by object and by content: the same schema is compiled once.
const byObject = new WeakMap<object, ValidateFunction>();
const byText = new Map<string, ValidateFunction>();

function compile(schema: Schema): ValidateFunction {
  let fn = byObject.get(schema);
  if (fn) return fn;
  const text = JSON.stringify(schema);
  fn = byText.get(text) ?? ajv.compile(pointRefs(schema) as Schema);
  byText.set(text, fn);
  byObject.set(schema, fn);
  return fn;
}

/** Whether `value` is valid against `schema` (a schema object of the document). */
export function isValid(schema: Schema, value: unknown): boolean {
  return compile(schema)(value) as boolean;
}

/** The validation errors of `value` against `schema`, as short readable lines (empty: valid). */
export function schemaErrors(schema: Schema, value: unknown, max = 5): string[] {
  const fn = compile(schema);
  if (fn(value)) return [];
  return (fn.errors ?? []).slice(0, max).map((e: ErrorObject) => `${e.instancePath || "(root)"} ${e.message} ${JSON.stringify(e.params)}`);
}
