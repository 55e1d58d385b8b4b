import type { EventEmitter } from "node:events";
import autocannon from "autocannon";
import type { CpuMeters } from "./server";

const NO_METERS: CpuMeters = { server: () => NaN, thread: () => NaN, db: () => NaN };

/** One measurement: successful requests per second and latency percentiles in ms. */
export type Figures = {
  connections: number;
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  non2xx: number;
  errors: number;
  /** Server CPU time per request (user + system of the server process), ms; with PGlite it includes the database. */
  cpuMsPerRequest: number;
  /**
   * The database's CPU time per request: a local PostgreSQL's (every `postgres` process), or
   * PGlite's thread's (part of the server's `cpuMsPerRequest` too); absent for a remote database.
   */
  dbCpuMsPerRequest?: number;
  /**
   * How busy the server's request thread was over the measurement: its CPU time ÷ the wall time
   * (1 = always running). Near 1, that one thread bounds the figure, whatever the cores around it do.
   */
  threadBusy?: number;
  /** The database's CPU time ÷ the wall time, in cores (PGlite's thread: at most 1). */
  dbBusy?: number;
  /**
   * The no-op route's requests/s measured interleaved with this endpoint (see `measurePaired` in
   * run.ts): the ceiling its `×ceil` ratio divides by. Absent for the no-op route itself and in
   * runs without pairing (the scaling run), where the ratio uses the no-op row.
   */
  ceilingRps?: number;
};

/** One autocannon run's raw figures; `figuresOf` pools several into one measurement. */
export type Sample = {
  latencies: number[];
  seconds: number;
  non2xx: number;
  errors: number;
  cpuMs: number;
  threadCpuMs: number;
  dbCpuMs: number;
};

export type Scenario = {
  name: string;
  method: "GET" | "POST" | "PUT";
  /** Called for every request: path (and body) may differ each time. */
  next: () => { path: string; body?: string };
  headers?: Record<string, string>;
  /** A status other than 2xx that counts as a success (a reference route answering 404). */
  okStatus?: number;
};

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/**
 * Drives the server with autocannon for `seconds` at `connections` concurrent connections
 * (keep-alive, no pipelining). Latencies are every 2xx response's own time (autocannon's
 * histogram rounds to whole ms; sub-ms figures matter at one connection).
 */
export async function measure(
  url: string,
  s: Scenario,
  connections: number,
  seconds: number,
  cpu: CpuMeters = NO_METERS,
): Promise<Figures> {
  return figuresOf(connections, [await sample(url, s, connections, seconds, cpu)]);
}

/** Figures of one or more samples taken at the same concurrency, pooled: all requests over all their time. */
export function figuresOf(connections: number, samples: Sample[]): Figures {
  const latencies = samples.flatMap((x) => x.latencies).sort((a, b) => a - b);
  const sum = (f: (x: Sample) => number) => samples.reduce((acc, x) => acc + f(x), 0);
  const non2xx = sum((x) => x.non2xx);
  const dbCpu = sum((x) => x.dbCpuMs) / (latencies.length + non2xx);
  const wallMs = sum((x) => x.seconds) * 1000;
  const threadBusy = sum((x) => x.threadCpuMs) / wallMs;
  return {
    connections,
    rps: latencies.length / sum((x) => x.seconds),
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    requests: latencies.length,
    non2xx,
    errors: sum((x) => x.errors),
    cpuMsPerRequest: sum((x) => x.cpuMs) / (latencies.length + non2xx),
    ...(Number.isFinite(dbCpu) ? { dbCpuMsPerRequest: dbCpu, dbBusy: sum((x) => x.dbCpuMs) / wallMs } : {}),
    ...(Number.isFinite(threadBusy) ? { threadBusy } : {}),
  };
}

export async function sample(
  url: string,
  s: Scenario,
  connections: number,
  seconds: number,
  cpu: CpuMeters = NO_METERS,
): Promise<Sample> {
  const cpuBefore = cpu.server();
  const threadBefore = cpu.thread();
  const dbBefore = cpu.db();
  const latencies: number[] = [];
  let non2xx = 0;
  let firstBad: string | undefined;
  // Without a callback autocannon returns its tracker: an EventEmitter that is also a promise of the result.
  const instance = autocannon({
    url,
    connections,
    duration: seconds,
    pipelining: 1,
    timeout: 30,
    requests: [
      {
        method: s.method,
        setupRequest: (req) => {
          const { path, body } = s.next();
          return {
            ...req,
            path,
            headers: { ...s.headers, ...(body !== undefined ? { "content-type": "application/json" } : {}) },
            ...(body !== undefined ? { body } : {}),
          };
        },
      },
    ],
  }) as unknown as EventEmitter & Promise<autocannon.Result>;
  instance.on("response", (_client: unknown, statusCode: number, _bytes: number, ms: number) => {
    if ((statusCode >= 200 && statusCode < 300) || statusCode === s.okStatus) latencies.push(ms);
    else {
      non2xx++;
      firstBad ??= `HTTP ${statusCode}`;
    }
  });
  const result = await instance;
  const cpuMs = cpu.server() - cpuBefore;
  const threadCpuMs = cpu.thread() - threadBefore;
  const dbCpuMs = cpu.db() - dbBefore;
  if (non2xx > 0) console.warn(`  ! ${s.name}: ${non2xx} non-2xx answers (first: ${firstBad})`);
  return { latencies, seconds: result.duration, non2xx, errors: result.errors, cpuMs, threadCpuMs, dbCpuMs };
}
