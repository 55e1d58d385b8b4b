import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { RunResult } from "../report";
import type { LatencyFigures } from "./latency";
import type { ScanFigures } from "./scan-figures";

export type ChainsResult = {
  /** Free text about the run. */
  note?: string;
  startedAt: string;
  database: "pglite" | "postgres";
  machine: RunResult["machine"];
  nodes: Record<string, string>;
  /** The 1/5/15-minute load averages at the start, after the latency part and at the end. */
  load: { start: number[]; afterLatency?: number[]; end?: number[] };
  latency?: LatencyFigures;
  scan?: ScanFigures;
};

const DB_NAME = { pglite: "PGlite (embedded)", postgres: "PostgreSQL" };
const pad = (s: string | number, n: number) => (String(s).length >= n ? String(s) : " ".repeat(n - String(s).length) + String(s));
const ms = (v: number) => (!Number.isFinite(v) ? "—" : v < 10 ? v.toFixed(1) : v.toFixed(0));
const n = (v: number) => v.toLocaleString("en");
const ratio = (a: number, b: number | undefined) => (b === undefined || !Number.isFinite(a / b) ? "—" : (a / b).toFixed(2));

export function chainsTable(r: ChainsResult): string {
  const out = [`Chain watchers · ${DB_NAME[r.database]} · ${Object.values(r.nodes).join(", ")} · load ${r.load.start.join(" ")} → ${(r.load.end ?? []).join(" ")}`];
  const l = r.latency;
  if (l) {
    out.push(
      "",
      `latency, ms: block mined (Litecoin PENDING: broadcast) → webhook received; ${l.samplesPerChain} payments per chain (poll ${l.pollMs / 1000} s, runner ${l.runnerMs} ms; a step every ${l.stepMs[0] / 1000}-${l.stepMs[1] / 1000} s)`,
      `${"".padEnd(53)}│ total p50   p99   max │ wait p50   p99 │ tick→change p50  p99 │ change→arrival p50  p99`,
    );
    for (const row of l.rows) {
      out.push(
        `${`${row.chain} ${row.from} (${row.count})`.padEnd(53)}│ ${pad(ms(row.total.p50), 9)} ${pad(ms(row.total.p99), 5)} ${pad(ms(row.total.max), 5)} │ ${pad(ms(row.wait.p50), 8)} ${pad(ms(row.wait.p99), 5)} │ ${pad(ms(row.processing.p50), 15)} ${pad(ms(row.processing.p99), 4)} │ ${pad(ms(row.delivery.p50), 18)} ${pad(ms(row.delivery.p99), 4)}`,
      );
    }
    out.push(`follow-chains ticks (${[...new Set(l.rows.map((row) => row.chain))].length > 1 ? "the chains at once" : "one chain"}): ${l.ticks.count}, p50 ${ms(l.ticks.p50)} ms, p99 ${ms(l.ticks.p99)} ms, max ${ms(l.ticks.max)} ms`);
    if (l.missing.length) out.push(`missing webhooks: ${l.missing.join("; ")}`);
  }
  const s = r.scan;
  if (s) {
    for (const c of s.chains) {
      out.push(
        "",
        `${c.chain}: tick cost by watched addresses, ms (blocks of ${c.traffic ?? `${c.txsPerBlock} transactions to random addresses`}; "paid": + ${c.watchedPerBlock} to watched ones, "+ payments" what they add to a 1-block tick)`,
        `${pad("watched", 8)} │ load: query  Set │ idle tick p50  p99 │ 1-block tick p50  p99 │ 10-block tick │ per block  RPC  read  CPU │ paid tick p50  p99 │ + payments │ set read whole each tick: idle p50  1-block p50 │ kept ÷ whole: idle 1-block`,
      );
      for (const z of c.sizes) {
        out.push(
          `${pad(n(z.watched), 8)} │ ${pad(ms(z.loadQueryMs), 11)} ${pad(ms(z.loadBuildMs), 4)} │ ${pad(ms(z.idleTick.p50), 13)} ${pad(ms(z.idleTick.p99), 4)} │ ${pad(ms(z.scanTick.p50), 16)} ${pad(ms(z.scanTick.p99), 4)} │ ${pad(ms(z.tenBlockTickMs), 13)} │ ${pad(ms(z.scanPerBlockMs), 9)} ${pad(ms(z.scanRpcMs), 4)} ${pad(ms(z.blockReadMs), 5)} ${pad(ms(z.scanPerBlockCpuMs ?? NaN), 4)} │ ${pad(ms(z.paidTick.p50), 13)} ${pad(ms(z.paidTick.p99), 4)} │ ${pad(ms(z.paidPerBlockMs), 10)} │ ${pad(ms(z.idleTickReloading?.p50 ?? NaN), 31)} ${pad(ms(z.scanTickReloading?.p50 ?? NaN), 12)} │ ${pad(ratio(z.idleTick.p50, z.idleTickReloading?.p50), 17)} ${pad(ratio(z.scanTick.p50, z.scanTickReloading?.p50), 7)}`,
        );
      }
      if (c.blockRead) {
        const b = c.blockRead;
        out.push(`  one block's getblock … 2: ${n(b.bytes)} bytes; answer ${ms(b.fetchMs)} ms, parsed by lossless-json ${ms(b.losslessParseMs)} ms (JSON.parse ${ms(b.jsonParseMs)} ms)`);
      }
      if (c.tronRead) {
        const t = c.tronRead;
        out.push(
          `  one block's reads (${t.txs} transactions): getblock with them ${n(t.blockBytes)} bytes, gettransactioninfobyblocknum ${n(t.infosBytes)} bytes;` +
            ` the node's answers ${ms(t.nodeMs)} ms (served in this process), through the watcher's client ${ms(t.clientMs)} ms`,
        );
      }
      if (c.recent) {
        const k = c.recent;
        out.push(
          `  recently closed: a block tick (no watched payment in it) p50 ${ms(k.without.p50)} ms; with ${n(k.paid)} payments closed within the late-payment window ${ms(k.with.p50)} ms` +
            ` (${k.reconciledWith} reconciled per tick): ${k.perPaidPaymentMs} ms per such payment per block`,
        );
      }
      if (c.fresh) {
        const k = c.fresh;
        out.push(`  charges made in the last minute (read again by every tick): idle tick p50 ${ms(k.without.p50)} ms; with ${n(k.charges)} such ${ms(k.with.p50)} ms`);
      }
      if (c.catchUp) {
        const k = c.catchUp;
        out.push(
          `  catch-up: ${n(k.blocks)} blocks (${k.txsPerBlock} transactions each) with ${n(k.watched)} watched, one tick: ${k.seconds.toFixed(2)} s = ${n(k.blocksPerSecond)} blocks/s, ${k.transfers} transfers found` +
            ` (RPC ${(Object.values(k.rpc).reduce((a, x) => a + x.ms, 0) / 1000).toFixed(2)} s${k.cpuSeconds === undefined ? "" : `; this process's CPU ${k.cpuSeconds.toFixed(2)} s`})`,
        );
      }
    }
  }
  return out.join("\n");
}

/** Appends the run to bench/results/<date>-chains.json (one file per day, one entry per run). */
export function writeChainsResult(r: ChainsResult): string {
  const dir = path.join(import.meta.dirname, "..", "results");
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${r.startedAt.slice(0, 10)}-chains.json`);
  const existing = existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as { runs: ChainsResult[] }) : { runs: [] };
  existing.runs.push(r);
  writeFileSync(file, JSON.stringify(existing, (_, v) => (typeof v === "bigint" ? v.toString() : v), 2) + "\n");
  return path.relative(process.cwd(), file);
}
