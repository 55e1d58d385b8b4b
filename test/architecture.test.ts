import { execFile } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

/*
 * The floor plan of lib/ is held by dependency-cruiser (`npm run lint`, .dependency-cruiser.cjs).
 * These tests keep ARCHITECTURE.md's table equal to the rule file, and show on a scratch tree
 * that the rules fail a forbidden arrow and a cycle, so a rule that stopped biting is noticed.
 */

const ROOT = path.resolve(import.meta.dirname, "..");
const RULES = path.join(ROOT, ".dependency-cruiser.cjs");
const BIN = path.join(ROOT, "node_modules", "dependency-cruiser", "bin", "dependency-cruiser.mjs");
const run = promisify(execFile);

const { LIB_LAYERS } = createRequire(import.meta.url)(RULES) as { LIB_LAYERS: string[][] };

type Violation = { rule: { name: string }; from: string; to: string; cycle?: unknown[] };

async function cruise(cwd: string, targets: string[]): Promise<Violation[]> {
  const args = [BIN, "--config", path.join(cwd, ".dependency-cruiser.cjs"), "--output-type", "json", ...targets];
  // Violations exit non-zero with the report on stdout.
  const out = await run(process.execPath, args, { cwd, maxBuffer: 64 << 20 }).catch((e: { stdout?: string }) => ({ stdout: e.stdout ?? "" }));
  return (JSON.parse(out.stdout) as { summary: { violations: Violation[] } }).summary.violations;
}

/** The rows of ARCHITECTURE.md's "lib/ folders" table: layer number → folders. */
function documentedLayers(): string[][] {
  const doc = readFileSync(path.join(ROOT, "ARCHITECTURE.md"), "utf8");
  const section = doc.split(/^## /m).find((s) => s.startsWith("lib/ folders"));
  if (!section) throw new Error('ARCHITECTURE.md has no "## lib/ folders" section');
  const rows = [...section.matchAll(/^\| (\d+) \| ([^|]+) \|/gm)];
  return rows
    .sort((a, b) => Number(a[1]) - Number(b[1]))
    .map((r) => [...r[2].matchAll(/`([a-z-]+)`/g)].map((m) => m[1]));
}

const scratch: string[] = [];
afterAll(() => scratch.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** A scratch tree with the project's rules and the given files (path → source). */
function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), "floor-plan-"));
  scratch.push(dir);
  cpSync(RULES, path.join(dir, ".dependency-cruiser.cjs"));
  writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions: { baseUrl: ".", paths: { "@/*": ["./*"] } } }));
  for (const [file, source] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), source);
  }
  return dir;
}

describe("the lib/ floor plan", () => {
  it("ARCHITECTURE.md's table is the rule file's, and every lib/ folder is on it", () => {
    expect(documentedLayers()).toEqual(LIB_LAYERS);
    const folders = readdirSync(path.join(ROOT, "lib"), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);
    expect(folders.sort()).toEqual(LIB_LAYERS.flat().sort());
  });

  it("the tree as it stands breaks no rule", async () => {
    const violations = await cruise(ROOT, ["domain", "log", "db", "lib", "components", "inngest", "app", "instrumentation.ts", "proxy.ts"]);
    expect(violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`)).toEqual([]);
  });

  it("fails an arrow pointing up, one to a folder of the same layer, and one from domain/ or db/", async () => {
    const dir = tree({
      "lib/payments/schemas.ts": "export const x = 1;\n",
      "lib/http/errors.ts": 'import { x } from "@/lib/payments/schemas";\nexport const y = x;\n',
      "lib/accounts/users.ts": "export const u = 1;\n",
      "lib/wallets/derive.ts": 'import { u } from "../accounts/users";\nexport const d = u;\n',
      "domain/coins.ts": 'import { x } from "@/lib/payments/schemas";\nexport const c = x;\n',
      "db/client.ts": 'import { u } from "@/lib/accounts/users";\nexport const k = u;\n',
      // The logger is the floor db/ may use, and it imports nothing of ours.
      "db/maintenance.ts": 'import { l } from "@/log/logger";\nexport const m = l;\n',
      "log/logger.ts": 'import { k } from "@/db/client";\nexport const l = k;\n',
    });
    const found = (await cruise(dir, ["lib", "domain", "db", "log"])).map((v) => `${v.rule.name}: ${v.from} → ${v.to}`);
    expect(found.sort()).toEqual(
      [
        "db-below-lib: db/client.ts → lib/accounts/users.ts",
        "domain-is-the-leaf: domain/coins.ts → lib/payments/schemas.ts",
        "lib-layers:http: lib/http/errors.ts → lib/payments/schemas.ts",
        "lib-layers:wallets: lib/wallets/derive.ts → lib/accounts/users.ts",
        "log-is-a-floor: log/logger.ts → db/client.ts",
      ].sort(),
    );
  });

  it("fails a cycle, and a folder no layer places", async () => {
    const dir = tree({
      "lib/payments/a.ts": 'import { b } from "./b";\nexport const a = () => b;\n',
      "lib/payments/b.ts": 'import { a } from "./a";\nexport const b = () => a;\n',
      "lib/misc/helpers.ts": 'import { a } from "@/lib/payments/a";\nexport const h = a;\n',
    });
    const found = await cruise(dir, ["lib"]);
    const cycles = found.filter((v) => v.rule.name === "no-circular");
    expect(cycles.map((v) => [v.from, ...(v.cycle as { name: string }[]).map((c) => c.name)])).toEqual([
      ["lib/payments/a.ts", "lib/payments/b.ts", "lib/payments/a.ts"],
    ]);
    expect(found.filter((v) => v.rule.name === "lib-layers:unplaced").map((v) => v.from)).toEqual(["lib/misc/helpers.ts"]);
  });

  it("allows an arrow pointing down", async () => {
    const dir = tree({
      "lib/config/index.ts": "export const c = 1;\n",
      "lib/payments/create.ts": 'import { c } from "@/lib/config";\nexport const p = c;\n',
      "lib/dashboard/payments.ts": 'import { p } from "@/lib/payments/create";\nexport const d = p;\n',
    });
    expect(await cruise(dir, ["lib"])).toEqual([]);
  });
});
