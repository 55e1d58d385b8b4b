import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { FILES, ORIGINAL as CACHED, PATCHED, installedRuntimeDir, patchNextRuntimes } from "../scripts/patch-next.mjs";

describe("postinstall patch of Next.js's route-handler runtime (scripts/patch-next.mjs)", () => {
  it("is applied to the installed Next.js: no per-request WeakMap cache of route params", () => {
    const dir = installedRuntimeDir();
    for (const name of FILES) {
      const text = readFileSync(path.join(dir, name), "utf8");
      expect(text).not.toContain(CACHED);
      expect(text).toContain(PATCHED);
    }
  });

  it("replaces exactly the cache, once, and leaves a patched file alone", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "patch-next-"));
    for (const name of FILES) writeFileSync(path.join(dir, name), `a();${CACHED}let rV=new WeakMap;b();`);
    expect(patchNextRuntimes(dir)).toEqual(FILES.map((f) => `${f}: patched`));
    const once = readFileSync(path.join(dir, FILES[0]), "utf8");
    expect(once).toBe("a();function rJ(e){/* scripts/patch-next.mjs: no WeakMap cache */return Promise.resolve(e)}let rV=new WeakMap;b();");
    expect(patchNextRuntimes(dir)).toEqual(FILES.map((f) => `${f}: already patched`));
    expect(readFileSync(path.join(dir, FILES[0]), "utf8")).toBe(once);
  });

  it("fails loudly when Next.js's code no longer matches (an upgrade)", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "patch-next-"));
    for (const name of FILES) writeFileSync(path.join(dir, name), "function rJ(e){return somethingElse(e)}");
    expect(() => patchNextRuntimes(dir)).toThrow(/does not contain the expected createServerParamsForRoute cache/);
    // Twice is as unexpected as never: which one would be the route params' cache?
    for (const name of FILES) writeFileSync(path.join(dir, name), `${CACHED};${CACHED}`);
    expect(() => patchNextRuntimes(dir)).toThrow(/exactly once/);
    expect(readFileSync(path.join(dir, FILES[0]), "utf8")).toBe(`${CACHED};${CACHED}`);
  });
});
