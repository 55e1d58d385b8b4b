/** Command-line options of `npm run bench` (see docs/performance.md). */
export type DbKind = "pglite" | "postgres";

export type Options = {
  /** Which databases to run against, one full run each. */
  dbs: DbKind[];
  /** Payments seeded before the HTTP sweep. */
  payments: number;
  /** Seconds each endpoint is measured at each concurrency (plus a short warm-up per endpoint; the sweep adds as many of the no-op route, interleaved). */
  duration: number;
  /** Rounds of the sweep; each figure is its median round's. */
  repeat: number;
  /** Concurrency sweep: autocannon connections. */
  connections: number[];
  /** `--scale`: store sizes for the fetch/list scaling run (instead of the default run). */
  scale: number[] | null;
  /** Connections for the scaling run. */
  scaleConnections: number[];
  /** Endpoints of the sweep (default: all). */
  only: string[] | null;
  skipBuild: boolean;
  background: boolean;
  port: number;
  /** PostgreSQL for `--db postgres`: DATABASE_URL, else a local `bench` database. */
  databaseUrl: string;
  /** Allow resetting a PostgreSQL database whose name does not contain "bench". */
  force: boolean;
  /** Extra arguments for the server's node process, e.g. `--cpu-prof`. */
  serverNodeArgs: string[];
  /** `npm start`'s server (scripts/server.mjs) or bare `next start`. */
  server: "npm-start" | "next-start";
  /** Keep the seeded store and reuse it on the next run with as many payments (bench/store.ts). */
  reuseStore: boolean;
  /** `--chains`: the chain watchers against litecoind, anvil and the fake java-tron node (bench/chains/), instead of the HTTP run. */
  chains: ChainName[] | null;
  /** Payments per chain for the chain watchers' latency. */
  chainSamples: number;
  /** Watched addresses per chain at which the chain watchers' scan cost is measured. */
  chainWatched: number[];
  /** Blocks mined while the watchers stood still, read by one tick (0: none). */
  catchUp: number;
};

export type ChainName = "litecoin" | "ethereum" | "tron" | "solana" | "monero" | "ton";
const CHAIN_NAMES: readonly ChainName[] = ["litecoin", "ethereum", "tron", "solana", "monero", "ton"];

const USAGE = `npm run bench -- [options]
  --db pglite|postgres|both   database(s) (default: postgres when DATABASE_URL is set, else pglite)
  --payments N                payments seeded before the sweep (default 100000)
  --duration S                seconds per measurement (default 8; the sweep interleaves as many of the no-op route)
  --repeat N                  rounds of the sweep; each figure is its median round's (default 1)
  --connections 1,8,32        concurrency sweep (default 1,8,32)
  --only create,fetch,...     endpoints to measure (noop is always measured)
  --scale [10000,100000,1000000]  fetch/list latency at growing store sizes, and EXPLAIN plans
  --scale-connections 1,8     connections for --scale (default 1,8)
  --no-background             skip the webhook/expiry measurements
  --skip-build                use the existing build in node_modules/.cache/next-bench
  --port P                    server port (default 3210)
  --server-node-args "..."    extra node flags for the server (e.g. "--cpu-prof --cpu-prof-dir=bench/results/prof")
  --server npm-start|next-start  the server measured: npm start's (scripts/server.mjs, default: request metrics,
                              request ids, an access line per request at LOG_LEVEL=info) or bare next start
  --force                     allow resetting a PostgreSQL database not named *bench*
  --reuse-store               keep the seeded store, and reuse it in a later run with the same --payments
                              instead of seeding again (A/B pairs at a million; what a run writes stays
                              in the store, so not for figures of record; not with --scale)
  --chains [litecoin,ethereum,tron,solana,monero,ton]  the chain watchers instead (bench/chains/): webhook latency against litecoind,
                              anvil and the fake java-tron node (test/chains/nodes/tron-node.ts), scan cost per block
                              by watched addresses, catch-up (no server; ~10 min; tron alone needs neither litecoind nor anvil);
                              ton: calls and time per tick with 10 000 open payments on one wallet (bench/chains/ton.ts);
                              solana: calls and time per tick with 10 000 open charges (bench/chains/solana.ts);
                              monero: latency and time per tick with 1, 10, 100 businesses on one wallet-rpc (bench/chains/monero.ts)
  --chain-samples N           payments per chain for the latency (default 30)
  --chain-watched 100,10000,100000  watched addresses per chain for the scan cost
  --catch-up N                blocks mined while the watchers stand still, then read by one tick (default 1000; 0: none)
Environment: BENCH_SERVER_LOG=file appends the server's standard output to file (e.g. with --server-node-args "--trace-gc")`;

const ints = (s: string) => s.split(",").map((v) => {
  const n = Number(v.replace(/_/g, ""));
  if (!Number.isSafeInteger(n) || n <= 0) throw new Error(`not a positive integer: ${v}\n\n${USAGE}`);
  return n;
});

export function parseOptions(argv: string[]): Options {
  const o: Options = {
    dbs: [process.env.DATABASE_URL ? "postgres" : "pglite"],
    payments: 100_000,
    duration: 8,
    repeat: 1,
    connections: [1, 8, 32],
    scale: null,
    scaleConnections: [1, 8],
    only: null,
    skipBuild: false,
    background: true,
    port: 3210,
    databaseUrl: process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/bench",
    force: false,
    serverNodeArgs: [],
    server: "npm-start",
    reuseStore: false,
    chains: null,
    chainSamples: 30,
    chainWatched: [100, 10_000, 100_000],
    catchUp: 1000,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value\n\n${USAGE}`);
      return v;
    };
    switch (a) {
      case "--db": {
        const v = next();
        o.dbs = v === "both" ? ["pglite", "postgres"] : v.split(",").map((d) => {
          if (d !== "pglite" && d !== "postgres") throw new Error(`--db: ${d}?\n\n${USAGE}`);
          return d;
        });
        break;
      }
      case "--payments": o.payments = ints(next())[0]; break;
      case "--duration": o.duration = ints(next())[0]; break;
      case "--repeat": o.repeat = ints(next())[0]; break;
      case "--connections": o.connections = ints(next()); break;
      case "--scale":
        o.scale = argv[i + 1] && !argv[i + 1].startsWith("--") ? ints(next()) : [10_000, 100_000, 1_000_000];
        break;
      case "--scale-connections": o.scaleConnections = ints(next()); break;
      case "--only": o.only = next().split(","); break;
      case "--no-background": o.background = false; break;
      case "--skip-build": o.skipBuild = true; break;
      case "--port": o.port = ints(next())[0]; break;
      case "--force": o.force = true; break;
      case "--server": {
        const v = next();
        if (v !== "npm-start" && v !== "next-start") throw new Error(`--server: ${v}?\n\n${USAGE}`);
        o.server = v;
        break;
      }
      case "--reuse-store": o.reuseStore = true; break;
      case "--chains":
        o.chains = argv[i + 1] && !argv[i + 1].startsWith("--")
          ? next().split(",").map((c) => {
              if (!CHAIN_NAMES.includes(c as ChainName)) throw new Error(`--chains: ${c}?\n\n${USAGE}`);
              return c as ChainName;
            })
          : [...CHAIN_NAMES];
        break;
      case "--chain-samples": o.chainSamples = ints(next())[0]; break;
      case "--chain-watched": o.chainWatched = ints(next()).sort((a, b) => a - b); break;
      case "--catch-up": {
        const v = next();
        o.catchUp = v === "0" ? 0 : ints(v)[0];
        break;
      }
      case "--server-node-args": o.serverNodeArgs = next().split(" ").filter(Boolean); break;
      case "--help": case "-h": console.log(USAGE); process.exit(0); break;
      default: throw new Error(`unknown option ${a}\n\n${USAGE}`);
    }
  }
  if (o.scale) o.scale.sort((a, b) => a - b);
  if (o.chains && (o.scale || o.reuseStore)) throw new Error(`--chains is a run of its own: not with --scale or --reuse-store\n\n${USAGE}`);
  if (o.scale && o.reuseStore) throw new Error(`--reuse-store seeds once, --scale in steps: not both\n\n${USAGE}`);
  return o;
}
