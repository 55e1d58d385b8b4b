import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { afterAll, describe, expect, it } from "vitest";
import { closeDb, getDb } from "@/db/client";
import { oneWebhookFileAtATime } from "../webhooks/support";
import { adminCli, seed, viewsOf } from "./backup-support";

/*
 * `npm run admin -- backup` and `restore` with DATABASE_URL: pg_dump of the suite's database
 * while it is in use, pg_restore into a database made for the run (`test_restore_<random>`,
 * dropped after), which this process then opens as a fresh service would and finds every
 * payment (read with the business's API key), delivery with its attempts, API key and setting.
 * Needs PostgreSQL and its client tools (Debian's postgresql-client).
 */
const suiteUrl = process.env.DATABASE_URL;
const hasTools = ["pg_dump", "pg_restore"].every((tool) => spawnSync(tool, ["--version"]).status === 0);
const work = mkdtempSync(path.join(os.tmpdir(), "backup-pg-test-"));
const created: string[] = [];

// The seed delivers webhooks, claiming every due row of the shared database: in turn with the webhook files.
if (suiteUrl) oneWebhookFileAtATime();

describe.runIf(suiteUrl && hasTools)("backup and restore with PostgreSQL (pg_dump, pg_restore)", () => {
  afterAll(async () => {
    await closeDb();
    const sql = postgres(suiteUrl!, { max: 1, onnotice: () => {} });
    for (const name of created) await sql.unsafe(`drop database if exists ${name} with (force)`);
    await sql.end();
    rmSync(work, { recursive: true, force: true });
  });

  it("restores pg_dump's copy into a new database, with everything in it", { timeout: 180_000 }, async () => {
    const seeded = await seed();
    const file = path.join(work, "payments.dump");
    const backup = await adminCli(["backup", file], { DATABASE_URL: suiteUrl });
    expect(backup.code, backup.err).toBe(0);
    expect(backup.out).toContain(`Backup written to ${file} (pg_dump's custom format`);

    const name = `test_restore_${randomBytes(6).toString("hex")}`;
    const sql = postgres(suiteUrl!, { max: 1, onnotice: () => {} });
    await sql.unsafe(`create database ${name}`);
    await sql.end();
    created.push(name);
    const target = new URL(suiteUrl!);
    target.pathname = `/${name}`;

    const restored = await adminCli(["restore", file], { DATABASE_URL: target.toString() });
    expect(restored.code, restored.err).toBe(0);
    expect(restored.out).toContain(`Restored ${file} into the database at DATABASE_URL`);
    const again = await adminCli(["restore", file], { DATABASE_URL: target.toString() });
    expect(again.code).toBe(1);
    expect(again.err).toMatch(/already has \d+ tables\. A restore replaces them: stop the service, then run again with --force/);

    // The fresh service: this process opens the restored database, as `npm start` would.
    await closeDb();
    process.env.DATABASE_URL = target.toString();
    try {
      await getDb();
      expect(await viewsOf(seeded)).toEqual(seeded.views);
      // While it is open (a running service), the restore refuses even with --force.
      const underService = await adminCli(["restore", file, "--force"], { DATABASE_URL: target.toString() });
      expect(underService.code).toBe(1);
      expect(underService.err).toMatch(/other session\(s\) use this database: stop the service/);
    } finally {
      await closeDb();
      process.env.DATABASE_URL = suiteUrl;
    }
    // Closed sessions leave pg_stat_activity a moment later: watched from the suite's database.
    const watch = postgres(suiteUrl!, { max: 1, onnotice: () => {} });
    await expect
      .poll(async () => Number((await watch`select count(*) as n from pg_stat_activity where datname = ${name}`)[0].n), { timeout: 10_000 })
      .toBe(0);
    await watch.end();
    const forced = await adminCli(["restore", file, "--force"], { DATABASE_URL: target.toString() });
    expect(forced.code, forced.err).toBe(0);
  });

  it("checks the file before it changes anything", async () => {
    const notADump = path.join(work, "notes.txt");
    writeFileSync(notADump, "not a backup");
    const res = await adminCli(["restore", notADump], { DATABASE_URL: suiteUrl });
    expect(res.code).toBe(1);
    expect(res.err).toMatch(/is not a pg_dump archive pg_restore can read .*Nothing was changed\./s);
  });

  it("prints the command to run when pg_dump is not on PATH", async () => {
    const res = await adminCli(["backup", path.join(work, "x.dump")], { DATABASE_URL: suiteUrl, PATH: path.dirname(process.execPath) });
    expect(res.code).toBe(1);
    expect(res.err).toMatch(/pg_dump is not on PATH: install PostgreSQL's client tools .*\n {2}pg_dump --format=custom --file=/);
    const password = new URL(suiteUrl!).password;
    if (password) expect(res.err).not.toContain(password);
  });
});
