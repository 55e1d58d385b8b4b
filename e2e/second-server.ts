import { execFile, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import type { OutgoingEvent } from "../lib/background/driver";

/**
 * What e2e/background-wiring.spec.ts runs beside the e2e server: a second server process of the
 * same production build with settings of its own, an Inngest stand-in that records the events the
 * server sends, a recording proxy, and the admin CLI.
 */

const ROOT = path.resolve(import.meta.dirname, "..");

async function listen(server: http.Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

function close(server: http.Server): Promise<void> {
  return new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
}

async function freePort(): Promise<number> {
  const server = http.createServer();
  const port = await listen(server);
  await close(server);
  return port;
}

/**
 * Inngest's event API as the SDK reaches it with INNGEST_DEV=<url>: `POST <url>/e/<event key>`
 * with a JSON array of events, answered `{ ids, status: 200 }`. Keeps every event; anything else
 * asked of it is kept in `other` and answered 404.
 */
export async function startInngestMock() {
  const events: OutgoingEvent[] = [];
  const other: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      if (req.method !== "POST" || !/^\/e\/[^/]+$/.test(req.url ?? "")) {
        other.push(`${req.method} ${req.url}`);
        return void res.writeHead(404).end();
      }
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as OutgoingEvent | OutgoingEvent[];
      const batch = Array.isArray(body) ? body : [body];
      events.push(...batch);
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ ids: batch.map((e) => e.id), status: 200 }));
    });
  });
  const port = await listen(server);
  return { url: `http://127.0.0.1:${port}`, events, other, close: () => close(server) };
}

/** Forwards every request to `target` and keeps its method and path: who asked the server what. */
export async function startRecordingProxy(target: string) {
  const seen: string[] = [];
  const server = http.createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    const upstream = http.request(new URL(req.url ?? "/", target), { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on("error", (e) => res.writeHead(502).end(e.message));
    req.pipe(upstream);
  });
  const port = await listen(server);
  return { url: `http://127.0.0.1:${port}`, seen, close: () => close(server) };
}

export type SecondServer = Awaited<ReturnType<typeof startSecondServer>>;

/**
 * `node scripts/server.mjs` on the build the e2e webServer made, on a free port, with a fresh
 * embedded database in a temporary DATA_DIR (or `opts.dataDir`, kept: a restart finds its data)
 * and `env` on top. Resolves once it answers.
 */
export async function startSecondServer(env: Record<string, string>, opts: { dataDir?: string; port?: number } = {}) {
  const port = opts.port ?? (await freePort());
  const dataDir = opts.dataDir ?? mkdtempSync(path.join(os.tmpdir(), "cryptopay-wiring-"));
  const base = `http://localhost:${port}`;
  const childEnv: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(childEnv)) if (name.startsWith("INNGEST_")) delete childEnv[name];
  Object.assign(childEnv, { DATABASE_URL: "", DATA_DIR: dataDir, PORT: String(port), PUBLIC_BASE_URL: base, ...env });
  const child = spawn(process.execPath, ["scripts/server.mjs"], { cwd: ROOT, env: childEnv, stdio: ["ignore", "pipe", "pipe"] });
  let log = "";
  child.stdout.on("data", (d: Buffer) => (log += d.toString("utf8")));
  child.stderr.on("data", (d: Buffer) => (log += d.toString("utf8")));
  /** The exit code, or the signal that ended it. */
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on("exit", (code, signal) => resolve({ code, signal })),
  );
  let running = true;
  void exited.then(() => (running = false));

  const stop = async () => {
    if (running) child.kill("SIGTERM");
    await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
    if (running) child.kill("SIGKILL");
    if (!opts.dataDir) rmSync(dataDir, { recursive: true, force: true });
  };

  const deadline = Date.now() + 90_000;
  for (;;) {
    if (!running) {
      await stop();
      throw new Error(`the second server stopped before it answered:\n${log}`);
    }
    const ok = await fetch(`${base}/`).then((r) => r.status < 500, () => false);
    if (ok) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the second server did not answer within 90 s:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return { base, port, log: () => log, stop, exited, kill: (signal: NodeJS.Signals) => child.kill(signal) };
}

/** `npm run admin -- <args>` (scripts/admin.ts) with BASE_URL and ADMIN_TOKEN; resolves to its printed JSON. */
export async function runAdminCli(args: string[], env: { BASE_URL: string; ADMIN_TOKEN: string }): Promise<any> {
  const { stdout } = await promisify(execFile)("npm", ["run", "--silent", "admin", "--", ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    timeout: 60_000,
  });
  return JSON.parse(stdout);
}
