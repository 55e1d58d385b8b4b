// The production server the page fuzzer (test/fuzz/pages.fuzz.test.ts) sends its requests to:
// `npm run fuzz` (scripts/fuzz.mjs) builds into a folder of its own when that build is missing or
// stale, then runs scripts/server.mjs on a free port with a fresh embedded database. Plain Node.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildReason } from "./build-freshness.mjs";
import { SERVER_NODE_FLAGS } from "./server-node-flags.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const nextBin = path.join(root, "node_modules", "next", "dist", "bin", "next");
/** Its own build folder (ignored by git, tsc and eslint): never the `.next` another server serves. */
const DIST_DIR = "node_modules/.cache/next-fuzz";

function exitOf(child) {
  return new Promise((resolve) => child.on("exit", (code, signal) => resolve(code ?? signal)));
}

/** Builds into DIST_DIR unless that build is fresh. Next adds the folder to tsconfig.json: it is put back as it was, mtime too. */
async function ensureBuild() {
  const reason = buildReason(root, DIST_DIR);
  if (!reason) return;
  console.log(`Building for the page fuzzer (${reason})…`);
  const tsconfig = path.join(root, "tsconfig.json");
  const original = readFileSync(tsconfig, "utf8");
  const { mtime } = statSync(tsconfig);
  const child = spawn(process.execPath, [nextBin, "build"], { cwd: root, env: { ...process.env, NEXT_DIST_DIR: DIST_DIR, NEXT_TELEMETRY_DISABLED: "1" }, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout.on("data", (d) => (out += d));
  child.stderr.on("data", (d) => (out += d));
  const code = await exitOf(child);
  if (readFileSync(tsconfig, "utf8") !== original) {
    writeFileSync(tsconfig, original);
    utimesSync(tsconfig, mtime, mtime);
  }
  if (code !== 0) throw new Error(`next build failed (exit ${code}):\n${out.slice(-4000)}`);
}

function freePort() {
  return new Promise((resolve) => {
    const s = http.createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/**
 * Starts the server; resolves to its base URL, admin token, log file and `stop()`. The sign-in
 * limits are raised: the fuzzer wants the code behind them (test/accounts tests the limits).
 */
export async function startFuzzServer() {
  await ensureBuild();
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "cryptopay-fuzz-"));
  const logFile = path.join(dataDir, "server.log");
  // Written by the server itself: the fuzzer reads it after a server error (and this process may block meanwhile).
  const log = openSync(logFile, "a");
  const base = `http://127.0.0.1:${port}`;
  const adminToken = `adm_${randomBytes(24).toString("base64url")}`;
  const env = {
    ...process.env,
    NEXT_DIST_DIR: DIST_DIR,
    NEXT_TELEMETRY_DISABLED: "1",
    DATABASE_URL: "",
    DATA_DIR: path.join(dataDir, "data"),
    PORT: String(port),
    PUBLIC_BASE_URL: base,
    ADMIN_TOKEN: adminToken,
    SIGN_IN_ATTEMPTS_PER_MINUTE: "10000",
    SIGN_IN_LOCKOUT_FAILURES: "10000",
    RATE_LIMIT_PER_SECOND: "1000000",
    RATE_LIMIT_BURST: "1000000",
  };
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, path.join(root, "scripts", "server.mjs")], { cwd: root, env, stdio: ["ignore", log, log] });
  closeSync(log);
  let running = true;
  const exited = exitOf(child).then(() => (running = false));
  const stop = async () => {
    if (running) child.kill("SIGTERM");
    await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
    if (running) child.kill("SIGKILL");
    rmSync(dataDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 120_000;
  while (!(await fetch(`${base}/`).then((r) => r.status < 500, () => false))) {
    if (!running || Date.now() > deadline) {
      const text = readFileSync(logFile, "utf8");
      await stop();
      throw new Error(`the fuzz server did not start:\n${text.slice(-4000)}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return { base, adminToken, logFile, stop };
}
