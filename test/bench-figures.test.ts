import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { figuresOf, session, type Sample, type Scenario } from "@/bench/load";
import { randomLitecoinAddress } from "@/bench/chains/litecoin";
import { quantiles } from "@/bench/chains/stats";
import { scriptPubKeyOf } from "@/lib/chains/bitcoin/scan";

const sample = (over: Partial<Sample>): Sample => ({
  latencies: [1, 2, 3, 4],
  sentAt: [0, 1, 2, 3],
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

describe("chain watcher bench figures", () => {
  it("takes percentiles by nearest rank: of 30 latency samples the p99 is the slowest", () => {
    const q = quantiles(Array.from({ length: 30 }, (_, i) => 30 - i));
    expect(q).toMatchObject({ p50: 15, p99: 30, min: 1, max: 30, mean: 15.5 });
    expect(quantiles([NaN, 4]).p99).toBe(4);
  });

  it("seeds watched addresses the Litecoin watcher can match (regtest, segwit v0 key hash)", () => {
    const address = randomLitecoinAddress();
    expect(address).toMatch(/^rltc1q/);
    expect(scriptPubKeyOf(address)).toMatch(/^0014[0-9a-f]{40}$/);
  });
});

describe("bench session", () => {
  // A real server: /a answers 200 and /b 404, and every connection's first answer comes late.
  const FIRST_ANSWER_DELAY_MS = 1_500;
  let server: http.Server;
  let url: string;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const answer = () => res.writeHead(req.url === "/b" ? 404 : 200).end("{}");
      const socket = req.socket as typeof req.socket & { answered?: boolean };
      if (socket.answered) return answer();
      socket.answered = true;
      setTimeout(answer, FIRST_ANSWER_DELAY_MS);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const a: Scenario = { name: "a", method: "GET", next: () => ({ path: "/a" }) };
  const b: Scenario = { name: "b", method: "GET", next: () => ({ path: "/b" }), okStatus: 404 };

  it("counts each answer in the slice its request was sent in, and no connection's first answer", async () => {
    const [sa, sb, sa2] = await session(url, 4, b, [
      { scenario: a, seconds: 0.4 },
      { scenario: b, seconds: 0.4 },
      { scenario: a, seconds: 0.4 },
    ]);
    for (const [i, s] of [sa, sb, sa2].entries()) {
      // A /b answer (404) counted for an /a slice, or the reverse, would be an answer other than expected.
      expect(s.non2xx).toBe(0);
      expect(s.latencies.length).toBeGreaterThan(10);
      // The first answers (sent during the warm-up, delayed) are not among them.
      expect(Math.max(...s.latencies)).toBeLessThan(FIRST_ANSWER_DELAY_MS);
      expect(s.seconds).toBeCloseTo(0.4, 1);
      // Each answer's send time lies in its slice (0.4 s each, timers allowed a few ms late).
      expect(s.sentAt).toHaveLength(s.latencies.length);
      expect(Math.min(...s.sentAt)).toBeGreaterThanOrEqual(i * 400 - 5);
      expect(Math.max(...s.sentAt)).toBeLessThan((i + 1) * 400 + 50);
    }
  });
});
