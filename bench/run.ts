/**
 * `npm run bench`: builds and starts the service (`next start`), seeds payments, drives it with
 * autocannon from this process, measures background work, prints one table and writes
 * bench/results/<date>.json. `npm run bench -- --help` lists the options; docs/performance.md
 * explains the figures.
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { measureBackground } from "./background";
import { closeDb, openDb, query, vacuumAnalyze } from "./db";
import { explainLists } from "./explain";
import { measure } from "./load";
import { parseOptions, type Options } from "./options";
import { backgroundLines, machine, scaleTable, sweepTable, writeResult, type RunResult, type SweepResult } from "./report";
import { NOOP, scenarios, V1_404, type Fixture } from "./scenarios";
import { createBenchBusiness, seedPayments } from "./seed";
import { build, startServer, type Server } from "./server";
import { prepareTarget, serviceEnv, pointThisProcessAt, type Target } from "./target";

const o = parseOptions(process.argv.slice(2));

if (o.dbs.length > 1) {
  // One process per database: the service's configuration is read once per process.
  const rest = process.argv.slice(2).filter((a, i, all) => a !== "--db" && all[i - 1] !== "--db");
  if (!o.skipBuild) await build();
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
  await closeDb();
}

/** Every scenario (noop first: the ceiling) at every connection count, after a short warm-up each. */
async function sweepOnce(server: Server, fixture: Fixture, names: string[] | null, connections: number[], round: string): Promise<SweepResult> {
  const out: SweepResult = {};
  for (const s of scenarios(fixture)) {
    if (names && s.name !== NOOP && s.name !== V1_404 && !names.includes(s.name)) continue;
    await measure(server.url, s, 8, 2); // warm-up: JIT, caches, connections
    out[s.name] = [];
    for (const c of connections) {
      const f = await measure(server.url, s, c, o.duration, server.cpuMs);
      out[s.name].push(f);
      log(`${round}${s.name.padEnd(12)} ${String(c).padStart(2)} conn  ${f.rps.toFixed(0).padStart(5)} req/s  p50 ${f.p50.toFixed(2)} ms  p99 ${f.p99.toFixed(2)} ms  server CPU ${f.cpuMsPerRequest.toFixed(2)} ms/req`);
    }
  }
  return out;
}

/**
 * `--repeat N` rounds of the whole sweep, one after another, so that every endpoint and its
 * ceiling are measured N times spread over the run; each endpoint's figures at each
 * concurrency are those of its median round by requests/s. The machine's speed drifts by tens
 * of percent within minutes (docs/performance.md): one round can catch the ceiling in a slow
 * moment, the median of three rarely does. Every round's figures go to the JSON.
 */
async function sweep(server: Server, fixture: Fixture, names: string[] | null, connections: number[]): Promise<{ median: SweepResult; rounds: SweepResult[] }> {
  const rounds: SweepResult[] = [];
  for (let r = 0; r < o.repeat; r++) rounds.push(await sweepOnce(server, fixture, names, connections, o.repeat > 1 ? `round ${r + 1}/${o.repeat} ` : ""));
  const median: SweepResult = {};
  for (const name of Object.keys(rounds[0])) {
    median[name] = rounds[0][name].map((_, i) => {
      const byRate = rounds.map((round) => round[name][i]).sort((a, b) => a.rps - b.rps);
      return byRate[Math.floor((byRate.length - 1) / 2)];
    });
  }
  return { median, rounds };
}

async function withServer<T>(t: Target, fn: (server: Server) => Promise<T>): Promise<T> {
  const server = await startServer(serviceEnv(t, o.port), o.port, o.serverNodeArgs);
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
    secondsPerRun: opts.duration,
    repeat: opts.repeat,
    machine: machine(),
  };
  try {
    const db = await openDb();
    const main = await createBenchBusiness(db, "Bench shop");
    await closeDb();
    const fixture: Fixture = { ...main, paymentIds: [], anchor: new Date() };
    log(`${kind}: ${target.databaseUrl ?? target.dataDir}`);

    if (opts.scale) {
      result.scale = [];
      let seeded = 0;
      for (const size of opts.scale) {
        await seedTo(fixture, seeded + 1, size);
        seeded = size;
        const names = ["fetch", "list", "list:status", "list:search", "list:time"];
        const s = await withServer(target, (server) => sweep(server, fixture, names, opts.scaleConnections));
        result.scale.push({ payments: size, sweep: s.median, ...(opts.repeat > 1 ? { rounds: s.rounds } : {}) });
      }
      const db2 = await openDb();
      result.plans = await explainLists(db2, fixture.businessId, fixture.anchor);
      await closeDb();
      console.log(`\n${scaleTable(result, result.scale)}\n`);
    } else {
      await seedTo(fixture, 1, opts.payments);
      const s = await withServer(target, (server) => sweep(server, fixture, opts.only, opts.connections));
      result.sweep = s.median;
      if (opts.repeat > 1) result.rounds = s.rounds;
      if (opts.background) {
        const db3 = await openDb();
        result.background = await measureBackground(db3, main, { expiring: 10_000, lagEvents: 500, lagRate: 100 });
        await closeDb();
      }
      console.log(`\n${sweepTable(result, result.sweep)}`);
      if (result.background) console.log(`\n${backgroundLines(result.background)}`);
    }
    console.log(`\nraw figures: ${writeResult(result)}`);
  } finally {
    target.cleanup();
  }
}

await main(o);
process.exit(0);
