import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { shutdownTimeoutMs } from "@/scripts/graceful-stop.mjs";

/*
 * How the server stops on SIGTERM/SIGINT (scripts/graceful-stop.mjs, then instrumentation's step,
 * lib/background/shutdown.ts), in a real process with the embedded database in a data directory
 * and the embedded runner running (test/shutdown/server-main.ts). e2e/shutdown.spec.ts does the
 * same to the production build.
 */

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function newDataDir() {
  const dir = mkdtempSync(path.join(os.tmpdir(), "stop-test-"));
  dirs.push(dir);
  return dir;
}

type Server = { port: number; log: () => string; exited: Promise<{ code: number | null; signal: string | null }>; kill: (s: NodeJS.Signals) => void };

/** Starts test/shutdown/server-main.ts on `dataDir`; resolves once it listens. */
function start(dataDir: string, timeoutSeconds: number): Promise<Server> {
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: "development", DATA_DIR: dataDir, SHUTDOWN_TIMEOUT_SECONDS: String(timeoutSeconds) };
  for (const name of ["DATABASE_URL", "BITCOIN_RPC_URL", "LITECOIN_RPC_URL", "BITCOIN_CASH_RPC_URL", "ETHEREUM_RPC_URL", "TRON_RPC_URL"]) delete env[name];
  const child = spawn(path.resolve("node_modules/.bin/tsx"), ["test/shutdown/server-main.ts"], { env, stdio: ["ignore", "pipe", "pipe"] });
  let log = "";
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) => child.on("exit", (code, signal) => resolve({ code, signal })));
  return new Promise((resolve, reject) => {
    child.stdout.on("data", (d: Buffer) => {
      log += d;
      const port = /listening (\d+)/.exec(log)?.[1];
      if (port) resolve({ port: Number(port), log: () => log, exited, kill: (s) => child.kill(s) });
    });
    child.stderr.on("data", (d: Buffer) => (log += d));
    void exited.then(({ code }) => reject(new Error(`the server exited (${code}) before it listened:\n${log}`)));
  });
}

/** One request on a connection of its own: its status and body, or the error code of a request that got no answer. */
function call(port: number, method: string, pathAndQuery: string): Promise<{ status: number; body: string } | { error: string }> {
  return new Promise((resolve) => {
    const req = http.request({ host: "127.0.0.1", port, method, path: pathAndQuery, agent: false }, (res) => {
      let body = "";
      res.on("data", (d: Buffer) => (body += d));
      res.on("end", () => resolve({ status: res.statusCode!, body }));
      res.on("error", (e: NodeJS.ErrnoException) => resolve({ error: e.code ?? e.message }));
    });
    req.on("error", (e: NodeJS.ErrnoException) => resolve({ error: e.code ?? e.message }));
    req.end();
  });
}

async function newBusinessId(port: number): Promise<number> {
  const res = await call(port, "POST", "/businesses");
  if (!("status" in res) || res.status !== 201) throw new Error(`POST /businesses: ${JSON.stringify(res)}`);
  return JSON.parse(res.body).businessId;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("stopping the server", () => {
  it("SIGTERM: answers the requests under way, refuses new connections, stops the runner, closes the database cleanly, exits 0", async () => {
    const dataDir = newDataDir();
    let server = await start(dataDir, 10);
    const first = await newBusinessId(server.port);

    // Requests under way when the signal comes (one of them a write), and a keep-alive
    // connection that served a request before it and sits idle.
    const agent = new http.Agent({ keepAlive: true });
    const viaAgent = (path: string) =>
      new Promise<{ status: number; connection?: string } | { error: string }>((resolve) =>
        http
          .get({ host: "127.0.0.1", port: server.port, path, agent }, (r) => r.resume().on("end", () => resolve({ status: r.statusCode!, connection: r.headers.connection })))
          .on("error", (e: NodeJS.ErrnoException) => resolve({ error: e.code ?? e.message })),
      );
    await Promise.all([viaAgent("/?wait=50"), viaAgent("/?wait=50")]); // two keep-alive connections, now idle
    const underWay = [call(server.port, "POST", "/businesses?wait=800"), call(server.port, "GET", "/?wait=1200"), call(server.port, "GET", "/?wait=300")];
    // A keep-alive client's request under way is answered with `Connection: close`, so the
    // client does not send its next request on a connection about to close.
    const keptAlive = viaAgent("/?wait=600");
    await sleep(200);
    const signalled = Date.now();
    server.kill("SIGTERM");
    await sleep(100);
    const late = await call(server.port, "GET", "/");
    // The other keep-alive connection, idle when the signal came, still takes its client's next
    // request (closing it at once would reset a request sent at that moment), and answers it
    // with `Connection: close`.
    const onIdle = await viaAgent("/");
    const exit = await server.exited;
    const took = Date.now() - signalled;
    agent.destroy();

    expect(await Promise.all(underWay)).toEqual([
      { status: 201, body: JSON.stringify({ businessId: first + 1 }) },
      { status: 200, body: "ok" },
      { status: 200, body: "ok" },
    ]);
    expect(await keptAlive).toEqual({ status: 200, connection: "close" });
    expect(onIdle).toEqual({ status: 200, connection: "close" });
    expect(late).toEqual({ error: "ECONNREFUSED" });
    expect(exit, server.log()).toEqual({ code: 0, signal: null });
    expect(took).toBeGreaterThanOrEqual(800); // it waited for the slowest request…
    expect(took).toBeLessThan(5000); // …and not for the idle keep-alive connection
    expect(server.log()).toMatch(/\[server\] SIGTERM: stopping/);
    expect(server.log()).toMatch(/\[server\] stopped cleanly in \d+\.\d s/);
    expect(server.log()).not.toMatch(/embedded database: its thread stopped|failed/);

    // The next start: nothing replayed, so the ids go on where they stopped (a crash skips 32).
    server = await start(dataDir, 10);
    expect(await newBusinessId(server.port)).toBe(first + 2);
    server.kill("SIGINT");
    expect(await server.exited).toEqual({ code: 0, signal: null });
  }, 120_000);

  it("a request that outlives the bound: its connection is cut, the database still closes cleanly, exit 1 within the bound", async () => {
    const dataDir = newDataDir();
    let server = await start(dataDir, 2);
    const first = await newBusinessId(server.port);
    const hanging = call(server.port, "GET", "/?wait=30000");
    await sleep(200);
    const signalled = Date.now();
    server.kill("SIGTERM");
    const exit = await server.exited;
    const took = Date.now() - signalled;

    expect(await hanging).toEqual({ error: "ECONNRESET" });
    expect(exit, server.log()).toEqual({ code: 1, signal: null });
    expect(took).toBeLessThan(2000);
    expect(server.log()).toMatch(/requests still under way at the deadline: their connections are cut/);
    expect(server.log()).toMatch(/\[server\] stopped with work abandoned/);

    server = await start(dataDir, 2);
    expect(await newBusinessId(server.port)).toBe(first + 1);
    server.kill("SIGTERM");
    expect((await server.exited).code).toBe(0);
  }, 120_000);

  it("SHUTDOWN_TIMEOUT_SECONDS: 10 by default, a positive number of seconds", () => {
    expect(shutdownTimeoutMs({})).toBe(10_000);
    expect(shutdownTimeoutMs({ SHUTDOWN_TIMEOUT_SECONDS: "" })).toBe(10_000);
    expect(shutdownTimeoutMs({ SHUTDOWN_TIMEOUT_SECONDS: "2.5" })).toBe(2_500);
    for (const bad of ["0", "-1", "ten", "3601"]) {
      expect(() => shutdownTimeoutMs({ SHUTDOWN_TIMEOUT_SECONDS: bad })).toThrow(`SHUTDOWN_TIMEOUT_SECONDS must be a number of seconds above 0 and at most 3600, got "${bad}"`);
    }
  });
});
