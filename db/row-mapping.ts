import { Column, getTableName, is, SQL, Subquery } from "drizzle-orm";

/*
 * drizzle maps every row of a select with `mapResultRow`, which for every cell of every row
 * works out again what the field is (`is(field, Column)`, `is(field, SQL)`…), which table it
 * belongs to and where it goes. For the details statement (~75 columns of five tables, 20+ rows
 * per list page) that was 15 % of a list's server time in the profile (docs/performance.md).
 * This works it out once per prepared statement and then only decodes and places the values.
 * It reproduces mapResultRow (drizzle-orm/utils.js) exactly, including how a left-joined
 * table's object becomes null: when its first selected column is null and every column of the
 * object comes from that table.
 */

type Decoder = { mapFromDriverValue(value: unknown): unknown };
// `decoder` is internal in drizzle's types; mapResultRow reads it the same way.
type WithDecoder = { decoder: Decoder };
type SelectedField = { path: string[]; field: unknown };
type Row = Record<string, unknown>;

function decoderOf(field: unknown): Decoder {
  if (is(field, Column)) return field;
  if (is(field, SQL)) return (field as unknown as WithDecoder).decoder;
  if (is(field, Subquery)) return (field as unknown as { _: { sql: WithDecoder } })._.sql.decoder;
  return (field as { sql: WithDecoder }).sql.decoder;
}

export function compileRowMapper(
  fields: SelectedField[],
  joinsNotNullableMap: Record<string, boolean> | undefined,
): (row: unknown[]) => Row {
  const columns = fields.map(({ path, field }) => ({
    parents: path.slice(0, -1),
    key: path[path.length - 1],
    decoder: decoderOf(field),
    // The table a left-joined object's nullness is judged by (mapResultRow's nullifyMap).
    table: joinsNotNullableMap && is(field, Column) && path.length === 2 ? getTableName(field.table) : undefined,
  }));
  return (row) => {
    const result: Row = {};
    const nullify: Record<string, string | false> = {};
    for (let i = 0; i < columns.length; i++) {
      const c = columns[i];
      let node = result;
      for (const chunk of c.parents) {
        if (!(chunk in node)) node[chunk] = {};
        node = node[chunk] as Row;
      }
      const raw = row[i];
      const value = (node[c.key] = raw === null ? null : c.decoder.mapFromDriverValue(raw));
      if (c.table !== undefined) {
        const objectName = c.parents[0];
        if (!(objectName in nullify)) nullify[objectName] = value === null ? c.table : false;
        else if (typeof nullify[objectName] === "string" && nullify[objectName] !== c.table) nullify[objectName] = false;
      }
    }
    if (joinsNotNullableMap) {
      for (const objectName in nullify) {
        const table = nullify[objectName];
        if (typeof table === "string" && !joinsNotNullableMap[table]) result[objectName] = null;
      }
    }
    return result;
  };
}

/**
 * Gives a drizzle prepared statement (postgres.js or PGlite) the compiled mapping. Both call
 * `customResultMapper(rows)` with the raw rows when it is set, instead of mapResultRow per row.
 */
export function withCompiledRowMapping<T>(statement: T): T {
  const s = statement as {
    fields?: SelectedField[];
    joinsNotNullableMap?: Record<string, boolean>;
    customResultMapper?: (rows: unknown[][]) => unknown;
  };
  if (!Array.isArray(s.fields) || s.customResultMapper) return statement;
  const map = compileRowMapper(s.fields, s.joinsNotNullableMap);
  s.customResultMapper = (rows) => rows.map(map);
  return statement;
}
