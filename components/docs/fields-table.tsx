import { constraints, fieldRows, resolve, type Json } from "./schema";
import { ScrollRegion } from "./scroll-region";
import { Code, Text, TypeLabel } from "./text";

export const th = "border-b border-slate-200 px-3 py-2 text-left text-xs font-semibold uppercase tracking-wide text-slate-500";
export const td = "border-b border-slate-100 px-3 py-2 align-top";

export function Constraints({ schema }: { schema: Json }) {
  const list = constraints(schema);
  if (!list.length) return null;
  return (
    <ul className="mt-1 flex flex-wrap gap-1">
      {list.map((c) => (
        <li key={c} className="max-w-full rounded wrap-anywhere bg-slate-100 px-1.5 py-0.5 font-mono text-xs text-slate-600">
          {c}
        </li>
      ))}
    </ul>
  );
}

export function RequiredBadge({ required }: { required: boolean }) {
  return required ? (
    <span className="text-xs font-semibold text-rose-700">required</span>
  ) : (
    <span className="text-xs text-slate-500">optional</span>
  );
}

/**
 * The fields of an object schema: name, type, required, constraints and description. `label`
 * names the table's scroll container for assistive technology ("Fields of Payment").
 */
export function FieldsTable({ doc, schema, label }: { doc: Json; schema: Json; label: string }) {
  const rows = fieldRows(doc, schema);
  const resolved = resolve(doc, schema);
  if (!rows.length) return <p className="text-sm text-slate-600">No fields.</p>;
  return (
    <ScrollRegion label={label}>
      <table className="w-full border-collapse text-sm">
        <thead>
          <tr>
            <th className={th}>Field</th>
            <th className={th}>Type</th>
            <th className={th}>Required</th>
            <th className={th}>Description</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.name}>
              <td className={td}>
                <Code>{row.name}</Code>
              </td>
              <td className={`${td} whitespace-nowrap`}>
                <TypeLabel schema={row.schema} />
              </td>
              <td className={td}>
                <RequiredBadge required={row.required} />
              </td>
              <td className={td}>
                <Text text={row.schema.description ?? resolve(doc, row.schema).description} />
                <Constraints schema={row.schema} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {resolved.additionalProperties === false && (
        <p className="mt-2 text-xs text-slate-500">Other fields are not allowed.</p>
      )}
    </ScrollRegion>
  );
}
