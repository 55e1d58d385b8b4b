import { spawn, type ChildProcess } from "node:child_process";
import { appendFileSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { SERVER_NODE_FLAGS } from "../scripts/server-node-flags.mjs";

const root = path.resolve(import.meta.dirname, "..");
const nextBin = path.join(root, "node_modules", "next", "dist", "bin", "next");
/** The bench builds and serves from its own folder (ignored by git, tsc and eslint), never touching the `.next` build another server uses. */
export const DIST_DIR = "node_modules/.cache/next-bench";

function run(args: string[], env: NodeJS.ProcessEnv, quiet: boolean): ChildProcess {
  return spawn(process.execPath, args, { cwd: root, env, stdio: quiet ? ["ignore", "pipe", "pipe"] : "inherit" });
}

/**
 * `next build` (production) into DIST_DIR. Next adds the build folder's type paths to
 * tsconfig.json; the bench puts the file back as it was, so a bench run changes no tracked file.
 */
export async function build(): Promise<void> {
  const started = performance.now();
  const tsconfig = path.join(root, "tsconfig.json");
  const original = readFileSync(tsconfig, "utf8");
  const child = run([nextBin, "build"], { ...process.env, NEXT_DIST_DIR: DIST_DIR, NEXT_TELEMETRY_DISABLED: "1" }, true);
  let out = "";
  child.stdout?.on("data", (d) => (out += d));
  child.stderr?.on("data", (d) => (out += d));
  const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
  if (readFileSync(tsconfig, "utf8") !== original) writeFileSync(tsconfig, original);
  if (code !== 0) throw new Error(`next build failed (exit ${code}):\n${out.slice(-4000)}`);
  console.log(`built in ${((performance.now() - started) / 1000).toFixed(0)} s (${DIST_DIR})`);
}

/**
 * CPU meters read before and after a measurement (ms used so far; NaN where unknown): the server
 * process (all its threads), its request thread (the one JavaScript thread that serves every
 * request), and the database (a local PostgreSQL's processes, or PGlite's thread in the server).
 */
export type CpuMeters = { server: () => number; thread: () => number; db: () => number };

export type Server = { url: string; stop: () => Promise<void>; cpu: CpuMeters; /** The server process's resident memory now, in MB (NaN off Linux). */ rssMb: () => number };

/** A process's resident set size in MB, from /proc/<pid>/status; NaN when unreadable. */
function rssMbOf(pid: number | undefined): number {
  try {
    const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
    return kb ? Number(kb) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

/** A process's command name and CPU time (user + system) so far in ms, from /proc (Linux); undefined when unreadable. */
function procStat(pid: number | string | undefined): { comm: string; cpuMs: number } | undefined {
  // `pid` may also be "<pid>/task/<tid>": a thread's stat has the same fields.
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined; // not Linux, or the process exited
  }
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return {
    comm: stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")),
    cpuMs: ((Number(fields[11]) + Number(fields[12])) * 1000) / 100, // utime + stime, in USER_HZ (100/s)
  };
}

/** CPU time (user + system) the process has used so far, in ms; NaN where /proc is not there. */
export function processCpuMs(pid: number | undefined): number {
  return procStat(pid)?.cpuMs ?? NaN;
}

/** CPU time of the process's threads named `name` (`/proc/<pid>/task/*`), in ms; NaN when there is none. */
function namedThreadsCpuMs(pid: number | undefined, name: string): number {
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return NaN;
  }
  const stats = tids.map((tid) => procStat(`${pid}/task/${tid}`)).filter((t) => t?.comm === name);
  return stats.length ? stats.reduce((sum, t) => sum + t!.cpuMs, 0) : NaN;
}

/**
 * CPU time of every PostgreSQL process on this machine (comm `postgres`: the backends serving the
 * server's pool, and the background workers), from /proc, in ms; NaN elsewhere. For a database
 * on loopback this is the database's share of a measurement: on a 2-core machine the server, the
 * database and the load generator share the cores, and work moved into SQL shows up here.
 */
export function postgresCpuMs(): number {
  let pids: string[];
  try {
    pids = readdirSync("/proc").filter((p) => /^\d+$/.test(p));
  } catch {
    return NaN;
  }
  let total = 0;
  for (const pid of pids) {
    const stat = procStat(pid);
    if (stat?.comm === "postgres") total += stat.cpuMs;
  }
  return total;
}

/** Which server the bench measures: `npm start`'s (scripts/server.mjs: the method guard, request metrics, request ids and access lines) or bare `next start`. */
export type ServerKind = "npm-start" | "next-start";

/** A JSON log line's message; a line the pipe cut in two is shown as it came. */
function messageOf(line: string): string {
  try {
    return (JSON.parse(line) as { msg: string }).msg;
  } catch {
    return line;
  }
}

/** The server's last output, kept for an error message: an access line per request must not pile up for the whole run. */
const LOG_TAIL = 64 * 1024;

/**
 * The production server (NODE_ENV=production) with the service's environment and BENCH_ROUTES=1,
 * in a process of its own with the node flags `npm start` uses; resolves once the ceiling route answers.
 * `dbCpuMs` meters a local PostgreSQL; without it the database meter is PGlite's thread in the
 * server, which db/pglite-server.mjs names "pglite" (NaN when there is none: a remote database).
 */
export async function startServer(
  env: Record<string, string>,
  port: number,
  nodeArgs: string[] = [],
  dbCpuMs?: () => number,
  kind: ServerKind = "npm-start",
): Promise<Server> {
  const url = `http://127.0.0.1:${port}`;
  // The readiness check below takes whatever answers on the port; a server left running by an
  // earlier run that was cut short (Next renames its process "next-server", so `pkill -f "next
  // start"` misses it) would be measured in place of this build, and this one would exit unseen.
  const stale = await fetch(`${url}/bench/noop`).then(
    () => true,
    () => false,
  );
  if (stale) {
    throw new Error(`Something already answers on ${url} (a server left by an earlier run? \`pgrep -a next-server\`); stop it or pass --port.`);
  }
  const serverArgs = kind === "npm-start" ? [path.join(root, "scripts", "server.mjs")] : [nextBin, "start", "-p", String(port), "-H", "127.0.0.1"];
  const child = run(
    [...SERVER_NODE_FLAGS, ...nodeArgs, ...serverArgs],
    {
      ...process.env,
      DATABASE_URL: undefined,
      ...env,
      NEXT_DIST_DIR: DIST_DIR,
      NEXT_TELEMETRY_DISABLED: "1",
      BENCH_ROUTES: "1",
    },
    true,
  );
  let log = "";
  child.stdout?.on("data", (d) => {
    log = (log + d).slice(-LOG_TAIL);
    // BENCH_SERVER_LOG=file keeps what the server prints on stdout (e.g. with --server-node-args "--trace-gc").
    if (process.env.BENCH_SERVER_LOG) appendFileSync(process.env.BENCH_SERVER_LOG, d);
    // The embedded database's VACUUM and ANALYZE hold its one session for up to a second or two
    // at a million payments: shown as they come, so a measurement they fell into can be told.
    for (const line of String(d).split("\n")) {
      const said = line.includes('"component":"database"') ? messageOf(line) : line.startsWith("embedded database:") ? line : null;
      if (said) console.log(`[server ${new Date().toISOString().slice(11, 19)}] ${said}`);
    }
  });
  child.stderr?.on("data", (d) => {
    log = (log + d).slice(-LOG_TAIL);
    // Requests cut off when a measurement ends ("aborted") are expected; show anything else.
    const text = String(d);
    if (!/Error: aborted|ECONNRESET|ignore-listed frames|^\s*}\s*$/m.test(text)) process.stderr.write(`[server] ${text}`);
  });
  const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}):\n${log.slice(-4000)}`);
    try {
      const res = await fetch(`${url}/bench/noop`);
      if (res.ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) throw new Error(`the server did not answer within 120 s:\n${log.slice(-4000)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    url,
    rssMb: () => rssMbOf(child.pid),
    cpu: {
      server: () => processCpuMs(child.pid),
      // The main thread's id is the process's.
      thread: () => procStat(`${child.pid}/task/${child.pid}`)?.cpuMs ?? NaN,
      // PGlite's thread starts with the first query: looked up on every reading.
      db: dbCpuMs ?? (() => namedThreadsCpuMs(child.pid, "pglite")),
    },
    stop: async () => {
      if (child.exitCode === null) child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
