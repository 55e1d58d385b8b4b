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

/** One slice's raw figures (`session`); `figuresOf` pools several into one measurement. */
export type Sample = {
  latencies: number[];
  /** When each of `latencies`' requests was sent, ms since the session's first slice began. */
  sentAt: number[];
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

/** The p-th percentile (0-100) of ascending values. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/**
 * One endpoint measured for `seconds` at `connections` connections, after a warm-up on the same
 * connections (`session`).
 */
export async function measure(
  url: string,
  s: Scenario,
  connections: number,
  seconds: number,
  cpu: CpuMeters = NO_METERS,
): Promise<Figures> {
  return figuresOf(connections, await session(url, connections, s, [{ scenario: s, seconds }], cpu));
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

/** A stretch of a session: `scenario` driven for `seconds`. */
export type Slice = { scenario: Scenario; seconds: number };

/** Warm-up of a session: at least this long, and until every connection has had its first answer. */
const WARM_UP_SECONDS = 2;
/** Past this, a warm-up ends even if some connection never answered (refused, timed out): the run goes on and says so. */
const WARM_UP_LIMIT_MS = 40_000;
/** How long a session waits, after its last slice, for that slice's requests still in flight. */
const DRAIN_LIMIT_MS = 10_000;

/**
 * Drives the server with autocannon (keep-alive, one request per connection in flight) over one
 * set of `connections` connections kept open for the whole session: a warm-up with `warmUp`,
 * then each slice in turn, then a drain. Returns one sample per slice.
 *
 * Why one set of connections: a connection opened while the server is saturated gets its first
 * answer one poll round after the one opened before it, so 32 connections opened together wait
 * up to 32 rounds for their first answers (a staircase up to ~0.5 s on the no-op route here, as on
 * a bare `node:http` server: bench/closed-loop-tail.ts), while the connections already open are
 * served faster than in the steady state. Fresh connections per slice would put those 32 first
 * answers at ~1-2 % of a list's slice at 32 connections and set its p99. A merchant's client
 * keeps its connections.
 *
 * A response counts for the slice in which its request was sent: the slice's requests/s are its
 * answered requests over its length, its latencies theirs (each 2xx response's own time:
 * autocannon's histogram rounds to whole ms, and sub-ms figures matter at one connection). The CPU
 * meters are read at the slice's bounds; the ~`connections` requests in flight across a bound
 * are charged to whichever slice their CPU fell in. The drain keeps the last slice's load on until
 * every request sent in it is answered, so that none is cut off and none is left uncounted.
 */
export async function session(
  url: string,
  connections: number,
  warmUp: Scenario,
  slices: Slice[],
  cpu: CpuMeters = NO_METERS,
): Promise<Sample[]> {
  type Tag = { slice: number; scenario: Scenario };
  const WARM = -1;
  const drain = slices.length;
  let phase = WARM;
  const samples: Sample[] = slices.map(() => ({ latencies: [], sentAt: [], seconds: 0, non2xx: 0, errors: 0, cpuMs: 0, threadCpuMs: 0, dbCpuMs: 0 }));
  // Requests of the last slice sent and answered: the drain waits for the difference.
  let lastSent = 0;
  let lastAnswered = 0;
  const firstBad = new Map<string, string>();
  const scenarioOf = (p: number) => (p === WARM ? warmUp : slices[Math.min(p, drain - 1)].scenario);
  let bounds = { at: 0, server: 0, thread: 0, db: 0 };
  let firstSliceAt = 0;
  const readBounds = () => ({ at: performance.now(), server: cpu.server(), thread: cpu.thread(), db: cpu.db() });

  // Without a callback autocannon returns its tracker: an EventEmitter that is also a promise of the
  // result. It runs until `stop()`: the phases below decide when.
  const instance = autocannon({
    url,
    connections,
    duration: 24 * 3600,
    pipelining: 1,
    timeout: 30,
    requests: [
      {
        // Called for each request just before it is written, with a context of its own
        // (autocannon makes a fresh one per request when its list of one request wraps).
        setupRequest: (req, context: Partial<Tag>) => {
          const scenario = scenarioOf(phase);
          context.slice = phase;
          context.scenario = scenario;
          if (phase === drain - 1) lastSent++;
          const { path, body } = scenario.next();
          return {
            ...req,
            method: scenario.method,
            path,
            headers: { ...scenario.headers, ...(body !== undefined ? { "content-type": "application/json" } : {}) },
            ...(body !== undefined ? { body } : {}),
          };
        },
      },
    ],
  }) as unknown as EventEmitter & Promise<autocannon.Result> & { stop: () => void };

  let drained: (() => void) | undefined;
  function enter(p: number) {
    const now = readBounds();
    if (phase >= 0 && phase < drain) {
      const s = samples[phase];
      s.seconds = (now.at - bounds.at) / 1000;
      s.cpuMs = now.server - bounds.server;
      s.threadCpuMs = now.thread - bounds.thread;
      s.dbCpuMs = now.db - bounds.db;
    }
    bounds = now;
    if (p === 0) firstSliceAt = now.at;
    phase = p;
    if (p < drain) setTimeout(() => enter(p + 1), slices[p].seconds * 1000);
    else drained?.();
  }
  instance.on("response", (client: { requestIterator: { context: Tag } }, statusCode: number, _bytes: number, ms: number) => {
    const { slice, scenario } = client.requestIterator.context;
    if (slice < 0 || slice >= drain) return;
    if (slice === drain - 1) lastAnswered++;
    const s = samples[slice];
    if ((statusCode >= 200 && statusCode < 300) || statusCode === scenario.okStatus) {
      s.latencies.push(ms);
      s.sentAt.push(performance.now() - ms - firstSliceAt);
    } else {
      s.non2xx++;
      if (!firstBad.has(scenario.name)) firstBad.set(scenario.name, `HTTP ${statusCode}`);
    }
    if (phase === drain) drained?.();
  });

  const warmedUp = new Promise<void>((resolve) => {
    let timeUp = false;
    const answeredConnections = new Set<unknown>();
    const done = () => {
      instance.off("response", check);
      clearTimeout(limit);
      resolve();
    };
    const check = (client?: unknown) => {
      if (client) answeredConnections.add(client);
      if (timeUp && answeredConnections.size >= connections) done();
    };
    const limit = setTimeout(() => {
      console.warn(`  ! ${warmUp.name}: only ${answeredConnections.size} of ${connections} connections answered within the warm-up`);
      done();
    }, WARM_UP_LIMIT_MS);
    setTimeout(() => ((timeUp = true), check()), WARM_UP_SECONDS * 1000);
    instance.on("response", check);
  });
  await warmedUp;
  await new Promise<void>((resolve) => {
    const limit = setTimeout(() => {
      console.warn(`  ! ${scenarioOf(drain).name}: ${lastSent - lastAnswered} requests of the last slice still unanswered after the drain`);
      resolve();
    }, slices.reduce((t, x) => t + x.seconds * 1000, 0) + DRAIN_LIMIT_MS);
    drained = () => {
      if (phase === drain && lastAnswered >= lastSent) {
        clearTimeout(limit);
        resolve();
      }
    };
    enter(0);
  });
  instance.stop();
  const result = await instance;
  // Errors (refused connections, timeouts) are not told apart by slice: the first slice of the
  // warmed-up scenario (the endpoint) carries them, once.
  const endpointSlice = Math.max(0, slices.findIndex((x) => x.scenario === warmUp));
  samples[endpointSlice].errors = result.errors;
  for (const [name, bad] of firstBad) {
    const n = samples.reduce((sum, s, i) => sum + (slices[i].scenario.name === name ? s.non2xx : 0), 0);
    console.warn(`  ! ${name}: ${n} answers other than 2xx (first: ${bad})`);
  }
  return samples;
}
