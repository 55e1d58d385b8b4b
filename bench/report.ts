import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { BackgroundFigures } from "./background";
import type { ExportFigures } from "./dashboard";
import type { Figures } from "./load";
import { NOOP } from "./scenarios";

export type SweepResult = Record<string, Figures[]>;
export type ScaleResult = { payments: number; sweep: SweepResult; rounds?: SweepResult[] }[];

export type RunResult = {
  /** Free text about the run (e.g. which version of the code it measured). */
  note?: string;
  startedAt: string;
  database: "pglite" | "postgres";
  payments: number;
  /** `--reuse-store`: the store was seeded by an earlier run (and holds what runs since wrote). */
  reusedStore?: boolean;
  secondsPerRun: number;
  /** Rounds of the sweep; `sweep` holds each figure's median round. */
  repeat?: number;
  machine: { cpus: number; cpuModel: string; memoryGb: number; node: string; loadAverage: number[] };
  /** The server measured (`--server`) and its LOG_LEVEL (info: an access line per request); absent in runs before 28 November 2026, all of bare `next start`. */
  server?: { kind: "npm-start" | "next-start"; logLevel: string };
  sweep?: SweepResult;
  /** Every round's figures when `repeat` > 1. */
  rounds?: SweepResult[];
  background?: BackgroundFigures;
  /** The dashboard's CSV export of the whole store, read once (bench/dashboard.ts). */
  dashboardExport?: ExportFigures;
  scale?: ScaleResult;
  plans?: Record<string, string>;
};

export function machine(): RunResult["machine"] {
  return {
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? "?",
    memoryGb: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    loadAverage: os.loadavg().map((l) => Math.round(l * 100) / 100),
  };
}

const DB_NAME = { pglite: "PGlite (embedded)", postgres: "PostgreSQL 15" };
const pad = (s: string, n: number) => (s.length >= n ? s : " ".repeat(n - s.length) + s);
const ms = (v: number) => (v < 10 ? v.toFixed(2) : v < 100 ? v.toFixed(1) : v.toFixed(0));
/** A share of one core's time (CPU ms ÷ wall ms) in whole per cent, without and with the sign. */
const wholePercent = (share: number | undefined) => (share === undefined ? "" : String(Math.round(share * 100)));
export const percent = (share: number) => `${wholePercent(share)} %`;

/**
 * The sweep as ONE table: per endpoint and connection count, requests/s, the ratio to the
 * no-op route's requests/s at the same concurrency (the framework's ceiling, measured in the
 * same run against the same server), and p50/p99 latency in ms. Then, at the highest
 * concurrency, CPU per request (the server process; the database) and how busy the server's
 * request thread and the database were (`thread/db %`, shares of one core): a request thread near
 * 100 % bounds the figure however idle the other core is.
 */
export function sweepTable(r: RunResult, sweep: SweepResult, title?: string): string {
  const conns = sweep[NOOP]?.map((f) => f.connections) ?? Object.values(sweep)[0].map((f) => f.connections);
  const withDb = Object.values(sweep).some((figs) => figs.some((f) => f.dbCpuMsPerRequest !== undefined));
  const withBusy = Object.values(sweep).some((figs) => figs.some((f) => f.threadBusy !== undefined));
  const ceiling = new Map((sweep[NOOP] ?? []).map((f) => [f.connections, f.rps]));
  const head = [
    pad("endpoint", 14),
    ...conns.map((c) => [pad(`${c} conn  req/s`, 13), pad("×ceil", 5), pad("p50 ms", 6), pad("p99 ms", 6)].join(" ")),
    pad(`CPU ms/req`, 10),
    ...(withDb ? [pad("db ms/req", 9)] : []),
    ...(withBusy ? [pad("thread/db %", 11)] : []),
  ].join(" │");
  const lines = [
    title ?? `${DB_NAME[r.database]} · ${r.payments.toLocaleString("en")} payments · ${r.secondsPerRun} s per measurement${(r.repeat ?? 1) > 1 ? ` · median of ${r.repeat} rounds` : ""}`,
    head,
    "─".repeat(head.length),
  ];
  for (const [name, figs] of Object.entries(sweep)) {
    const cells = figs.map((f) => {
      // The ceiling measured interleaved with this endpoint; the no-op row where there is none.
      const base = f.ceilingRps ?? ceiling.get(f.connections);
      const ratio = base ? f.rps / base : NaN;
      return [pad(f.rps.toFixed(0), 13), pad(ratio.toFixed(2), 5), pad(ms(f.p50), 6), pad(ms(f.p99), 6)].join(" ");
    });
    // At the highest concurrency: the server process's CPU per request (with PGlite it includes
    // the database's thread), the database's beside it, and how busy each was.
    const last = figs[figs.length - 1];
    const db = withDb ? [pad(last.dbCpuMsPerRequest?.toFixed(2) ?? "", 9)] : [];
    const thread = withBusy ? [pad(`${wholePercent(last.threadBusy)}/${wholePercent(last.dbBusy)}`, 11)] : [];
    lines.push([pad(name === NOOP ? "noop (ceiling)" : name, 14), ...cells, pad(last.cpuMsPerRequest.toFixed(2), 10), ...db, ...thread].join(" │"));
  }
  return lines.join("\n");
}

export function backgroundLines(b: BackgroundFigures): string {
  return [
    `background (${b.driver}):`,
    `  expireDuePayments, ${b.expiry.payments} due together: ${(b.expiry.withoutWebhookMs / 1000).toFixed(2)} s without a webhook URL, ${(b.expiry.withWebhookMs / 1000).toFixed(2)} s with one (outbox rows written)`,
    `  deliverDue: ${b.deliveries.count} deliveries in ${b.deliveries.seconds.toFixed(2)} s = ${b.deliveries.perSecond.toFixed(0)} deliveries/s`,
    `  status change → arrival (${b.lag.count} cancellations at ${b.lag.ratePerSecond}/s): p50 ${b.lag.p50Ms} ms, p99 ${b.lag.p99Ms} ms, max ${b.lag.maxMs} ms`,
  ].join("\n");
}

export function scaleTable(r: RunResult, scale: ScaleResult): string {
  const out = [`${DB_NAME[r.database]} · fetch and list at growing store sizes (p50 / p99 ms, req/s)`];
  for (const step of scale) out.push(sweepTable(r, step.sweep, `— ${step.payments.toLocaleString("en")} payments —`));
  return out.join("\n\n");
}

/** Appends the run to bench/results/<date>.json (one file per day, one entry per run). */
export function writeResult(r: RunResult): string {
  const dir = path.join(import.meta.dirname, "results");
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${r.startedAt.slice(0, 10)}.json`);
  const existing = existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as { runs: RunResult[] }) : { runs: [] };
  existing.runs.push(r);
  writeFileSync(file, JSON.stringify(existing, null, 2) + "\n");
  return path.relative(process.cwd(), file);
}
