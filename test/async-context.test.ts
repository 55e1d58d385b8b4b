import { execFileSync } from "node:child_process";
import { AsyncLocalStorage, AsyncResource } from "node:async_hooks";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { leanBind, leanSnapshot } from "@/lib/runtime/async-context";

describe("AsyncLocalStorage snapshot/bind without per-call maps (lib/runtime/async-context.ts)", () => {
  it("snapshot runs a function, with its arguments, in the context captured when it was taken", () => {
    const als = new AsyncLocalStorage<string>();
    const snap = als.run("captured", () => leanSnapshot());
    const seen = als.run("current", () => snap((a: number, b: number) => `${als.getStore()} ${a + b}`, 2, 3));
    expect(seen).toBe("captured 5");
    expect(als.run("current", () => als.getStore())).toBe("current");
  });

  it("bind keeps `this`, the arguments and the captured context, and adds no asyncResource property", () => {
    const als = new AsyncLocalStorage<string>();
    const bound = als.run("captured", () =>
      leanBind(function (this: { n: number }, k: number) {
        return `${als.getStore()} ${this.n * k}`;
      }),
    );
    expect(als.run("other", () => bound.call({ n: 4 }, 5))).toBe("captured 20");
    expect("asyncResource" in bound).toBe(false);
  });

  // Only Nodes whose AsyncResource.bind adds the deprecated accessor (20) have the defect; on the
  // others installLeanAsyncContextCapture() leaves AsyncLocalStorage as it is.
  const nodeAddsAccessor = "asyncResource" in AsyncResource.bind(() => {});

  it.runIf(nodeAddsAccessor)("once installed, a snapshot no longer keeps what its context holds alive through young-generation collections", () => {
    // Node's own snapshot() keeps the captured stores (here 200 × 20 KB) until a full collection:
    // they survive two scavenges and land in old space. Measured in a child with --expose-gc.
    const script = `
      const { AsyncLocalStorage } = require("node:async_hooks");
      if (process.argv.includes("lean")) require(${JSON.stringify(path.resolve("lib/runtime/async-context.ts"))}).installLeanAsyncContextCapture();
      const v8 = require("node:v8");
      const old = () => v8.getHeapSpaceStatistics().find((s) => s.space_name === "old_space").space_used_size;
      const als = new AsyncLocalStorage();
      globalThis.gc(); const before = old();
      for (let i = 0; i < 200; i++) als.run({ big: new Array(2500).fill(i) }, () => { AsyncLocalStorage.snapshot(); });
      globalThis.gc({ type: "minor" }); globalThis.gc({ type: "minor" });
      console.log(old() - before);`;
    const grew = (mode: string) =>
      Number(execFileSync(process.execPath, ["--expose-gc", "--import", "tsx", "-e", script, mode], { encoding: "utf8" }).trim());
    const MB = 1024 * 1024;
    expect(grew("node")).toBeGreaterThan(2 * MB);
    expect(grew("lean")).toBeLessThan(0.5 * MB);
  });
});
