#!/usr/bin/env node
// `npm run fuzz -- --runs N [--seed S] [--no-pages] [vitest options]`: the fuzzers (test/fuzz)
// with more runs per property, or another seed, than the bounded run `npm test` does. The page
// fuzzer needs a running production server: one is built (when its build is stale) and started
// for the run, unless FUZZ_BASE_URL names one already (with FUZZ_ADMIN_TOKEN) or --no-pages skips
// it. Other arguments go to vitest (e.g. `-t listPayments` to fuzz one operation).
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import { startFuzzServer } from "./fuzz-server.mjs";

const env = { ...process.env };
const passThrough = [];
let pages = true;
const args = process.argv.slice(2);
for (let i = 0; i < args.length; i++) {
  const [flag, inline] = args[i].split(/=(.*)/s, 2);
  if (flag === "--no-pages") {
    pages = false;
    continue;
  }
  if (flag !== "--runs" && flag !== "--seed") {
    passThrough.push(args[i]);
    continue;
  }
  const value = inline ?? args[++i];
  if (!/^\d+$/.test(value ?? "")) {
    console.error(`${flag} takes a whole number, got ${JSON.stringify(value)}`);
    process.exit(2);
  }
  env[flag === "--runs" ? "FUZZ_RUNS" : "FUZZ_SEED"] = value;
}

let server;
if (pages && !env.FUZZ_BASE_URL) {
  try {
    server = await startFuzzServer();
  } catch (err) {
    console.error(`The page fuzzer's server could not start (--no-pages runs the others): ${err.message}`);
    process.exit(1);
  }
  Object.assign(env, { FUZZ_BASE_URL: server.base, FUZZ_ADMIN_TOKEN: server.adminToken, FUZZ_SERVER_LOG: server.logFile });
  console.log(`Page fuzzer: production server on ${server.base}`);
}

const vitest = path.join(path.dirname(createRequire(import.meta.url).resolve("vitest/package.json")), "vitest.mjs");
const run = spawnSync(process.execPath, [vitest, "run", "test/fuzz", ...passThrough], { stdio: "inherit", env });
await server?.stop();
process.exit(run.status ?? 1);
