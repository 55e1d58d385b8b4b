import { afterAll, beforeAll, describe, expect, it } from "vitest";
import postgres from "postgres";
import { drizzle } from "drizzle-orm/postgres-js";
import { eq, sql } from "drizzle-orm";
import { integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { withCompiledRowMapping } from "@/db/row-mapping";
import { startEmbeddedDatabase, type EmbeddedDatabase } from "@/db/pglite-worker";

/**
 * The compiled row mapping (db/row-mapping.ts) must give exactly what drizzle's own mapping
 * gives. Each case runs one select twice, once as drizzle maps it and once compiled, through the
 * service's driver (postgres.js) on an embedded database of its own, and compares the results.
 */
const owners = pgTable("owners", { id: integer("id").primaryKey(), name: text("name").notNull() });
const pets = pgTable("pets", {
  id: integer("id").primaryKey(),
  ownerId: integer("owner_id"),
  nick: text("nick"),
  born: timestamp("born", { withTimezone: true, precision: 3 }),
  tags: jsonb("tags").$type<string[]>(),
});

let embedded: EmbeddedDatabase;
let pg: postgres.Sql;
beforeAll(async () => {
  embedded = await startEmbeddedDatabase(undefined);
  pg = postgres({ path: embedded.socketPath, user: "postgres", database: "postgres", max: 1, onnotice: () => {} });
  await pg.unsafe(`
    create table owners (id integer primary key, name text not null);
    create table pets (id integer primary key, owner_id integer, nick text, born timestamptz(3), tags jsonb);
    insert into owners values (1, 'ann'), (2, 'bo'), (3, 'cy');
    insert into pets values (10, 1, 'rex', '2024-05-06T07:08:09.123Z', '["a","b"]'), (11, 1, null, null, null), (12, null, 'stray', null, '[]');
  `);
});
afterAll(async () => {
  await pg.end();
  await embedded.close();
});

async function both<T>(build: () => { execute: () => Promise<T> }) {
  const plain = build();
  expect((plain as { customResultMapper?: unknown }).customResultMapper).toBeUndefined();
  const drizzled = await plain.execute();
  const statement = withCompiledRowMapping(build());
  // The compiled mapping is in place, so the comparison below compares two different mappers.
  expect((statement as { customResultMapper?: unknown }).customResultMapper).toBeTypeOf("function");
  const compiled = await statement.execute();
  return { drizzled, compiled };
}

describe("compiled row mapping", () => {
  it("maps nested objects, left joins that found nothing, SQL fields and decoded types as drizzle does", async () => {
    const db = drizzle({ client: pg });
    const { drizzled, compiled } = await both(() =>
      db
        .select({ owner: owners, pet: pets, petCount: sql<number>`count(*) over ()`.mapWith(Number), label: { name: owners.name, nick: pets.nick } })
        .from(owners)
        .leftJoin(pets, eq(pets.ownerId, owners.id))
        .orderBy(owners.id, pets.id)
        .prepare("owners_pets"),
    );
    expect(compiled).toEqual(drizzled);
    // What drizzle gives, spelled out: cy has no pet (pet is null), rex's born is a Date, tags parsed.
    expect(drizzled.find((r) => r.owner.id === 3)!.pet).toBeNull();
    expect(drizzled.find((r) => r.pet?.id === 10)!.pet!.born).toEqual(new Date("2024-05-06T07:08:09.123Z"));
    expect(drizzled.find((r) => r.pet?.id === 10)!.pet!.tags).toEqual(["a", "b"]);
    // A pet row with nulls in other columns is still an object (its first column, id, is set).
    expect(drizzled.find((r) => r.pet?.id === 11)!.pet).toMatchObject({ nick: null, born: null });
  });

  it("maps a right-hand table's null row and a plain select the same way", async () => {
    const db = drizzle({ client: pg });
    const right = await both(() =>
      db.select().from(owners).rightJoin(pets, eq(pets.ownerId, owners.id)).orderBy(pets.id).prepare("right"),
    );
    expect(right.compiled).toEqual(right.drizzled);
    expect(right.drizzled.find((r) => r.pets.id === 12)!.owners).toBeNull();
    const plain = await both(() => db.select().from(pets).orderBy(pets.id).prepare("plain"));
    expect(plain.compiled).toEqual(plain.drizzled);
  });
});
