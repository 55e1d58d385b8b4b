import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import { drizzle } from "drizzle-orm/postgres-js";
import { migrate } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run } from "../scripts/admin-cli";
import { startAnvil } from "./chains/nodes/anvil";
import { startMarketMock } from "./rates/market-mock";

/*
 * `npm run admin -- doctor` against real servers on loopback: PGlite served over TCP as a
 * PostgreSQL (first without its migrations, then with them), an SMTP server (smtp-server), a
 * /healthz answering as the service's does (docs/monitoring.md: `200 {"status":"ok"}`), and the
 * broken kinds: ports where nothing listens (a chain node, an SMTP server, a database) and a
 * public URL that accepts connections and never answers.
 */

const root = path.resolve(import.meta.dirname, "..");
const PINNED_RATES = path.join(root, "test", "fixtures", "pinned-rates.json");

let pg: PGlite;
let pgServer: PGLiteSocketServer;
let pgPort: number;
let smtp: SMTPServer;
let smtpPort: number;
let health: http.Server;
let healthPort: number;
let silent: net.Server;
let silentPort: number;
const held: net.Socket[] = [];

async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve));
  const { port } = s.address() as net.AddressInfo;
  await new Promise((resolve) => s.close(resolve));
  return port;
}

const portOf = (s: net.Server | http.Server) => (s.address() as net.AddressInfo).port;

beforeAll(async () => {
  pg = await PGlite.create({ extensions: { pg_trgm } });
  pgPort = await freePort();
  pgServer = new PGLiteSocketServer({ db: pg, host: "127.0.0.1", port: pgPort });
  await pgServer.start();

  smtp = new SMTPServer({ authOptional: true, disabledCommands: ["STARTTLS"], logger: false, onData: (s, _session, cb) => s.resume().on("end", () => cb()) });
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
  smtpPort = portOf(smtp.server);

  health = http.createServer((req, res) => {
    res.writeHead(req.url === "/healthz" ? 200 : 404, { "content-type": "application/json" });
    res.end(req.url === "/healthz" ? '{"status":"ok"}' : "{}");
  });
  await new Promise<void>((resolve) => health.listen(0, "127.0.0.1", resolve));
  healthPort = portOf(health);

  // Accepts and never answers: a proxy or firewall that swallows the request.
  silent = net.createServer((socket) => void held.push(socket));
  await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
  silentPort = portOf(silent);
});

afterAll(async () => {
  for (const s of held) s.destroy();
  await new Promise((resolve) => silent?.close(resolve));
  await new Promise((resolve) => health?.close(resolve));
  await new Promise<void>((resolve) => (smtp ? smtp.close(resolve) : resolve()));
  await pgServer?.stop();
  await pg?.close();
});

/** A production environment (DATABASE_URL set) whose every server answers. */
function healthyEnv(): Record<string, string> {
  return {
    DATABASE_URL: `postgres://postgres@127.0.0.1:${pgPort}/postgres`,
    API_KEY_SECRET: "a-secret-of-more-than-thirty-two-characters",
    ADMIN_TOKEN: "admin-token-0123456789",
    METRICS_TOKEN: "metrics-token-0123456789",
    PUBLIC_BASE_URL: `http://127.0.0.1:${healthPort}`,
    RATES_FILE: PINNED_RATES,
    SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
  };
}

async function doctor(env: Record<string, string>, args: string[] = []) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await run(["doctor", ...args], { env, out: (s) => out.push(...s.split("\n")), err: (s) => err.push(s) });
  return { code, out, err, line: (name: string) => out.find((l) => new RegExp(`^(OK|WARN|FAIL) +${name} `).test(l)) ?? `(no ${name} line)` };
}

describe("npm run admin -- doctor", () => {
  it("fails the migrations on a database that has none, and says how to apply them", async () => {
    const r = await doctor(healthyEnv());
    expect(r.line("database")).toMatch(/^OK +database +postgres:\/\/127\.0\.0\.1:\d+\/postgres answers$/);
    expect(r.line("migrations")).toMatch(/^FAIL +migrations +none applied: the database is empty .* → start the service of this version once: it applies its migrations on start-up/);
    expect(r.code).toBe(1);
  });

  it("passes a healthy production set-up, warning about what is risky", async () => {
    const sql = postgres(`postgres://postgres@127.0.0.1:${pgPort}/postgres`, { max: 1, onnotice: () => {} });
    await migrate(drizzle({ client: sql }), { migrationsFolder: path.join(root, "db", "migrations") });
    await sql.end();

    const r = await doctor(healthyEnv());
    expect(r.out).not.toContainEqual(expect.stringMatching(/^FAIL/));
    expect(r.line("configuration")).toMatch(/^OK .* production: PostgreSQL at DATABASE_URL/);
    expect(r.line("migrations")).toMatch(/^OK +migrations +every migration of this build is applied \(latest \d{4}_\w+\)$/);
    expect(r.line("rates")).toMatch(/^OK +rates +RATES_FILE .*pinned-rates\.json: \d+ coins, \d+ currencies/);
    expect(r.line("SMTP")).toMatch(new RegExp(`^OK +SMTP +smtp://127\\.0\\.0\\.1:${smtpPort} greets and answers EHLO: e-mails can be handed over$`));
    expect(r.line("public URL")).toMatch(new RegExp(`^OK +public URL +http://127\\.0\\.0\\.1:${healthPort}/healthz answered 200 in \\d+ ms$`));
    // Production over plain http, and no chain node: said, not failed.
    expect(r.line("PUBLIC_BASE_URL")).toMatch(/^WARN +PUBLIC_BASE_URL +http:\/\/127\.0\.0\.1:\d+ is plain http: .* → terminate TLS in front of the service/);
    expect(r.line("chains")).toMatch(/^WARN +chains +none configured/);
    expect(r.out.at(-1)).toBe("No check failed; 2 warnings to read.");
    expect(r.code).toBe(0);
  });

  it("warns about a missing METRICS_TOKEN, private webhook targets and an https address without TRUSTED_PROXIES", async () => {
    const env: Record<string, string> = { ...healthyEnv(), WEBHOOK_ALLOW_PRIVATE_TARGETS: "true", PUBLIC_BASE_URL: `https://127.0.0.1:${healthPort}` };
    delete env.METRICS_TOKEN;
    const r = await doctor(env);
    expect(r.line("METRICS_TOKEN")).toMatch(/^WARN +METRICS_TOKEN +not set: \/metrics answers 404/);
    expect(r.line("WEBHOOK_ALLOW_PRIVATE_TARGETS")).toMatch(/^WARN +WEBHOOK_ALLOW_PRIVATE_TARGETS +on: .* → turn it off unless/);
    expect(r.line("TRUSTED_PROXIES")).toMatch(/^WARN +TRUSTED_PROXIES +not set, yet PUBLIC_BASE_URL is https, .* → list the proxy's own address/);
    // The health server speaks plain http: the TLS handshake fails, and that is a failure.
    expect(r.line("public URL")).toMatch(/^FAIL +public URL +https:\/\/127\.0\.0\.1:\d+\/healthz: .*customers cannot reach the checkout/);
    expect(r.code).toBe(1);
  });

  it("fails an unreachable chain node, a refusing SMTP port and a public URL that never answers, without showing credentials", async () => {
    const [nodePort, smtpClosed, dbClosed] = [await freePort(), await freePort(), await freePort()];
    const r = await doctor({
      ...healthyEnv(),
      BITCOIN_RPC_URL: `http://rpcuser:rpc-secret@127.0.0.1:${nodePort}/`,
      SMTP_URL: `smtp://mailer:smtp-secret@127.0.0.1:${smtpClosed}`,
      PUBLIC_BASE_URL: `http://127.0.0.1:${silentPort}`,
      DATABASE_URL: `postgres://payments:db-secret@127.0.0.1:${dbClosed}/payments`,
    });
    expect(r.line("BITCOIN node")).toMatch(new RegExp(`^FAIL +BITCOIN node +http://127\\.0\\.0\\.1:${nodePort}: .*ECONNREFUSED.* → nothing listens there: start the node, or correct the port$`));
    expect(r.line("SMTP")).toMatch(new RegExp(`^FAIL +SMTP +smtp://127\\.0\\.0\\.1:${smtpClosed}: .*ECONNREFUSED.*; customer e-mails are not sent → nothing listens there: start the mail server`));
    expect(r.line("public URL")).toMatch(/^FAIL +public URL +http:\/\/127\.0\.0\.1:\d+\/healthz: no answer within 5 s; customers cannot reach the checkout → it accepts no connection or never answers/);
    expect(r.line("database")).toMatch(new RegExp(`^FAIL +database +postgres://127\\.0\\.0\\.1:${dbClosed}/payments: .*ECONNREFUSED.* → nothing listens there: start PostgreSQL`));
    expect(r.line("migrations")).toMatch(/^FAIL +migrations +not checked: the database did not answer/);
    expect(r.out.at(-1)).toMatch(/^5 checks failed, \d+ warnings?: the service cannot work as configured until the FAIL lines are fixed\.$/);
    expect(r.out.join("\n")).not.toMatch(/rpc-secret|smtp-secret|db-secret|rpcuser|mailer:/);
    expect(r.code).toBe(1);
  }, 30_000);

  it("asks a real node which network it serves, and each rate provider for prices", async () => {
    // anvil (Ethereum's development node, chain id 31337) and the providers' documented APIs served locally (test/rates/market-mock.ts).
    const [anvil, market, closed] = await Promise.all([startAnvil(), startMarketMock(), freePort()]);
    try {
      const env: Record<string, string> = {
        ...healthyEnv(),
        ETHEREUM_RPC_URL: anvil.url,
        RATE_PROVIDERS: "kraken,coinbase",
        KRAKEN_BASE_URL: market.baseUrl,
        COINBASE_BASE_URL: `http://127.0.0.1:${closed}`,
      };
      delete env.RATES_FILE;
      const r = await doctor(env);
      // A test network in production: it answers, and the doctor says its coins are worth nothing.
      expect(r.line("ETHEREUM node")).toMatch(
        new RegExp(`^WARN +ETHEREUM node +${anvil.url.replace(/\./g, "\\.")} answers: the \\w+ network \\(chain id 31337\\); coins ETHEREUM\\b.* → live businesses are paid there in coins of no value: point ETHEREUM_RPC_URL at a mainnet node`),
      );
      expect(r.line("rates: kraken")).toMatch(/^OK +rates: kraken +\d+ coins priced in USD, \d+ currencies, in \d+ ms$/);
      expect(r.line("rates: coinbase")).toMatch(/^WARN +rates: coinbase +.*ECONNREFUSED.*; quotes use the other providers → nothing listens there/);
      expect(r.code).toBe(0);

      const none = await doctor({ ...env, KRAKEN_BASE_URL: `http://127.0.0.1:${closed}` });
      expect(none.line("rates: kraken")).toMatch(/^FAIL +rates: kraken +.*ECONNREFUSED.*; no provider answers, so live businesses cannot quote/);
      expect(none.line("rates: coinbase")).toMatch(/^FAIL +rates: coinbase /);
      expect(none.code).toBe(1);
    } finally {
      await Promise.all([anvil.stop(), market.close()]);
    }
  }, 60_000);

  it("leaves the embedded database to its service, and writes no secret where it looks", async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "doctor-data-"));
    try {
      const closed = await freePort();
      const r = await doctor({ DATA_DIR: dataDir, BASE_URL: `http://127.0.0.1:${closed}`, PUBLIC_BASE_URL: `http://127.0.0.1:${healthPort}`, METRICS_TOKEN: "metrics-token-0123456789" });
      expect(r.line("configuration")).toMatch(/^OK +configuration +every variable parses; embedded database in /);
      expect(r.line("database")).toMatch(/^WARN +database +embedded in .*: only the service's own process opens it, and no service answers at http:\/\/127\.0\.0\.1:\d+ \(.*ECONNREFUSED.*\) → start the service/);
      expect(r.code).toBe(0);
      // The service generates its secrets on its first start; the doctor generates none.
      expect(existsSync(path.join(dataDir, "secrets.json"))).toBe(false);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it("lists every configuration problem and stops there", async () => {
    const r = await doctor({ ...healthyEnv(), PORT: "eighty", SHUTDOWN_TIMEOUT_SECONDS: "0" });
    expect(r.line("PORT")).toMatch(/^FAIL +PORT +.* → the service refuses to start until this is corrected/);
    expect(r.line("SHUTDOWN_TIMEOUT_SECONDS")).toMatch(/^FAIL +SHUTDOWN_TIMEOUT_SECONDS +SHUTDOWN_TIMEOUT_SECONDS must be a number of seconds/);
    expect(r.out.at(-1)).toMatch(/^The other checks need a configuration that parses/);
    expect(r.out.some((l) => / database /.test(l))).toBe(false);
    expect(r.code).toBe(1);

    const env: Record<string, string> = healthyEnv();
    delete env.API_KEY_SECRET;
    const missing = await doctor(env);
    expect(missing.line("API_KEY_SECRET")).toMatch(/^FAIL +API_KEY_SECRET +required in production/);
    expect(missing.code).toBe(1);
  });

  it("runs as a command with the unit's environment file, and exits 1 on a failure without waiting on what never answers", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "doctor-"));
    try {
      const file = path.join(dir, "payments.env");
      const env = { ...healthyEnv(), PUBLIC_BASE_URL: `http://127.0.0.1:${silentPort}` };
      writeFileSync(file, Object.entries(env).map(([k, v]) => `${k}=${v}`).join("\n") + "\n");
      const started = Date.now();
      const result = await promisify(execFile)(process.execPath, [path.join(root, "node_modules", "tsx", "dist", "cli.mjs"), "scripts/admin.ts", "doctor", "--env-file", file], {
        cwd: root,
        // Only the file speaks for the service: none of the test setup's variables reach the command.
        env: { PATH: process.env.PATH ?? "", NODE_ENV: "production" },
      }).then(
        (r) => ({ code: 0, stdout: r.stdout }),
        (e: { code: number; stdout: string }) => ({ code: e.code, stdout: e.stdout }),
      );
      expect(result.stdout).toMatch(/^OK +database /m);
      expect(result.stdout).toMatch(/^FAIL +public URL +.*no answer within 5 s/m);
      expect(result.code).toBe(1);
      // The silent server still holds the connection: the command ends anyway.
      expect(Date.now() - started).toBeLessThan(45_000);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
