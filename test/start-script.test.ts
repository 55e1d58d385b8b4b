import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

/**
 * `npm start` (scripts/start.mjs) in a scratch copy of the project whose `next` is a stand-in
 * that records how it was called: the embedded default builds when there is no build, a
 * DATABASE_URL deployment never does.
 */
const dir = mkdtempSync(path.join(tmpdir(), "start-script-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

mkdirSync(path.join(dir, "scripts"));
for (const f of ["start.mjs", "build-freshness.mjs", "server-node-flags.mjs"]) copyFileSync(path.resolve("scripts", f), path.join(dir, "scripts", f));
mkdirSync(path.join(dir, "node_modules/next/dist/bin"), { recursive: true });
const calls = path.join(dir, "calls.txt");
writeFileSync(
  path.join(dir, "node_modules/next/dist/bin/next"),
  `require("node:fs").appendFileSync(${JSON.stringify(calls)}, process.argv.slice(2).join(" ") + "\\n"); process.exit(3);`,
);

function start(env: Record<string, string | undefined>) {
  rmSync(calls, { force: true });
  const { DATABASE_URL: _ignored, ...base } = process.env;
  const r = spawnSync(process.execPath, [path.join(dir, "scripts", "start.mjs")], { env: { ...base, ...env }, encoding: "utf8" });
  const called = (() => {
    try {
      return readFileSync(calls, "utf8");
    } catch {
      return "";
    }
  })();
  return { status: r.status, out: r.stdout + r.stderr, called };
}

describe("npm start", () => {
  it("with DATABASE_URL and no build: refuses, names `npm run build`, compiles nothing", () => {
    const r = start({ DATABASE_URL: "postgres://db.invalid/payments" });
    expect(r.status).toBe(1);
    expect(r.out).toMatch(/no build found.*npm run build/s);
    expect(r.called).toBe("");
  });

  it("the embedded default builds first when there is no build", () => {
    const r = start({});
    expect(r.called).toBe("build\n");
    expect(r.out).toMatch(/Building \(no build found/);
    expect(r.status).toBe(3); // the stand-in build fails, so the server is not started
  });
});
