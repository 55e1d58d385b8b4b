import { describe, expect, it } from "vitest";
import { figuresOf, type Sample } from "@/bench/load";

const sample = (over: Partial<Sample>): Sample => ({
  latencies: [1, 2, 3, 4],
  seconds: 2,
  non2xx: 0,
  errors: 0,
  cpuMs: 0,
  threadCpuMs: 0,
  dbCpuMs: 0,
  ...over,
});

describe("bench figures", () => {
  it("pools samples into CPU per request and how busy the request thread and the database were", () => {
    const f = figuresOf(32, [
      sample({ seconds: 2, cpuMs: 2_400, threadCpuMs: 1_800, dbCpuMs: 400 }),
      sample({ seconds: 3, cpuMs: 3_600, threadCpuMs: 2_700, dbCpuMs: 600 }),
    ]);
    expect(f.requests).toBe(8);
    expect(f.rps).toBeCloseTo(8 / 5);
    expect(f.cpuMsPerRequest).toBeCloseTo(6_000 / 8);
    expect(f.dbCpuMsPerRequest).toBeCloseTo(1_000 / 8);
    expect(f.threadBusy).toBeCloseTo(4_500 / 5_000);
    expect(f.dbBusy).toBeCloseTo(1_000 / 5_000);
  });

  it("leaves out what was not metered (no /proc, a remote database)", () => {
    const f = figuresOf(8, [sample({ threadCpuMs: NaN, dbCpuMs: NaN })]);
    expect(f).not.toHaveProperty("threadBusy");
    expect(f).not.toHaveProperty("dbBusy");
    expect(f).not.toHaveProperty("dbCpuMsPerRequest");
  });
});
