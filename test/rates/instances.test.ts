import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMarketMock, type MarketMock } from "./market-mock";

/*
 * Two service instances on one database cost the providers one fetch per period: two processes
 * run the service's background runner (test/rates/instance-main.ts) against a database of this
 * file's own on the PostgreSQL at DATABASE_URL, with RATE_REFRESH_SECONDS=5, and the market mock
 * counts what reaches each provider. The embedded PGlite is one process's database, so without
 * DATABASE_URL there is nothing to share and the file is skipped.
 */
const url = process.env.DATABASE_URL;
const PERIOD_S = 5;
const WATCH_MS = 13_000;

describe.skipIf(!url)("several instances, one database", () => {
  const dbName = `rates_instances_${process.pid}_${randomBytes(3).toString("hex")}`;
  let admin: postgres.Sql;
  let mock: MarketMock;
  const children: ChildProcess[] = [];
  const logs: string[] = [];

  function instance(n: number): Promise<ChildProcess> {
    const dbUrl = new URL(url!);
    dbUrl.pathname = `/${dbName}`;
    const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: "development", DATABASE_URL: dbUrl.toString(), DATA_DIR: ":memory:" };
    for (const k of ["RATES_FILE", "BITCOIN_RPC_URL", "LITECOIN_RPC_URL", "BITCOIN_CASH_RPC_URL", "ETHEREUM_RPC_URL", "TRON_RPC_URL"]) delete env[k];
    Object.assign(env, {
      RATE_PROVIDERS: "kraken,coinbase,coingecko",
      KRAKEN_BASE_URL: mock.baseUrl,
      COINBASE_BASE_URL: mock.baseUrl,
      COINGECKO_BASE_URL: mock.baseUrl,
      RATE_REFRESH_SECONDS: String(PERIOD_S),
      RATE_MAX_AGE_SECONDS: "60",
    });
    // Node itself with tsx's loader, not the tsx CLI: the CLI runs the script in a child of its own, which a kill of the CLI leaves running.
    const child = spawn(process.execPath, ["--import", "tsx", "test/rates/instance-main.ts"], { env, stdio: ["ignore", "pipe", "pipe"] });
    children.push(child);
    return new Promise((resolve, reject) => {
      const onData = (d: Buffer) => {
        logs.push(`[${n}] ${d}`);
        if (String(d).includes("ready")) resolve(child);
      };
      child.stdout!.on("data", onData);
      child.stderr!.on("data", (d: Buffer) => logs.push(`[${n}!] ${d}`));
      child.once("exit", (code) => reject(new Error(`instance ${n} exited with ${code}:\n${logs.join("")}`)));
    });
  }

  beforeAll(async () => {
    const adminUrl = new URL(url!);
    adminUrl.pathname = "/postgres";
    admin = postgres(adminUrl.toString(), { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${dbName}`);
    mock = await startMarketMock();
  }, 60_000);

  afterAll(async () => {
    for (const c of children) c.kill("SIGKILL");
    await mock?.close();
    await admin?.unsafe(`drop database if exists ${dbName} with (force)`);
    await admin?.end();
  });

  it("fetches once per RATE_REFRESH_SECONDS between them, into the database every instance quotes from", async () => {
    // Every Coinbase poll (one request each), timed from before the first instance starts.
    const fetchedAt: number[] = [];
    let seen = 0;
    const watch = setInterval(() => {
      for (; seen < mock.requests.coinbase; seen++) fetchedAt.push(Date.now());
    }, 20);
    const start = Date.now();
    try {
      // The first migrates the new database; the second starts on it once that is done.
      await instance(1);
      await instance(2);
      await new Promise((r) => setTimeout(r, WATCH_MS));
    } finally {
      clearInterval(watch);
    }
    const window = Date.now() - start;
    expect(fetchedAt.length, logs.join("")).toBeGreaterThanOrEqual(2);
    // One poll per period between the two of them: never closer than a period, never more than the window holds.
    expect(fetchedAt.length).toBeLessThanOrEqual(Math.floor(window / (PERIOD_S * 1000)) + 1);
    for (let i = 1; i < fetchedAt.length; i++) expect(fetchedAt[i] - fetchedAt[i - 1]).toBeGreaterThan(PERIOD_S * 1000 - 300);
    expect(children.every((c) => c.exitCode === null)).toBe(true);

    const dbUrl = new URL(url!);
    dbUrl.pathname = `/${dbName}`;
    const sql = postgres(dbUrl.toString(), { max: 1 });
    try {
      const providers = await sql<{ provider: string; n: number }[]>`select provider, count(*)::int as n from exchange_rates group by provider order by provider`;
      expect(providers.map((p) => p.provider)).toEqual(["coinbase", "coingecko", "kraken"]);
      const [btc] = await sql<{ value: string }[]>`select value from exchange_rates where provider = 'coinbase' and kind = 'coin' and key = 'BITCOIN'`;
      expect(Number(btc.value)).toBe(65000);
      const [schedule] = await sql<{ due_at: Date; lease_owner: string | null }[]>`select due_at, lease_owner from rate_refresh`;
      expect(schedule.lease_owner).toBeNull();
    } finally {
      await sql.end();
    }
  }, 90_000);
});
