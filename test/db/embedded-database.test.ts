import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { execFile } from "node:child_process";
import net from "node:net";
import { promisify } from "node:util";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import postgres from "postgres";
import { startEmbeddedDatabase, type EmbeddedDatabase } from "@/db/pglite-worker";

/**
 * The embedded database (PGlite on its own thread, served on a Unix socket by
 * db/pglite-server.mjs), driven through postgres.js as the service drives it.
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

  it("serves one connection at a time: a second waits until the first closes", async () => {
    const db = await startEmbeddedDatabase(undefined);
    const first = connect(db);
    await first`create table t (id int)`;
    const second = connect(db);
    let secondDone = false;
    const answered = second`select 42 as x`.then((r) => {
      secondDone = true;
      return r;
    });
    await new Promise((r) => setTimeout(r, 300));
    expect(secondDone).toBe(false);
    await first.end();
    expect((await answered)[0]).toEqual({ x: 42 });
    await second.end();
    await db.close();
  });

  it("gives the next connection a clean session: the previous one's open transaction is rolled back", async () => {
    const db = await startEmbeddedDatabase(undefined);
    const first = connect(db);
    await first`create table t (id int primary key)`;
    const reserved = await first.reserve();
    await reserved`set statement_timeout = 1234`;
    await reserved`begin`;
    await reserved`insert into t values (1)`;
    // The connection goes away mid-transaction (a crashed request, a killed client).
    await first.end({ timeout: 0 });

    const second = connect(db);
    expect(await second`select count(*)::int as n from t`).toEqual([{ n: 0 }]);
    expect((await second`show statement_timeout`)[0].statement_timeout).toBe("0");
    await second`insert into t values (1)`; // no leftover lock or transaction in the way
    expect(await second`select count(*)::int as n from t`).toEqual([{ n: 1 }]);
    await second.end();
    await db.close();
  });

  it("takes a client that writes its startup, queries and Terminate together, and stays up for the next", async () => {
    const db = await startEmbeddedDatabase(undefined);
    const received = await new Promise<string>((resolve, reject) => {
      const chunks: Buffer[] = [];
      const s = net.connect(db.socketPath, () => s.write(Buffer.concat([startup, query("select 'first' as a"), query("select 'second' as b"), terminate])));
      s.on("data", (c) => chunks.push(c));
      s.on("error", reject);
      s.on("close", () => resolve(Buffer.concat(chunks).toString("latin1")));
    });
    expect(received).toContain("first");
    expect(received).toContain("second");
    // The server closed that connection after the Terminate; the database serves the next one.
    const sql = connect(db);
    expect(await sql`select 1 as one`).toEqual([{ one: 1 }]);
    await sql.end();
    await db.close();
  });

  // db/pglite-server.mjs, WRITE_GAP_MS: PGlite runs a pipelined batch in one call; an answer
  // finished early in it is written then, not held until the batch's last query is done.
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
