/**
 * How the latencies of one endpoint spread at a fixed concurrency, and whether its slow answers
 * come together (a stall of the whole server: a full garbage collection, another process taking
 * the core) or spread over the run (the order in which the server serves its connections). It
 * drives the service on a store seeded by an earlier `npm run bench -- --reuse-store` run, on one
 * set of connections (`session`, measuring the slice after a first one of 8 s), without the no-op
 * route interleaved, and prints the percentiles and the 100 ms stretches of send time holding the
 * most answers slower than 1.3 × the mean.
 * docs/performance.md (What bounds each figure) says what they mean.
 *
 *   npm run bench -- --db pglite --payments 1000000 --reuse-store --only list:status --connections 32   # seeds and keeps the store
 *   npx tsx bench/answer-times.ts [--endpoint list:status] [--connections 32] [--duration 12] [--payments 1000000] [--db pglite|postgres]
 *   BENCH_SERVER_LOG=/tmp/gc.log npx tsx bench/answer-times.ts --server-node-args=--trace-gc   # with the server's collections
 */
import { parseArgs } from "node:util";
import { percentile, session } from "./load";
import { parseOptions } from "./options";
import { scenarios } from "./scenarios";
import { startServer } from "./server";
import { pointThisProcessAt, prepareTarget, serviceEnv } from "./target";

const { values } = parseArgs({
  options: {
    endpoint: { type: "string", default: "list:status" },
    connections: { type: "string", default: "32" },
    duration: { type: "string", default: "12" },
    payments: { type: "string", default: "1000000" },
    db: { type: "string", default: "pglite" },
    "server-node-args": { type: "string", default: "" },
  },
});
/** The slice before the measured one, on the same connections. */
const WARM_UP_MS = 8_000;
const seconds = Number(values.duration);
const connections = Number(values.connections);

const o = parseOptions(["--db", values.db, "--payments", values.payments, "--reuse-store", "--skip-build"]);
const target = await prepareTarget(o.dbs[0], o);
if (!target.stored) {
  target.cleanup();
  throw new Error(`No stored ${values.db} store of ${values.payments} payments: seed one with \`npm run bench -- --db ${values.db} --payments ${values.payments} --reuse-store\` first.`);
}
pointThisProcessAt(target, o.port);
const endpoint = scenarios(target.stored.fixture).find((s) => s.name === values.endpoint);
if (!endpoint) throw new Error(`No endpoint ${values.endpoint}`);
const server = await startServer(serviceEnv(target, o.port), o.port, values["server-node-args"].split(" ").filter(Boolean));
try {
  // A first slice on the same connections lets the server's code be optimised and its heap grow
  // before the measured one (the bench's sessions run after other measurements on the same server).
  const [, measured] = await session(server.url, connections, endpoint, [
    { scenario: endpoint, seconds: WARM_UP_MS / 1000 },
    { scenario: endpoint, seconds },
  ]);
  /** [send time since the measured slice began, latency], ms. */
  const answers = measured.latencies.map((ms, i): [number, number] => [measured.sentAt[i] - WARM_UP_MS, ms]);

  const sorted = answers.map(([, ms]) => ms).sort((a, b) => a - b);
  const mean = sorted.reduce((a, b) => a + b, 0) / sorted.length;
  const at = (p: number) => percentile(sorted, p).toFixed(1);
  console.log(
    `${endpoint.name} at ${connections} connections: ${(sorted.length / measured.seconds).toFixed(0)} req/s, mean ${mean.toFixed(1)} ms (connections ÷ rate ${((connections * measured.seconds * 1000) / sorted.length).toFixed(1)})`,
  );
  console.log(`  p50 ${at(50)}  p75 ${at(75)}  p90 ${at(90)}  p95 ${at(95)}  p98 ${at(98)}  p99 ${at(99)}  p99.5 ${at(99.5)}  max ${at(100)} ms`);
  const slow = answers.filter(([, ms]) => ms > 1.3 * mean);
  const byStretch = new Map<number, number>();
  for (const [sent] of slow) {
    const stretch = Math.floor(sent / 100);
    byStretch.set(stretch, (byStretch.get(stretch) ?? 0) + 1);
  }
  const top = [...byStretch].sort((a, b) => b[1] - a[1]).slice(0, 8);
  console.log(
    `  ${slow.length} answers (${((100 * slow.length) / sorted.length).toFixed(1)} %) over 1.3 × the mean, sent in ${byStretch.size} of ${Math.round(measured.seconds * 10)} stretches of 100 ms; the most: ` +
      top.map(([s, n]) => `${(s / 10).toFixed(1)} s: ${n}`).join(", "),
  );
} finally {
  await server.stop();
  target.cleanup();
}
