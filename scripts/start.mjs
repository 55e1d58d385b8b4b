#!/usr/bin/env node
/**
 * `npm start`: runs the production server (scripts/server.mjs: `next start`'s work, plus answers
 * to the methods Next.js cannot take) on PORT (default 3000). The embedded default (no
 * DATABASE_URL) builds first when there is no build yet or a source file is newer than the last
 * build; with DATABASE_URL a missing or stale build stops the start with what to run instead.
 * Signals are forwarded to the server, and its exit code becomes ours. Plain Node, no
 * dependencies.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { constants } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildReason } from "./build-freshness.mjs";
import { SERVER_NODE_FLAGS } from "./server-node-flags.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const nextBin = path.join(root, "node_modules", "next", "dist", "bin", "next");
const serverScript = path.join(root, "scripts", "server.mjs");
/** Runs `node <nodeFlags> <script> <args>` with inherited stdio, forwarding SIGINT/SIGTERM; resolves to an exit code. */
function runNode(script, args, nodeFlags = []) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...nodeFlags, script, ...args], { cwd: root, stdio: "inherit", env: process.env });
    const forward = (signal) => child.kill(signal);
    const signals = ["SIGINT", "SIGTERM"];
    for (const s of signals) process.on(s, forward);
    const done = (code) => {
      for (const s of signals) process.off(s, forward);
      resolve(code);
    };
    child.on("error", (err) => {
      console.error(`Could not run ${script}: ${err.message}. Did you run \`npm install\`?`);
      done(1);
    });
    child.on("exit", (code, signal) => done(code ?? 128 + (constants.signals[signal] ?? 0)));
  });
}

async function main() {
  if (!existsSync(nextBin)) {
    console.error("Next.js is not installed: run `npm install` first.");
    return 1;
  }
  const reason = buildReason(root);
  if (reason && process.env.DATABASE_URL) {
    // A deployment builds once (`npm run build`) and starts what it built: a production start
    // never compiles, so every instance serves the same build and starts in seconds.
    console.error(`Not starting: ${reason}. With DATABASE_URL set, build first with \`npm run build\`, then \`npm start\`.`);
    return 1;
  }
  if (reason) {
    // The embedded default builds on first run, as the quick start promises.
    console.log(`Building (${reason})…`);
    const code = await runNode(nextBin, ["build"]);
    if (code !== 0) {
      console.error(`The build failed (exit code ${code}); not starting the server.`);
      return code;
    }
  }
  return runNode(serverScript, [], SERVER_NODE_FLAGS);
}

process.exitCode = await main();
