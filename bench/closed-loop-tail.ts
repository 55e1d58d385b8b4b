/**
 * Why the p99 at 32 connections is about twice the mean, on any route: a bare `node:http` server
 * (bench/bare-server.mjs, a fixed CPU cost per request, no framework, no database) driven the
 * way `npm run bench` drives the service (autocannon, keep-alive, one request per connection in
 * flight). With all connections busy, the mean latency is connections ÷ rate (Little's law); what
 * this prints is how the latencies spread around it, and how that depends on when the answers
 * are written. docs/performance.md (What bounds each figure) says what they mean.
 *
 *   npx tsx bench/closed-loop-tail.ts [--cost-ms 1] [--connections 1,8,32] [--duration 8]
 */
import { fork } from "node:child_process";
import { parseArgs } from "node:util";
import { percentile, session, type Scenario } from "./load";
import { processCpuMs } from "./server";

const { values } = parseArgs({
  options: {
    "cost-ms": { type: "string", default: "1" },
    connections: { type: "string", default: "1,8,32" },
    duration: { type: "string", default: "8" },
  },
});
const costMs = Number(values["cost-ms"]);
const connectionCounts = values.connections.split(",").map(Number);
const seconds = Number(values.duration);

const ms = (x: number) => x.toFixed(x < 10 ? 2 : 1).padStart(6);

async function startBare(write: "inline" | "deferred") {
  const child = fork(new URL("./bare-server.mjs", import.meta.url), { env: { ...process.env, COST_MS: String(costMs), WRITE: write } });
  const { port } = await new Promise<{ port: number }>((resolve) => child.once("message", resolve as (m: unknown) => void));
  return { url: `http://127.0.0.1:${port}`, pid: child.pid, stop: () => child.kill() };
}

const scenario: Scenario = { name: "bare", method: "GET", next: () => ({ path: "/" }) };

console.log(`bare node:http, ${costMs} ms of CPU per request, ${seconds} s per measurement (after a warm-up on the same connections)`);
console.log("write     conn   req/s  conn÷rate ms    p50    p90    p99  p99÷mean  over 1.5×p50  server CPU ms/req");
for (const write of ["inline", "deferred"] as const) {
  const server = await startBare(write);
  const cpu = { server: () => processCpuMs(server.pid), thread: () => NaN, db: () => NaN };
  try {
    for (const connections of connectionCounts) {
      const [s] = await session(server.url, connections, scenario, [{ scenario, seconds }], cpu);
      const sorted = [...s.latencies].sort((a, b) => a - b);
      const rate = sorted.length / s.seconds;
      const mean = sorted.reduce((sum, x) => sum + x, 0) / sorted.length;
      const p50 = percentile(sorted, 50);
      const slow = sorted.filter((x) => x > 1.5 * p50).length / sorted.length;
      console.log(
        `${write.padEnd(9)} ${String(connections).padStart(4)} ${rate.toFixed(0).padStart(7)} ${ms((connections / rate) * 1000).padStart(12)} ` +
          `${ms(p50)} ${ms(percentile(sorted, 90))} ${ms(percentile(sorted, 99))} ${(percentile(sorted, 99) / mean).toFixed(2).padStart(9)} ` +
          `${(100 * slow).toFixed(1).padStart(12)} % ${(s.cpuMs / sorted.length).toFixed(3).padStart(18)}`,
      );
    }
  } finally {
    server.stop();
  }
}
