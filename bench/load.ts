import type { EventEmitter } from "node:events";
import autocannon from "autocannon";

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
  serverCpuMs: () => number = () => NaN,
): Promise<Figures> {
  const cpuBefore = serverCpuMs();
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
  const cpu = serverCpuMs() - cpuBefore;
  if (non2xx > 0) console.warn(`  ! ${s.name}: ${non2xx} non-2xx answers (first: ${firstBad})`);
  latencies.sort((a, b) => a - b);
  return {
    connections,
    rps: latencies.length / result.duration,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    requests: latencies.length,
    non2xx,
    errors: result.errors,
    cpuMsPerRequest: cpu / (latencies.length + non2xx),
  };
}
