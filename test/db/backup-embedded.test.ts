import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { closeDb, getDb } from "@/db/client";
import { adminToken, json, request } from "../helpers";
import { adminCli, seed, viewsOf } from "./backup-support";

/*
 * `npm run admin -- backup` and `restore` on the embedded database: the data is written here, the
 * directory is then served by a real server process (test/shutdown/server-main.ts) that keeps
 * creating businesses while the CLI, a process of its own, backs it up; the backup is restored
 * into a fresh DATA_DIR, and this process opens that directory as a fresh service would and finds
 * every payment (read with the business's API key), delivery with its attempts, API key and
 * setting, and every business the running server had acknowledged before the backup began.
 */
const work = mkdtempSync(path.join(os.tmpdir(), "backup-test-"));
// A failed assertion leaves no server behind on the directory.
const servers: { stop: () => void; exited: Promise<unknown> }[] = [];
afterAll(async () => {
  for (const s of servers) s.stop();
  await Promise.all(servers.map((s) => s.exited));
  rmSync(work, { recursive: true, force: true });
});
const source = path.join(work, "source");
const fresh = path.join(work, "fresh");
const file = path.join(work, "payments.tar.gz");
// Both "services" share the secrets, as a restored deployment keeps its environment file.
const secrets = { API_KEY_SECRET: randomBytes(32).toString("base64url"), ADMIN_TOKEN: `adm_${randomBytes(16).toString("hex")}` };
// The embedded database, whatever the suite runs on (an empty DATABASE_URL means unset).
Object.assign(process.env, { DATABASE_URL: "", DATA_DIR: source, ...secrets });
const cliEnv = (dataDir: string) => ({ DATABASE_URL: "", DATA_DIR: dataDir, ...secrets });

function startServer(dataDir: string) {
  const env: Record<string, string | undefined> = { ...process.env, ...cliEnv(dataDir), NODE_ENV: "development" };
  for (const name of ["BITCOIN_RPC_URL", "LITECOIN_RPC_URL", "BITCOIN_CASH_RPC_URL", "ETHEREUM_RPC_URL", "TRON_RPC_URL"]) delete env[name];
  const child = spawn(path.resolve("node_modules/.bin/tsx"), ["test/shutdown/server-main.ts"], { env: env as NodeJS.ProcessEnv, stdio: ["ignore", "pipe", "pipe"] });
  let log = "";
  child.stdout.on("data", (d: Buffer) => (log += d));
  child.stderr.on("data", (d: Buffer) => (log += d));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const port = new Promise<number>((resolve, reject) => {
    const timer = setInterval(() => {
      const p = /listening (\d+)/.exec(log)?.[1];
      if (p) {
        clearInterval(timer);
        resolve(Number(p));
      }
    }, 50);
    void exited.then((code) => {
      clearInterval(timer);
      reject(new Error(`the server exited (${code}) before it listened:\n${log}`));
    });
  });
  const server = { port, exited, log: () => log, stop: () => child.kill("SIGTERM") };
  servers.push(server);
  return server;
}

describe("backup and restore of the embedded database", () => {
  it("restores a backup taken while the service writes into a fresh data directory, with everything in it", { timeout: 180_000 }, async () => {
    const seeded = await seed();
    await closeDb(); // the directory is the server's from here on

    const server = startServer(source);
    const port = await server.port;
    const acknowledged: number[] = [];
    let writing = true;
    const writes = (async () => {
      while (writing) {
        const res = await fetch(`http://127.0.0.1:${port}/businesses`, { method: "POST" });
        expect(res.status).toBe(201);
        acknowledged.push(((await res.json()) as { businessId: number }).businessId);
      }
    })();
    await expect.poll(() => acknowledged.length, { timeout: 30_000 }).toBeGreaterThan(2);
    const beforeBackup = [...acknowledged];
    const backup = await adminCli(["backup", file], cliEnv(source));
    expect(backup.code, backup.err).toBe(0);
    expect(backup.err).toContain("Copied the running service's embedded database");
    expect(backup.out).toMatch(/^Backup written to .*payments\.tar\.gz \(\d+\.\d MB\)\.$/m);
    // The server went on writing while the copy was taken.
    await expect.poll(() => acknowledged.length, { timeout: 30_000 }).toBeGreaterThan(beforeBackup.length);

    // A restore never replaces the database under a running service, --force or not.
    const underService = await adminCli(["restore", file, "--force"], cliEnv(source));
    expect(underService.code).toBe(1);
    expect(underService.err).toMatch(/A service is running on DATA_DIR=.*Stop it first/);
    // Nor does a second service open the same directory.
    const second = startServer(source);
    await expect(second.port).rejects.toThrow(/another process serves this data directory/);

    writing = false;
    await writes;
    server.stop();
    expect(await server.exited).toBe(0);

    const restored = await adminCli(["restore", file], cliEnv(fresh));
    expect(restored.code, restored.err).toBe(0);
    expect(restored.out).toMatch(/\d+ businesses, 2 payments, \d+ API keys, 3 webhook deliveries \(4 attempts\)/);

    // The fresh service: this process opens the restored directory, as `npm start` would.
    process.env.DATA_DIR = fresh;
    await getDb();
    expect(await viewsOf(seeded)).toEqual(seeded.views);
    for (const id of beforeBackup) {
      const res = await request("GET", `/admin/v1/businesses/${id}`, { key: adminToken() });
      expect(res.status, `business ${id}, acknowledged before the backup`).toBe(200);
      expect((await json(res)).data.name).toBe("Stopping shop");
    }
    await closeDb();
  });

  it("refuses to replace a database without --force, and keeps the one it replaces with it", { timeout: 120_000 }, async () => {
    const again = await adminCli(["restore", file], cliEnv(fresh));
    expect(again.code).toBe(1);
    expect(again.err).toMatch(/already holds a database .* run again with --force/);

    const forced = await adminCli(["restore", file, "--force"], cliEnv(fresh));
    expect(forced.code, forced.err).toBe(0);
    const kept = readdirSync(fresh).filter((name) => name.startsWith("pgdata.before-restore-"));
    expect(kept).toHaveLength(1);
    expect(forced.err).toContain(path.join(fresh, kept[0]));
  });

  it("checks the file before it changes anything", { timeout: 120_000 }, async () => {
    const target = path.join(work, "untouched");
    const notGzip = path.join(work, "notes.txt");
    writeFileSync(notGzip, "not a backup");
    const plain = await adminCli(["restore", notGzip], cliEnv(target));
    expect(plain.code).toBe(1);
    expect(plain.err).toContain("is not a backup of the embedded database (not gzip");

    // gzip, but not a data directory: PGlite refuses to start on it.
    const wrong = path.join(work, "wrong.tar.gz");
    writeFileSync(wrong, gzipSync(Buffer.from("neither a tar nor a database")));
    const bad = await adminCli(["restore", wrong], cliEnv(target));
    expect(bad.code).toBe(1);
    expect(bad.err).toMatch(/is not a backup this service can restore: .*Nothing was changed\./);
    expect(existsSync(path.join(target, "pgdata"))).toBe(false);
    expect(readdirSync(target).filter((n) => n.startsWith("pgdata"))).toEqual([]);

    const memory = await adminCli(["backup", file], cliEnv(":memory:"));
    expect(memory.code).toBe(1);
    expect(memory.err).toContain("DATA_DIR is :memory:");
  });
});
