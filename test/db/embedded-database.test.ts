import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { execFile } from "node:child_process";
import net from "node:net";
import { promisify } from "node:util";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import postgres from "postgres";
import { startEmbeddedDatabase, type EmbeddedDatabase } from "@/db/pglite-worker";
import { maintain, startMaintenance } from "@/db/maintenance";

/**
 * The embedded database (PGlite on its own thread, served on a Unix socket by
 * db/pglite-server.mjs with @electric-sql/pglite-socket), driven through postgres.js as the
 * service drives it.
 */
const connect = (db: EmbeddedDatabase, max = 1) =>
  postgres({ path: db.socketPath, user: "postgres", database: "postgres", max, onnotice: () => {} });

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** Wire-protocol messages, for tests that control how a client's bytes arrive. */
const startup = (() => {
  const params = Buffer.from("user\0postgres\0database\0postgres\0\0");
  const head = Buffer.alloc(8);
  head.writeInt32BE(8 + params.length, 0);
  head.writeInt32BE(196608, 4); // protocol 3.0
  return Buffer.concat([head, params]);
})();
const query = (text: string) => {
  const body = Buffer.from(`${text}\0`);
  const head = Buffer.alloc(5);
  head.write("Q");
  head.writeInt32BE(4 + body.length, 1);
  return Buffer.concat([head, body]);
};
const terminate = Buffer.from([0x58, 0, 0, 0, 4]);

describe("embedded database", () => {
  it("keeps what was committed across a clean close and a new start on the same data directory", async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "embedded-test-"));
    dirs.push(dataDir);
    let db = await startEmbeddedDatabase(dataDir);
    let sql = connect(db);
    await sql`create table kept (id int primary key, v text)`;
    await sql`insert into kept values (1, 'one'), (2, 'two')`;
    await sql.end();
    await db.close();

    db = await startEmbeddedDatabase(dataDir);
    sql = connect(db);
    expect(await sql`select id, v from kept order by id`).toEqual([
      { id: 1, v: "one" },
      { id: 2, v: "two" },
    ]);
    await sql.end();
    await db.close();
  });

  // The bench reports this thread's CPU apart from the request thread's by its name (bench/server.ts).
  it.runIf(process.platform === "linux")("runs on a thread named pglite", async () => {
    const pgliteThreads = () =>
      readdirSync("/proc/self/task").filter((tid) => {
        try {
          return readFileSync(`/proc/self/task/${tid}/comm`, "utf8").trim() === "pglite";
        } catch {
          return false; // the thread ended meanwhile
        }
      }).length;
    const before = pgliteThreads();
    const db = await startEmbeddedDatabase(undefined);
    expect(pgliteThreads()).toBe(before + 1);
    await db.close();
    expect(pgliteThreads()).toBe(before);
  });

  it("puts its socket in a directory only this user can enter, and removes it on close", async () => {
    const db = await startEmbeddedDatabase(undefined);
    const dir = path.dirname(db.socketPath);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    await db.close();
    expect(() => statSync(dir)).toThrow();
  });

  it("leaves no socket directory behind when the process ends without closing it", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "embedded-exit-"));
    dirs.push(dir);
    const script = path.join(dir, "start-and-exit.mjs");
    writeFileSync(
      script,
      `import { startEmbeddedDatabase } from ${JSON.stringify(path.resolve("db/pglite-worker.ts"))};
       const db = await startEmbeddedDatabase(undefined);
       console.log(db.socketPath);
       process.exit(0);`,
    );
    const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", script], { cwd: process.cwd() });
    const socketPath = stdout.trim().split("\n").pop()!;
    expect(socketPath).toMatch(/cryptopay-db-/);
    expect(() => statSync(path.dirname(socketPath))).toThrow();
  });

  it("removes the socket directory a killed process left behind, and only that one, at the next start", async () => {
    // A process that has ended (its id no longer runs) and one that still runs (this one's parent).
    const ended = await promisify(execFile)(process.execPath, ["-e", "console.log(process.pid)"]);
    const deadPid = Number(ended.stdout.trim());
    const orphan = mkdtempSync(path.join(os.tmpdir(), `cryptopay-db-${deadPid}-`));
    const alive = mkdtempSync(path.join(os.tmpdir(), `cryptopay-db-${process.ppid}-`));
    dirs.push(alive);
    const db = await startEmbeddedDatabase(undefined);
    expect(() => statSync(orphan)).toThrow();
    expect(statSync(alive).isDirectory()).toBe(true);
    await db.close();
  });

  it("answers pipelined queries each with its own result, an error in the middle included", async () => {
    const db = await startEmbeddedDatabase(undefined);
    const sql = connect(db);
    await sql`create table t (id int primary key)`;
    // postgres.js writes these on one connection without waiting: they reach PGlite together.
    const results = await Promise.allSettled([
      sql`insert into t values (${1}) returning id`,
      sql`insert into t values (${2}) returning id`,
      sql`select 1 / ${0}::int as boom`,
      sql`insert into t values (${3}) returning id`,
      sql`select count(*)::int as n from t`,
    ]);
    expect(results.map((r) => (r.status === "fulfilled" ? r.value[0] : (r.reason as { code: string }).code))).toEqual([
      { id: 1 },
      { id: 2 },
      "22012", // division_by_zero, for that query only
      { id: 3 },
      { n: 3 },
    ]);
    await sql.end();
    await db.close();
  });

  it("serves one connection at a time: a second is refused while the first is open, and served once it has closed", async () => {
    const db = await startEmbeddedDatabase(undefined);
    const first = connect(db);
    await first`create table t (id int)`;
    const second = connect(db);
    await expect(second`select 42 as x`).rejects.toThrow();
    await second.end({ timeout: 0 });
    expect(await first`select count(*)::int as n from t`).toEqual([{ n: 0 }]); // the first goes on
    await first.end();
    const third = connect(db);
    expect(await third`select 42 as x`).toEqual([{ x: 42 }]);
    await third.end();
    await db.close();
  });

  // Under a loaded machine (the whole suite on 2 cores) the next connection is now and then reset
  // while the server is still closing the one that vanished: retried, the rollback is what is checked.
  it("rolls back the transaction a connection left open, before the next connection's statements", { retry: 2 }, async () => {
    const db = await startEmbeddedDatabase(undefined);
    const first = connect(db);
    await first`create table t (id int primary key)`;
    const reserved = await first.reserve();
    await reserved`begin`;
    await reserved`insert into t values (1)`;
    // The connection goes away mid-transaction (a crashed request, a killed client).
    await first.end({ timeout: 0 });

    const second = connect(db);
    expect(await second`select count(*)::int as n from t`).toEqual([{ n: 0 }]);
    await second`insert into t values (1)`; // no leftover lock or transaction in the way
    expect(await second`select count(*)::int as n from t`).toEqual([{ n: 1 }]);
    await second.end();
    await db.close();
  });

  it("takes a client that writes its startup, queries and Terminate together, and serves the next once it has gone", async () => {
    const db = await startEmbeddedDatabase(undefined);
    const received = await new Promise<string>((resolve, reject) => {
      const chunks: Buffer[] = [];
      const s = net.connect(db.socketPath, () => s.write(Buffer.concat([startup, query("select 'first' as a"), query("select 'second' as b"), terminate])));
      s.on("data", (c) => {
        chunks.push(c);
        // Both answers in: the client closes its end, as postgres.js does after a Terminate.
        if (Buffer.concat(chunks).toString("latin1").includes("second")) s.end();
      });
      s.on("error", reject);
      s.on("close", () => resolve(Buffer.concat(chunks).toString("latin1")));
    });
    expect(received).toContain("first");
    expect(received).toContain("second");
    let sql = connect(db);
    // The server notices the close a moment later; until then a new connection is refused.
    for (let i = 0; i < 50; i++) {
      try {
        expect(await sql`select 1 as one`).toEqual([{ one: 1 }]);
        break;
      } catch {
        await sql.end({ timeout: 0 });
        sql = connect(db);
        await new Promise((r) => setTimeout(r, 20));
      }
    }
    expect(await sql`select 1 as one`).toEqual([{ one: 1 }]);
    await sql.end();
    await db.close();
  });

  // An answer finished early in a pipelined batch is written then, not held until the batch's
  // last query is done.
  it("sends an answer of a pipelined batch before the batch's slow query has finished", async () => {
    const db = await startEmbeddedDatabase(undefined);
    const s = net.connect(db.socketPath);
    s.on("error", () => {}); // a failure shows as the missing answer below
    const arrivals: { at: number; text: string }[] = [];
    s.on("data", (c) => arrivals.push({ at: performance.now(), text: c.toString("latin1") }));
    const received = (what: string) =>
      new Promise<number>((resolve, reject) => {
        const check = () => {
          const hit = arrivals.find((a) => a.text.includes(what));
          if (hit) resolve(hit.at);
          else if (s.destroyed) reject(new Error(`connection closed before ${what}`));
          else setTimeout(check, 1);
        };
        check();
      });
    s.write(startup);
    await received("Z\0\0\0\x05I"); // ReadyForQuery, idle: the session is up
    await new Promise((r) => setTimeout(r, 20)); // the startup's answer is the last write, well past
    const sentAt = performance.now();
    // One write, so both queries reach PGlite in one call.
    s.write(Buffer.concat([query("select 'quick' as a"), query("select 'slow' as b, count(*) from generate_series(1, 2000000)")]));
    const quickAt = await received("quick");
    const slowAt = await received("slow");
    // Terminate: the server closes this connection once it has answered; then the database.
    await new Promise((resolve) => s.on("close", resolve).end(terminate));
    await db.close();
    expect(slowAt - sentAt, "the slow query must take long enough for the test to mean anything").toBeGreaterThan(100);
    expect(quickAt - sentAt).toBeLessThan((slowAt - sentAt) / 2);
  });
});

describe("embedded database maintenance (db/maintenance.ts: PGlite runs no autovacuum of its own)", () => {
  const stats = async (sql: postgres.Sql, table: string) => {
    const [row] = await sql<{ vacuums: number; analyzes: number; dead: number; columns: number }[]>`
      select vacuum_count::int as vacuums, analyze_count::int as analyzes, n_dead_tup::int as dead,
        (select count(*)::int from pg_stats where tablename = ${table}) as columns
      from pg_stat_user_tables where relname = ${table}`;
    return row;
  };

  /** The session's counts in the shared statistics now, as maintenance would otherwise put them there first. */
  const visible = async (sql: postgres.Sql) => {
    await sql`select pg_stat_force_next_flush()`;
    await sql`select 1`;
  };

  it("vacuums and analyzes a table when autovacuum's own rules say it is due, and leaves it alone when not", async () => {
    const db = await startEmbeddedDatabase(undefined);
    const sql = connect(db);
    await sql`create table t (id int primary key, v text)`;
    expect(await maintain(sql)).toEqual([]); // empty: nothing due
    await sql`insert into t select g, 'v' || g from generate_series(1, 2000) g`;
    // 2 000 inserted rows: past the insert threshold (1 000) and the analyze threshold (50).
    expect(await maintain(sql)).toEqual(["vacuum (analyze) public.t"]);
    expect(await stats(sql, "t")).toEqual({ vacuums: 1, analyzes: 1, dead: 0, columns: 2 });
    expect(await maintain(sql)).toEqual([]);
    await sql`update t set v = 'x' where id <= 300`;
    // 300 dead rows: under 50 + 0.2 × 2 000 for a vacuum, past 50 + 0.1 × 2 000 for an analyze.
    expect(await maintain(sql)).toEqual(["analyze public.t"]);
    await sql`delete from t where id > 1000`;
    expect(await maintain(sql)).toEqual(["vacuum (analyze) public.t"]);
    expect(await stats(sql, "t")).toMatchObject({ vacuums: 2, analyzes: 3, dead: 0 });
    await sql.end();
    await db.close();
  });

  it("analyzes a table that holds data and was never analyzed, however few its changes since the start", async () => {
    const db = await startEmbeddedDatabase(undefined);
    const sql = connect(db);
    await sql`create table t (id int primary key)`;
    await sql`insert into t select generate_series(1, 40)`; // under every threshold
    expect(await maintain(sql)).toEqual(["analyze public.t"]);
    expect(await maintain(sql)).toEqual([]);
    await sql`delete from t`;
    expect(await maintain(sql)).toEqual([]); // analyzed once: an emptied table is not analyzed every minute
    await sql.end();
    await db.close();
  });

  it("waits for a transaction open on the service's connection, which goes on undisturbed, and then runs", async () => {
    const db = await startEmbeddedDatabase(undefined);
    const sql = connect(db);
    await sql`create table t (id int primary key)`;
    await sql`insert into t select generate_series(1, 2000)`;
    await visible(sql);
    let ran: string[] | undefined;
    await sql.begin(async (tx) => {
      await tx`insert into t values (0)`;
      // A VACUUM inside the transaction block would fail; it waits for the connection instead.
      void maintain(sql).then((r) => (ran = r));
      await new Promise((r) => setTimeout(r, 100));
      expect(ran).toBeUndefined();
      await tx`insert into t values (-1)`;
    });
    for (let i = 0; i < 200 && ran === undefined; i++) await new Promise((r) => setTimeout(r, 10));
    expect(ran).toEqual(["vacuum (analyze) public.t"]);
    expect((await sql`select count(*)::int as n from t`)[0].n).toBe(2002);
    await sql.end();
    await db.close();
  });

  it("runs on its own every interval, and stops when told", async () => {
    const db = await startEmbeddedDatabase(undefined);
    const sql = connect(db);
    await sql`create table t (id int primary key)`;
    await sql`insert into t select generate_series(1, 100)`;
    const stop = startMaintenance(sql, 50);
    let analyzed = 0;
    for (let i = 0; i < 200 && analyzed === 0; i++) {
      await new Promise((r) => setTimeout(r, 25));
      analyzed = (await stats(sql, "t")).analyzes;
    }
    expect(analyzed).toBe(1);
    await stop();
    await sql`insert into t select generate_series(101, 5000)`;
    await new Promise((r) => setTimeout(r, 300));
    expect((await stats(sql, "t")).analyzes).toBe(1);
    await sql.end();
    await db.close();
  });
});
