import { document, examplesOf, HTTP_METHODS, resolve, type Schema } from "./openapi";
import { schemaErrors } from "./schema-validator";

/**
 * The fuzzer starts valid requests from the document's examples, so an example its own schema
 * refuses is a document bug (and would silently be skipped by the generator). Lists every
 * example of a schema, parameter or media type that does not validate, with where it is.
 */
export function documentExampleProblems(): string[] {
  const problems: string[] = [];
  const check = (where: string, schema: Schema | undefined, node: unknown) => {
    if (!schema) return;
    for (const ex of examplesOf(node)) {
      const errors = schemaErrors(schema, ex);
      if (errors.length) problems.push(`${where}: example ${JSON.stringify(ex)} is invalid: ${errors.join("; ")}`);
    }
  };
  const walk = (where: string, node: any) => {
    if (!node || typeof node !== "object") return;
    if (Array.isArray(node)) return node.forEach((n, i) => walk(`${where}[${i}]`, n));
    if (typeof node.type === "string" || Array.isArray(node.type) || node.anyOf || node.oneOf || node.enum) check(where, node, node);
    for (const [k, v] of Object.entries(node)) if (k !== "example" && k !== "examples") walk(`${where}/${k}`, v);
  };
  walk("#/components/schemas", document.components?.schemas);
  for (const [path, item] of Object.entries<any>(document.paths ?? {})) {
    for (const method of HTTP_METHODS) {
      const op = item[method];
      if (!op) continue;
      for (const raw of op.parameters ?? []) {
        const p = resolve(raw);
        check(`${method.toUpperCase()} ${path} parameter ${p.name}`, p.schema, p);
        walk(`${method.toUpperCase()} ${path} parameter ${p.name} schema`, p.schema);
      }
      for (const [type, media] of Object.entries<any>(resolve(op.requestBody)?.content ?? {})) {
        check(`${method.toUpperCase()} ${path} request ${type}`, media.schema, media);
      }
    }
  }
  return problems;
}
