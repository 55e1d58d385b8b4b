import { Constraints, FieldsTable, RequiredBadge, td, th } from "./fields-table";
import { refName, resolve, type Json } from "./schema";
import { ScrollRegion, scrollFocus } from "./scroll-region";
import { Code, link, Text, TypeLabel } from "./text";

const METHOD_COLOURS: Record<string, string> = {
  get: "bg-emerald-100 text-emerald-800",
  post: "bg-blue-100 text-blue-800",
  put: "bg-amber-100 text-amber-800",
  patch: "bg-violet-100 text-violet-800",
  delete: "bg-rose-100 text-rose-800",
};

export function MethodBadge({ method }: { method: string }) {
  return (
    <span className={`inline-block w-16 rounded px-2 py-0.5 text-center font-mono text-xs font-bold uppercase ${METHOD_COLOURS[method] ?? ""}`}>
      {method}
    </span>
  );
}

export const operationAnchor = (op: Json, method: string, path: string) =>
  `op-${op.operationId ?? `${method}-${path.replace(/[^A-Za-z0-9]+/g, "-")}`}`;

function Parameters({ doc, params, name }: { doc: Json; params: Json[]; name: string }) {
  return (
    <ScrollRegion label={`Parameters of ${name}`}>
      <table className="w-full border-collapse text-sm">
        <thead>
          <tr>
            <th className={th}>Name</th>
            <th className={th}>In</th>
            <th className={th}>Type</th>
            <th className={th}>Required</th>
            <th className={th}>Description</th>
          </tr>
        </thead>
        <tbody>
          {params.map((ref) => {
            const p = resolve(doc, ref);
            return (
              <tr key={`${p.in}-${p.name}`}>
                <td className={td}>
                  <Code>{p.name}</Code>
                </td>
                <td className={`${td} text-slate-600`}>{p.in}</td>
                <td className={`${td} whitespace-nowrap`}>
                  <TypeLabel schema={p.schema} />
                </td>
                <td className={td}>
                  <RequiredBadge required={Boolean(p.required)} />
                </td>
                <td className={td}>
                  <Text text={p.description} />
                  {p.explode && p.schema?.type === "array" && (
                    <p className="mt-1 text-xs text-slate-500">
                      Repeat for several values: <Code>{`?${p.name}=A&${p.name}=B`}</Code>
                    </p>
                  )}
                  <Constraints schema={p.schema ?? {}} />
                  {p.example !== undefined && (
                    <p className="mt-1 text-xs text-slate-500">
                      Example: <Code>{exampleText(p.example)}</Code>
                    </p>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </ScrollRegion>
  );
}

/** A parameter example as it is sent: arrays repeat the parameter, so they read `A, B`. */
const exampleText = (v: unknown) => (Array.isArray(v) ? v.map((x) => String(x)).join(", ") : typeof v === "string" ? v : JSON.stringify(v));

const pre = `mt-1 overflow-x-auto rounded-lg bg-slate-900 p-3 font-mono text-xs text-slate-100 ${scrollFocus}`;

/** The media type's `example`, or each of its named `examples` with its summary; each scrolls sideways, so it is a focusable region. */
function BodyExamples({ media, opName }: { media: Json | undefined; opName: string }) {
  const named: [string, Json][] = Object.entries(media?.examples ?? {});
  if (media?.example !== undefined) named.unshift(["example", { value: media.example }]);
  if (!named.length) return null;
  return (
    <div className="mt-3 space-y-2">
      {named.map(([name, ex]) => (
        <div key={name}>
          <p className="text-xs font-semibold text-slate-600">{ex.summary ?? "Example"}</p>
          <pre className={pre} role="region" tabIndex={0} aria-label={`${ex.summary ?? "Example"}: request body of ${opName}`}>
            {JSON.stringify(ex.value, null, 2)}
          </pre>
        </div>
      ))}
    </div>
  );
}

function RequestBody({ doc, body, opName }: { doc: Json; body: Json; opName: string }) {
  const types = Object.keys(body.content ?? {});
  const media: Json | undefined = body.content?.[types[0]];
  const schema: Json = media?.schema ?? {};
  const resolved = resolve(doc, schema);
  const name = refName(schema);
  const variants: Json[] = resolved.oneOf ?? resolved.anyOf ?? [];
  return (
    <div>
      <p className="mb-2 text-sm text-slate-600">
        {body.required ? "Required" : "Optional"} JSON body{name && <> (<TypeLabel schema={schema} />)</>}, sent as{" "}
        {types.map((t, i) => (
          <span key={t}>
            {i > 0 && ", "}
            <Code>{t}</Code>
          </span>
        ))}
        .
      </p>
      {body.description && (
        <p className="mb-2 text-sm text-slate-600">
          <Text text={body.description} />
        </p>
      )}
      {resolved.properties || !variants.length ? (
        <FieldsTable doc={doc} schema={schema} label={`Request body fields of ${opName}`} />
      ) : (
        <div className="space-y-3">
          {variants.map((v, i) => (
            <div key={i}>
              <p className="text-sm font-semibold text-slate-700">
                {v.title ?? `Variant ${i + 1}`}
                {v.description && (
                  <span className="font-normal text-slate-600">
                    {" "}
                    — <Text text={v.description} />
                  </span>
                )}
              </p>
              <FieldsTable doc={doc} schema={v} label={`${v.title ?? `Variant ${i + 1}`}: request body fields of ${opName}`} />
            </div>
          ))}
        </div>
      )}
      <BodyExamples media={media} opName={opName} />
    </div>
  );
}

function ResponseBody({ doc, schema }: { doc: Json; schema: Json }) {
  const resolved = resolve(doc, schema);
  const data = resolved.properties?.data;
  if (data && "message" in resolved.properties && "errors" in resolved.properties) {
    return (
      <span className="font-mono text-xs">
        {"{ data: "}
        <TypeLabel schema={data} />
        {", message: null, errors: null }"}
      </span>
    );
  }
  return <TypeLabel schema={schema} />;
}

function Responses({ doc, responses, name }: { doc: Json; responses: Json; name: string }) {
  return (
    <ScrollRegion label={`Responses of ${name}`}>
      <table className="w-full border-collapse text-sm">
        <thead>
          <tr>
            <th className={th}>Status</th>
            <th className={th}>Description</th>
            <th className={th}>Body</th>
          </tr>
        </thead>
        <tbody>
          {Object.entries(responses).map(([status, ref]) => {
            const r = resolve(doc, ref as Json);
            const types = Object.keys(r.content ?? {});
            const headers = Object.keys(r.headers ?? {});
            return (
              <tr key={status}>
                <td className={`${td} font-mono font-semibold`}>{status}</td>
                <td className={td}>
                  <Text text={r.description} />
                  {headers.length > 0 && (
                    <p className="mt-1 text-xs text-slate-500">
                      Headers: {headers.map((h) => <Code key={h}>{h}</Code>)}
                    </p>
                  )}
                </td>
                <td className={td}>
                  {types.length > 0 && <ResponseBody doc={doc} schema={r.content[types[0]].schema ?? {}} />}
                  <p className="mt-1 text-xs text-slate-500">{types.join(", ")}</p>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </ScrollRegion>
  );
}

function Security({ doc, security }: { doc: Json; security: Json[] | undefined }) {
  const names = (security ?? []).flatMap((s) => Object.keys(s));
  if (!names.length) return <p className="text-sm text-slate-600">No authentication.</p>;
  return (
    <p className="text-sm text-slate-600">
      Authentication:{" "}
      {names.map((n) => (
        <a key={n} href="#authentication" className={link}>
          <Code>{n}</Code> ({doc.components?.securitySchemes?.[n]?.scheme ?? "?"})
        </a>
      ))}
    </p>
  );
}

const heading = "mt-5 mb-2 text-sm font-semibold text-slate-800";

/** How an operation is named in its tables' labels: its summary, or its method and path. */
const operationName = (op: Json, method: string, path: string): string => op.summary ?? `${method.toUpperCase()} ${path}`;

export function Operation({ doc, path, method, op }: { doc: Json; path: string; method: string; op: Json }) {
  const params: Json[] = op.parameters ?? [];
  const name = operationName(op, method, path);
  return (
    <article id={operationAnchor(op, method, path)} className="scroll-mt-4 rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
      <h3 className="flex flex-wrap items-center gap-3">
        <MethodBadge method={method} />
        <span className="break-all font-mono text-sm font-semibold">{path}</span>
      </h3>
      <p className="mt-2 font-semibold">{op.summary}</p>
      <p className="mt-1 text-sm text-slate-700">
        <Text text={op.description} />
      </p>
      <div className="mt-2">
        <Security doc={doc} security={op.security ?? doc.security} />
      </div>
      {params.length > 0 && (
        <>
          <h4 className={heading}>Parameters</h4>
          <Parameters doc={doc} params={params} name={name} />
        </>
      )}
      {op.requestBody && (
        <>
          <h4 className={heading}>Request body</h4>
          <RequestBody doc={doc} body={resolve(doc, op.requestBody)} opName={name} />
        </>
      )}
      <h4 className={heading}>Responses</h4>
      <Responses doc={doc} responses={op.responses ?? {}} name={name} />
    </article>
  );
}
