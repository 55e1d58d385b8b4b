/**
 * `npm run bench`: builds and starts the service (`next start`), seeds payments, drives it with
 * autocannon from this process, measures background work, prints one table and writes
 * bench/results/<date>.json. `npm run bench -- --help` lists the options; docs/performance.md
 * explains the figures.
 */
import { execFileSync, spawnSync } from "node:child_process";
import path from "node:path";
import { measureBackground } from "./background";
import { dashboardCookie, ensureDashboardUser, exportLine, measureExport } from "./dashboard";
import { checkpoint, closeDb, openDb, query, vacuumAnalyze } from "./db";
import { explainLists } from "./explain";
import { figuresOf, measure, session, type Figures, type Sample, type Scenario } from "./load";
import { parseOptions, type Options } from "./options";
import { backgroundLines, machine, percent, scaleTable, sweepTable, writeResult, type RunResult, type SweepResult } from "./report";
import { NOOP, scenarios, V1_404, type Fixture } from "./scenarios";
import { createBenchBusiness, seedPayments } from "./seed";
import { build, postgresCpuMs, startServer, type Server } from "./server";
import { prepareTarget, serviceEnv, pointThisProcessAt, type Target } from "./target";

const o = parseOptions(process.argv.slice(2));

if (o.dbs.length > 1) {
  // One process per database: the service's configuration is read once per process.
  const rest = process.argv.slice(2).filter((a, i, all) => a !== "--db" && all[i - 1] !== "--db");
  if (!o.skipBuild && !o.chains) await build();
  for (const db of o.dbs) {
    const r = spawnSync(process.execPath, [...process.execArgv, path.join(import.meta.dirname, "run.ts"), ...rest, "--db", db, "--skip-build"], {
      stdio: "inherit",
    });
    if (r.status !== 0) process.exit(r.status ?? 1);
  }
  process.exit(0);
}

const log = (s: string) => console.log(`[bench ${new Date().toISOString().slice(11, 19)}] ${s}`);

async function seedTo(fixture: Fixture, from: number, to: number) {
  const db = await openDb();
  const t0 = performance.now();
  await seedPayments(db, { businessId: fixture.businessId, from, to, anchor: fixture.anchor, customerBase: 0 });
  await vacuumAnalyze(db);
  log(`seeded payments ${from.toLocaleString("en")}…${to.toLocaleString("en")} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  fixture.paymentIds = (
    await query<{ id: string }>(db, `select id from payments tablesample system (5) where status <> 'AWAITING_PAYMENT' limit 2000`)
  ).map((r) => r.id);
  if (fixture.paymentIds.length < 100) {
    fixture.paymentIds = (await query<{ id: string }>(db, `select id from payments order by random() limit 2000`)).map((r) => r.id);
  }
  // Seeding writes gigabytes that are not yet on disk when it ends: PostgreSQL's checkpoint after
  // a bulk load is spread over minutes, and the kernel writes
  // dirty pages back in the background. Both are forced to finish here, so that no measurement
  // shares the two cores and the disk with the seeding's write-back.
  const t1 = performance.now();
  await checkpoint(db);
  await closeDb();
  execFileSync("sync");
  log(`flushed the seeded store to disk in ${((performance.now() - t1) / 1000).toFixed(1)} s`);
}

/**
 * An endpoint and the no-op route in four slices of half the duration each, ceiling, endpoint,
 * endpoint, ceiling (ABBA), on one set of connections after a warm-up with the endpoint
 * (`session`): both are measured over the same stretch of time, and a speed drift
 * that is linear over it weighs on both alike. The machine's speed drifts by tens of percent
 * within minutes (docs/performance.md); measured minutes apart, an endpoint's ratio to the
 * ceiling was as much the machine's as the code's.
 */
async function measurePaired(server: Server, noop: Scenario, s: Scenario, c: number): Promise<{ endpoint: Figures; ceiling: Sample[] }> {
  const half = o.duration / 2;
  const [a1, b1, b2, a2] = await session(server.url, c, s, [noop, s, s, noop].map((scenario) => ({ scenario, seconds: half })), server.cpu);
  const ceiling = figuresOf(c, [a1, a2]);
  return { endpoint: { ...figuresOf(c, [b1, b2]), ceilingRps: ceiling.rps }, ceiling: [a1, a2] };
}

/** "  busy: request thread 97 %, db 35 %", with what was metered. */
function busyText(f: Figures): string {
  const parts = [
    ...(f.threadBusy !== undefined ? [`request thread ${percent(f.threadBusy)}`] : []),
    ...(f.dbBusy !== undefined ? [`db ${percent(f.dbBusy)}`] : []),
  ];
  return parts.length ? `  busy: ${parts.join(", ")}` : "";
}

/**
 * Every scenario at every connection count, after a short warm-up each. With `paired` (the
 * main sweep) each endpoint is measured interleaved with the no-op route and its ratio divides
 * by that; the no-op row pools all those ceiling slices. Without (the scaling run, which is
 * about latency against store size) the no-op route is measured once per connection count.
 */
async function sweepOnce(
  server: Server,
  fixture: Fixture,
  names: string[] | null,
  connections: number[],
  round: string,
  paired: boolean,
): Promise<SweepResult> {
  const out: SweepResult = {};
  const all = scenarios(fixture);
  const noop = all.find((s) => s.name === NOOP)!;
  const ceilings = new Map<number, Sample[]>(connections.map((c) => [c, []]));
  const show = (name: string, f: Figures) =>
    log(
      `${round}${name.padEnd(12)} ${String(f.connections).padStart(2)} conn  ${f.rps.toFixed(0).padStart(5)} req/s` +
        (f.ceilingRps ? `  ×ceil ${(f.rps / f.ceilingRps).toFixed(2)} (noop ${f.ceilingRps.toFixed(0)})` : "") +
        `  p50 ${f.p50.toFixed(2)} ms  p99 ${f.p99.toFixed(2)} ms  server CPU ${f.cpuMsPerRequest.toFixed(2)} ms/req` +
        (f.dbCpuMsPerRequest !== undefined ? `  db CPU ${f.dbCpuMsPerRequest.toFixed(2)} ms/req` : "") +
        busyText(f),
    );
  for (const s of all) {
    if (names && s.name !== NOOP && s.name !== V1_404 && !names.includes(s.name)) continue;
    if (paired && s === noop) continue; // measured with every other endpoint
    out[s.name] = [];
    for (const c of connections) {
      let f: Figures;
      if (paired) {
        const m = await measurePaired(server, noop, s, c);
        ceilings.get(c)!.push(...m.ceiling);
        f = m.endpoint;
      } else {
        f = await measure(server.url, s, c, o.duration, server.cpu);
      }
      out[s.name].push(f);
      show(s.name, f);
    }
  }
  if (paired) {
    const noopRow = connections.map((c) => figuresOf(c, ceilings.get(c)!));
    noopRow.forEach((f) => show(NOOP, f));
    return { [NOOP]: noopRow, ...out };
  }
  return out;
}

/** An endpoint's ratio to its ceiling, or its rate where it has no paired ceiling. */
const ratioOf = (f: Figures) => (f.ceilingRps ? f.rps / f.ceilingRps : f.rps);

/**
 * `--repeat N` rounds of the whole sweep, one after another; each endpoint's figures at each
 * concurrency are those of its median round by ratio to the ceiling (by requests/s where there
 * is no paired ceiling). Every round's figures go to the JSON.
 */
async function sweep(
  server: Server,
  fixture: Fixture,
  names: string[] | null,
  connections: number[],
  paired: boolean,
): Promise<{ median: SweepResult; rounds: SweepResult[] }> {
  const rounds: SweepResult[] = [];
  for (let r = 0; r < o.repeat; r++) {
    rounds.push(await sweepOnce(server, fixture, names, connections, o.repeat > 1 ? `round ${r + 1}/${o.repeat} ` : "", paired));
  }
  const median: SweepResult = {};
  for (const name of Object.keys(rounds[0])) {
    median[name] = rounds[0][name].map((_, i) => {
      const byRatio = rounds.map((round) => round[name][i]).sort((a, b) => ratioOf(a) - ratioOf(b));
      return byRatio[Math.floor((byRatio.length - 1) / 2)];
    });
  }
  return { median, rounds };
}

async function withServer<T>(t: Target, fn: (server: Server) => Promise<T>): Promise<T> {
  // A local PostgreSQL's CPU is measured too; PGlite's thread is metered inside the server process.
  const local = t.databaseUrl !== undefined && /@(127\.0\.0\.1|localhost|\[::1\])[:/]/.test(t.databaseUrl);
  const server = await startServer(serviceEnv(t, o.port), o.port, o.serverNodeArgs, local ? postgresCpuMs : undefined, o.server);
  try {
    return await fn(server);
  } finally {
    await server.stop();
  }
}

async function main(opts: Options) {
  const kind = opts.dbs[0];
  if (!opts.skipBuild) await build();
  const target = await prepareTarget(kind, opts);
  pointThisProcessAt(target, opts.port);
  const result: RunResult = {
    startedAt: new Date().toISOString(),
    database: kind,
    payments: opts.scale ? opts.scale[opts.scale.length - 1] : opts.payments,
    ...(target.stored ? { reusedStore: true } : {}),
    secondsPerRun: opts.duration,
    repeat: opts.repeat,
    machine: machine(),
    server: { kind: opts.server, logLevel: process.env.LOG_LEVEL || "info" },
  };
  try {
    let fixture: Fixture;
    if (target.stored) fixture = target.stored.fixture;
    else {
      const db = await openDb();
      fixture = { ...(await createBenchBusiness(db, "Bench shop")), paymentIds: [], anchor: new Date() };
      await closeDb();
    }
    const reused = target.stored ? ` (reused: seeded with ${opts.payments.toLocaleString("en")} payments by an earlier run)` : "";
    log(`${kind}: ${target.databaseUrl ?? target.dataDir}${reused}`);

    if (opts.scale) {
      result.scale = [];
      let seeded = 0;
      for (const size of opts.scale) {
        await seedTo(fixture, seeded + 1, size);
        seeded = size;
        const names = ["fetch", "list", "list:status", "list:search", "list:time"];
        const s = await withServer(target, (server) => sweep(server, fixture, names, opts.scaleConnections, false));
        result.scale.push({ payments: size, sweep: s.median, ...(opts.repeat > 1 ? { rounds: s.rounds } : {}) });
      }
      const db2 = await openDb();
      result.plans = await explainLists(db2, fixture.businessId, fixture.anchor);
      await closeDb();
      console.log(`\n${scaleTable(result, result.scale)}\n`);
    } else {
      if (!target.stored) {
        await seedTo(fixture, 1, opts.payments);
        target.keep(fixture);
      }
      const dbU = await openDb();
      await ensureDashboardUser(dbU, fixture.businessId);
      await closeDb();
      const s = await withServer(target, async (server) => {
        fixture.dashboardCookie = await dashboardCookie(server.url);
        const swept = await sweep(server, fixture, opts.only, opts.connections, true);
        if (!opts.only || opts.only.includes("dash:export")) {
          result.dashboardExport = await measureExport(server, fixture.dashboardCookie, fixture.businessId);
          log(exportLine(result.dashboardExport));
        }
        return swept;
      });
      result.sweep = s.median;
      if (opts.repeat > 1) result.rounds = s.rounds;
      if (opts.background) {
        const db3 = await openDb();
        result.background = await measureBackground(db3, fixture, { expiring: 10_000, lagEvents: 500, lagRate: 100 });
        await closeDb();
      }
      console.log(`\n${sweepTable(result, result.sweep)}`);
      if (result.dashboardExport) console.log(`\n${exportLine(result.dashboardExport)}`);
      if (result.background) console.log(`\n${backgroundLines(result.background)}`);
    }
    console.log(`\nraw figures: ${writeResult(result)}`);
  } finally {
    target.cleanup();
  }
}

if (o.chains) {
  // The chain watchers (bench/chains/): no server, no build.
  const { runChains } = await import("./chains/run");
  await runChains(o);
} else {
  await main(o);
}
process.exit(0);
