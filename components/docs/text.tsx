import { Fragment, type ReactNode } from "react";
import { PROBLEM_CODES } from "@/lib/openapi/problems";
import { isShortEnum, refName, type Json } from "./schema";

const codeClass = "rounded bg-slate-100 px-1 py-0.5 font-mono text-[0.85em] text-slate-800";

/**
 * A link in running text: blue and underlined, so it is told from the text around it by more
 * than colour (WCAG 1.4.1); a thicker underline on hover.
 */
export const link = "text-blue-700 underline underline-offset-2 hover:decoration-2";

export function Code({ children }: { children: ReactNode }) {
  return <code className={codeClass}>{children}</code>;
}

const problemCodes = new Set<string>(PROBLEM_CODES);

/** Plain text whose line breaks stay line breaks (a blank line separates paragraphs). */
function Lines({ text }: { text: string }) {
  return text.split("\n").map((line, i) => (
    <Fragment key={i}>
      {i > 0 && <br />}
      {line}
    </Fragment>
  ));
}

/** Description text with `inline code`; a problem-type code links to its entry under Errors. */
export function Text({ text }: { text?: string }) {
  if (!text) return null;
  return (
    <>
      {text.split("`").map((part, i) => {
        if (i % 2 === 0) return <Lines key={i} text={part} />;
        if (problemCodes.has(part)) {
          return (
            <a key={i} href={`#problem-${part}`} className={link}>
              <Code>{part}</Code>
            </a>
          );
        }
        return <Code key={i}>{part}</Code>;
      })}
    </>
  );
}

export function SchemaLink({ name }: { name: string }) {
  return (
    <a href={`#schema-${name}`} className={`font-mono ${link}`}>
      {name}
    </a>
  );
}

function join(nodes: ReactNode[], sep: string) {
  return nodes.map((n, i) => (
    <Fragment key={i}>
      {i > 0 && sep}
      {n}
    </Fragment>
  ));
}

/** A schema's type in a few words: `string | null`, `Payment[]`, `map<string, string>`. */
export function TypeLabel({ schema }: { schema: Json | undefined }): ReactNode {
  if (!schema) return "any";
  const ref = refName(schema);
  if (ref) return <SchemaLink name={ref} />;
  const alts: Json[] | undefined = schema.anyOf ?? schema.oneOf;
  if (alts) {
    // `string (ipv4) | string (ipv6)` reads as `string`: the constraints list the formats.
    const seen = new Set<string>();
    const distinct = alts.filter((a) => {
      const key = a.$ref ?? (a.enum || a.items || a.properties ? JSON.stringify(a) : JSON.stringify(a.type));
      return !seen.has(key) && seen.add(key);
    });
    return join(distinct.map((a, i) => <TypeLabel key={i} schema={a} />), " | ");
  }
  if (schema.not && Object.keys(schema.not).length === 0) return "never";
  if (isShortEnum(schema)) return join(schema.enum.map((v: unknown) => <Code key={String(v)}>{JSON.stringify(v)}</Code>), " | ");
  const types: string[] = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (types.length === 0) return "any";
  return join(
    types.map((t) => {
      if (t === "array") return <>{<TypeLabel schema={schema.items} />}[]</>;
      if (t === "object" && schema.additionalProperties && typeof schema.additionalProperties === "object" && !schema.properties) {
        return (
          <>
            map&lt;string, <TypeLabel schema={schema.additionalProperties} />&gt;
          </>
        );
      }
      return t;
    }),
    " | ",
  );
}
