#!/usr/bin/env node
// `npm run fuzz -- --runs N [--seed S] [vitest options]`: the API fuzzer (test/fuzz) with more
// runs per property, or another seed, than the bounded run `npm test` does. Other arguments
// go to vitest (e.g. `-t listPayments` to fuzz one operation).
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";

const env = { ...process.env };
const passThrough = [];
const args = process.argv.slice(2);
for (let i = 0; i < args.length; i++) {
  const [flag, inline] = args[i].split(/=(.*)/s, 2);
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

const vitest = path.join(path.dirname(createRequire(import.meta.url).resolve("vitest/package.json")), "vitest.mjs");
const run = spawnSync(process.execPath, [vitest, "run", "test/fuzz", ...passThrough], { stdio: "inherit", env });
process.exit(run.status ?? 1);
