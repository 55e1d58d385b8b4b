import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { sql } from "drizzle-orm";
import { integer, pgTable, text } from "drizzle-orm/pg-core";
import { withNamedStatements } from "@/db/pglite-statements";
import { plannedPerExecution } from "@/db/prepared";

/**
 * The embedded database's client (db/pglite-statements.ts) runs parameterised statements under
 * a name, parsed once. These tests run it on a PGlite of its own (in memory) and read
 * PostgreSQL's own list of named statements, so they fail if the statements are not reused.
 */
const items = pgTable("items", { id: integer("id").primaryKey(), label: text("label").notNull() });

let pg: PGlite;
let client: PGlite;

beforeAll(async () => {
  pg = await PGlite.create();
  client = withNamedStatements(pg);
  await client.exec("create table items (id integer primary key, label text not null)");
});
afterAll(() => pg.close());

async function namedStatements(): Promise<string[]> {
  const r = await pg.query<{ statement: string }>("select statement from pg_prepared_statements order by name");
  return r.rows.map((row) => row.statement);
}

describe("PGlite named statements", () => {
  it("parses a statement once and reuses it for every execution, with values and types intact", async () => {
    const db = drizzle({ client });
    await db.insert(items).values({ id: 1, label: "one" });
    await db.insert(items).values({ id: 2, label: "two" });
    const select = db.select().from(items).where(sql`${items.id} = ${sql.placeholder("id")}`).prepare("item");
    expect(await select.execute({ id: 1 })).toEqual([{ id: 1, label: "one" }]);
    expect(await select.execute({ id: 2 })).toEqual([{ id: 2, label: "two" }]);
    expect(await select.execute({ id: 3 })).toEqual([]);
    const statements = await namedStatements();
    // One named statement per distinct text: the INSERT (both rows) and the SELECT.
    expect(statements.filter((s) => s.startsWith("insert into \"items\""))).toHaveLength(1);
    expect(statements.filter((s) => s.startsWith("select") && s.includes("\"items\""))).toHaveLength(1);
  });

  it("sends a statement planned per execution unnamed", async () => {
    const db = drizzle({ client });
    const before = await namedStatements();
    const byLabel = plannedPerExecution(
      db.select().from(items).where(sql`${items.label} like ${sql.placeholder("p")}`).prepare("by_label"),
    );
    expect(await byLabel.execute({ p: "t%" })).toEqual([{ id: 2, label: "two" }]);
    expect(await byLabel.execute({ p: "o%" })).toEqual([{ id: 1, label: "one" }]);
    expect(await namedStatements()).toEqual(before);
  });

  it("reports a database error with its code and keeps working after it", async () => {
    await expect(client.query("insert into items (id, label) values ($1, $2)", [1, "again"])).rejects.toMatchObject({
      code: "23505",
    });
    await expect(client.query("select * from missing where id = $1", [1])).rejects.toMatchObject({ code: "42P01" });
    const r = await client.query<{ n: number }>("select $1::int + 1 as n", [41]);
    expect(r.rows).toEqual([{ n: 42 }]);
  });

  it("rolls a transaction's statements back with it", async () => {
    const db = drizzle({ client });
    await expect(
      db.transaction(async (tx) => {
        await tx.insert(items).values({ id: 10, label: "ten" });
        expect(await tx.select().from(items).where(sql`${items.id} = ${10}`)).toHaveLength(1);
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    expect(await db.select().from(items).where(sql`${items.id} = ${10}`)).toEqual([]);
  });

  it("parses a statement again when its table changed shape since", async () => {
    const text = "select * from items where id = $1";
    expect((await client.query(text, [1])).rows).toEqual([{ id: 1, label: "one" }]);
    await client.exec("alter table items add column extra text default 'x'");
    expect((await client.query(text, [1])).rows).toEqual([{ id: 1, label: "one", extra: "x" }]);
  });
});
