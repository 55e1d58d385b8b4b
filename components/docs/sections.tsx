import { PROBLEM_TYPES } from "@/lib/http/errors";
import { PROBLEM_CODES, PROBLEM_DOCS, problemTypeUri } from "@/lib/openapi/problems";
import { Constraints, FieldsTable } from "./fields-table";
import type { Json } from "./schema";
import { scrollFocus } from "./scroll-region";
import { Code, link, Text, TypeLabel } from "./text";

export const h2 = "scroll-mt-4 text-2xl font-semibold";
const card = "rounded-lg border border-slate-200 bg-white p-5 shadow-sm";

export function Authentication({ doc }: { doc: Json }) {
  const schemes: [string, Json][] = Object.entries(doc.components?.securitySchemes ?? {});
  return (
    <section id="authentication" className="space-y-4">
      <h2 className={h2}>Authentication</h2>
      <p className="text-sm text-slate-700">
        Every request carries a bearer token in the <Code>Authorization</Code> header. A missing, malformed, wrongly
        signed, expired or revoked token gets <a href="#problem-unauthorized" className={link}>401</a>;
        a valid API key without permission for the business in the path gets{" "}
        <a href="#problem-forbidden" className={link}>403</a>. Keep keys on your server: never put
        them in browser or mobile code.
      </p>
      <div className="grid gap-4 md:grid-cols-2">
        {schemes.map(([name, s]) => (
          <div key={name} className={card}>
            <h3 className="font-mono font-semibold">{name}</h3>
            <p className="mt-1 text-xs text-slate-500">
              {s.type} · {s.scheme}
              {s.bearerFormat && ` · ${s.bearerFormat}`}
            </p>
            <p className="mt-2 text-sm text-slate-700">
              <Text text={s.description} />
            </p>
          </div>
        ))}
      </div>
      <pre
        role="region"
        tabIndex={0}
        aria-label="Example request with an API key"
        className={`overflow-x-auto rounded-lg bg-slate-900 p-4 font-mono text-xs text-slate-100 ${scrollFocus}`}
      >
        {`curl -X POST "${doc.servers?.[0]?.url ?? ""}/v1/businesses/$BUSINESS_ID/payments" \\
  -H "Authorization: Bearer $API_KEY" \\
  -H "Content-Type: application/json" \\
  -d '{"currency":"USD","amount":25}'`}
      </pre>
    </section>
  );
}

export function Errors({ doc }: { doc: Json }) {
  const problem = doc.components?.schemas?.ProblemDetails;
  return (
    <section id="errors" className="space-y-4">
      <h2 className={h2}>Errors</h2>
      <p className="text-sm text-slate-700">
        Errors are RFC 7807 <a href="#schema-ProblemDetails" className={link}>ProblemDetails</a>,
        sent as <Code>application/problem+json</Code> unless <Code>Accept</Code> names <Code>application/json</Code>,{" "}
        <Code>text/json</Code> or <Code>text/plain</Code>. Their <Code>type</Code> links to one of the entries below;{" "}
        <Code>errors</Code> maps every invalid field to its messages.
      </p>
      {problem && (
        <div className={card}>
          <FieldsTable doc={doc} schema={problem} label="Fields of ProblemDetails" />
        </div>
      )}
      <div className="space-y-3">
        {PROBLEM_CODES.map((code) => (
          <div key={code} id={`problem-${code}`} className={`${card} scroll-mt-4`}>
            <h3 className="flex flex-wrap items-baseline gap-3">
              <span className="font-mono text-sm font-semibold text-slate-500">{PROBLEM_DOCS[code].status}</span>
              <span className="font-semibold">{PROBLEM_TYPES[code]}</span>
              <Code>{problemTypeUri(code)}</Code>
            </h3>
            <p className="mt-2 text-sm text-slate-700">
              <Text text={PROBLEM_DOCS[code].description} />
            </p>
          </div>
        ))}
      </div>
    </section>
  );
}

function SchemaBody({ doc, schema, name }: { doc: Json; schema: Json; name: string }) {
  if (Array.isArray(schema.enum)) {
    return (
      <ul className="flex flex-wrap gap-1.5">
        {schema.enum.map((v: unknown) => (
          <li key={String(v)}>
            <Code>{String(v)}</Code>
          </li>
        ))}
      </ul>
    );
  }
  if (schema.properties) return <FieldsTable doc={doc} schema={schema} label={`Fields of ${name}`} />;
  return (
    <div className="text-sm">
      Type: <TypeLabel schema={schema} />
      <Constraints schema={schema} />
    </div>
  );
}

export function Schemas({ doc }: { doc: Json }) {
  const schemas: [string, Json][] = Object.entries(doc.components?.schemas ?? {});
  schemas.sort(([a], [b]) => a.localeCompare(b));
  return (
    <section id="schemas" className="space-y-4">
      <h2 className={h2}>Schemas</h2>
      {schemas.map(([name, schema]) => (
        <div key={name} id={`schema-${name}`} className={`${card} scroll-mt-4`}>
          <h3 className="font-mono font-semibold">{name}</h3>
          {schema.description && (
            <p className="mt-1 mb-3 text-sm text-slate-700">
              <Text text={schema.description} />
            </p>
          )}
          <div className="mt-2">
            <SchemaBody doc={doc} schema={schema} name={name} />
          </div>
        </div>
      ))}
    </section>
  );
}
