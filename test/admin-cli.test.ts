import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ratesReportOf, type RatesReport } from "@/lib/rates/report";
import type { ExchangeRateRow } from "@/db/schema";
import { adminToken as cliAdminToken, buildRequest, describeFailure, HELP, run, serverOf, UsageError, type Env } from "@/scripts/admin-cli";
import { ratesTable, shortDecimal } from "@/scripts/admin-tables";
import { adminToken, chainFollowed, request } from "./helpers";
import type { RatesConfig } from "@/lib/config/rates";
import { RATES } from "./rates/fixtures";

const B = "/admin/v1/businesses";

describe("admin CLI: arguments → request", () => {
  it.each([
    [["business", "create", "--name", "Shop"], { method: "POST", path: B, body: { name: "Shop" } }],
    [
      ["business", "create", "--name", "Shop EU", "--mode", "live", "--webhook-url", "https://shop.example/hooks",
        "--lifetime", "1800", "--coins", "BITCOIN, ETHEREUM,", "--fee", "1.5", "--tolerance", "0.5", "--parent", "7"],
      {
        method: "POST",
        path: B,
        body: {
          name: "Shop EU",
          mode: "live",
          webhookUrl: "https://shop.example/hooks",
          paymentLifetimeSeconds: 1800,
          enabledCoins: ["BITCOIN", "ETHEREUM"],
          feePercent: 1.5,
          underpaymentTolerancePercent: 0.5,
          parentBusinessId: 7,
        },
      },
    ],
    [["business", "get", "12"], { method: "GET", path: `${B}/12` }],
    [["business", "update", "12", "--name=New name", "--lifetime", "60"], { method: "PATCH", path: `${B}/12`, body: { name: "New name", paymentLifetimeSeconds: 60 } }],
    [["business", "update", "12", "--webhook-url", ""], { method: "PATCH", path: `${B}/12`, body: { webhookUrl: null } }],
    [["key", "create", "3"], { method: "POST", path: `${B}/3/api-keys`, body: {} }],
    [["key", "create", "3", "--for", "3,4", "--expires-in", "86400"], { method: "POST", path: `${B}/3/api-keys`, body: { businessIds: [3, 4], expiresInSeconds: 86400 } }],
    [["key", "list", "3"], { method: "GET", path: `${B}/3/api-keys` }],
    [["key", "revoke", "3", "key_abc-D_1"], { method: "DELETE", path: `${B}/3/api-keys/key_abc-D_1` }],
    [["key", "revoke", "3", "../../x"], { method: "DELETE", path: `${B}/3/api-keys/..%2F..%2Fx` }],
    [["webhook-secret", "rotate", "3"], { method: "POST", path: `${B}/3/webhook-secret/rotate` }],
    [["chains"], { method: "GET", path: "/admin/v1/chains", table: "chains" }],
    [["chains", "--json"], { method: "GET", path: "/admin/v1/chains" }],
    [["rates"], { method: "GET", path: "/admin/v1/rates", table: "rates" }],
    [["rates", "--json"], { method: "GET", path: "/admin/v1/rates" }],
  ])("%j", (argv, expected) => {
    expect(buildRequest(argv)).toEqual(expected);
  });

  it.each([[[]], [["help"]], [["--help"]], [["key", "create", "-h"]]])("%j → help", (argv) => {
    expect(buildRequest(argv)).toBe("help");
  });

  it.each([
    [["bogus"], /unknown command "bogus"/],
    [["business"], /unknown command/],
    [["business", "create"], /needs --name/],
    [["business", "create", "--name", "A", "--colour", "red"], /Unknown option '--colour'/],
    [["business", "create", "--name"], /argument missing/],
    [["business", "create", "--name", "A", "--lifetime", "1.5"], /--lifetime must be a whole number, got "1.5"/],
    [["business", "create", "--name", "A", "--fee", "lots"], /--fee must be a number/],
    [["business", "create", "--name", "A", "--parent", "0"], /--parent must be a positive integer/],
    [["business", "create", "--name", "A", "extra"], /expected no arguments, got extra/],
    [["business", "get"], /expected ID, got none/],
    [["business", "get", "abc"], /ID must be a positive integer, got "abc"/],
    [["business", "update", "1"], /at least one setting/],
    [["business", "update", "1", "--parent", "2"], /Unknown option '--parent'/],
    [["key", "create", "1", "--for", "1,x"], /--for must be a positive integer, got "x"/],
    [["key", "list", "1", "--name", "x"], /Unknown option '--name'/],
    [["key", "revoke", "1"], /expected BUSINESS_ID KEY_ID, got 1/],
    [["rates", "all"], /unknown command "rates all"/],
    [["rates", "--json", "--verbose"], /rates takes only --json, got --verbose/],
  ])("%j → usage error", (argv, message) => {
    expect(() => buildRequest(argv)).toThrow(UsageError);
    expect(() => buildRequest(argv)).toThrow(message);
  });
});

describe("admin CLI: token and error output", () => {
  it("reads the admin token from ADMIN_TOKEN, else from $DATA_DIR/secrets.json", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "admin-cli-"));
    writeFileSync(path.join(dir, "secrets.json"), JSON.stringify({ adminToken: "adm_from_file", apiKeySecret: "x" }));
    expect(cliAdminToken({ DATA_DIR: dir })).toBe("adm_from_file");
    expect(cliAdminToken({ DATA_DIR: dir, ADMIN_TOKEN: "adm_from_env" })).toBe("adm_from_env");
    expect(cliAdminToken({ DATA_DIR: path.join(dir, "missing") })).toBeUndefined();
  });

  it("prints a ProblemDetails with its field errors", () => {
    const text = describeFailure(400, {
      title: "Validation failed",
      status: 400,
      detail: "Request validation failed. name: must not be empty",
      errors: { name: ["must not be empty"], "enabledCoins[0]": ["bad", "worse"] },
    });
    expect(text).toBe(
      "Error 400: Validation failed\n  Request validation failed. name: must not be empty\n  - name: must not be empty\n  - enabledCoins[0]: bad; worse",
    );
    expect(describeFailure(502, "<html>Bad gateway</html>")).toBe("Error: HTTP 502: <html>Bad gateway</html>");
  });
});

describe("admin CLI: the rates table", () => {
  const NOW = new Date("2031-05-01T12:00:00.000Z");
  const ago = (s: number) => new Date(NOW.getTime() - s * 1000);
  const row = (provider: string, kind: "coin" | "fiat", key: string, value: string, age: number, rejected?: [string, number, string]): ExchangeRateRow => ({
    provider,
    kind,
    key,
    value,
    fetchedAt: ago(age),
    rejectedValue: rejected?.[0] ?? null,
    rejectedAt: rejected ? ago(rejected[1]) : null,
    rejectedWhy: rejected?.[2] ?? null,
  });
  const cfg: RatesConfig = { ...RATES, providers: ["kraken", "coinbase"] };
  /** The report with only the named coins and currencies, for a short table. */
  const only = (r: RatesReport, coins: string[], currencies: string[]): RatesReport => ({
    ...r,
    coins: r.coins.filter((c) => coins.includes(c.key)),
    currencies: r.currencies.filter((c) => currencies.includes(c.key)),
  });

  it("shows the providers, then each coin and currency with its providers, age, and why it is unusable", () => {
    const rows = [
      row("kraken", "coin", "BITCOIN", "65000.1", 12, ["650001", 5, "moved 900.00% from 65000.1 (more than RATE_MAX_JUMP_PERCENT=20)"]),
      row("coinbase", "coin", "BITCOIN", "65010", 20),
      row("kraken", "coin", "LITECOIN", "80", 700),
      row("kraken", "fiat", "EUR", "0.9212345678912", 12),
    ];
    const runs = [
      { provider: "coinbase", lastAttemptAt: ago(5), lastSuccessAt: ago(65), lastError: "HTTP 429", lastErrorAt: ago(5), backoffUntil: ago(-100) },
      { provider: "kraken", lastAttemptAt: ago(12), lastSuccessAt: ago(12), lastError: null, lastErrorAt: null, backoffUntil: null },
    ];
    const report = only(ratesReportOf({ rows, runs, pinned: null }, NOW, cfg), ["BITCOIN", "LITECOIN", "MONERO"], ["EUR", "GBP", "USD"]);
    expect(ratesTable(report, NOW)).toBe(
      [
        "Source: market providers (RATE_PROVIDERS), asked every 60 s; values older than 600 s are not used.",
        "",
        "PROVIDER  LAST SUCCESS  LAST ERROR",
        "kraken    12 s ago      -",
        "coinbase  65 s ago      5 s ago: HTTP 429",
        "  rate-limited: not asked before 2031-05-01T12:01:40.000Z",
        "",
        "COIN      USD       PROVIDERS        AGE    USABLE",
        "BITCOIN   65005.05  coinbase,kraken  20 s   yes",
        "  kraken refused 650001 5 s ago: moved 900.00% from 65000.1 (more than RATE_MAX_JUMP_PERCENT=20)",
        "LITECOIN  -         kraken(stale)    700 s  no: older than 600 s",
        "MONERO    -         -                -      no: no provider quotes it",
        "",
        "CURRENCY  PER USD       PROVIDERS  AGE   USABLE",
        "EUR       0.9212345679  kraken     12 s  yes",
        "GBP       -             -          -     no: no provider quotes it",
        "USD       1             -          -     yes",
      ].join("\n"),
    );
  });

  it("names the table in force: RATES_FILE, or the built-in one for test businesses only", () => {
    const pinned = { asOf: "2031-04-30", coins: { BITCOIN: "60000" }, currencies: { USD: "1", JPY: "0.0067" } };
    const file = only(ratesReportOf({ rows: [], runs: [], pinned }, NOW, { ...cfg, providers: [], pinnedFile: "/etc/rates.json" }), ["BITCOIN", "TON"], ["JPY"]);
    expect(ratesTable(file, NOW)).toBe(
      [
        "Source: RATES_FILE /etc/rates.json (2031-04-30), for every business; never stale.",
        "",
        "COIN     USD    PROVIDERS   AGE  USABLE",
        "BITCOIN  60000  RATES_FILE  -    yes",
        "TON      -      RATES_FILE  -    no: not in RATES_FILE",
        "",
        "CURRENCY  PER USD      PROVIDERS   AGE  USABLE",
        "JPY       149.2537313  RATES_FILE  -    yes",
      ].join("\n"),
    );
    const builtIn = ratesTable(only(ratesReportOf({ rows: [], runs: [], pinned: null }, NOW, { ...cfg, providers: [] }), ["BITCOIN"], []), NOW);
    expect(builtIn.split("\n").slice(0, 2)).toEqual([
      "Source: the built-in static table (approximate, never updated): test businesses only; live businesses cannot quote.",
      "Set RATE_PROVIDERS (market rates) or RATES_FILE (a pinned table) to quote live payments.",
    ]);
    expect(builtIn).toMatch(/^BITCOIN\s+65000\s+built-in table\s+-\s+test only$/m);
  });

  it("shortens long decimals for reading only", () => {
    expect(shortDecimal("65000")).toBe("65000");
    expect(shortDecimal("0.00002")).toBe("0.00002");
    expect(shortDecimal("0.000012345678901")).toBe("0.0000123456789");
    expect(shortDecimal("0.00000000123456789012")).toBe("0.00000000123456789");
    expect(shortDecimal("1234567890123.456")).toBe("1234567890123");
    expect(shortDecimal("65000.123456789")).toBe("65000.12346");
    expect(shortDecimal("149.25373134328358208955223880597")).toBe("149.2537313");
    expect(shortDecimal(null)).toBe("-");
  });

  it("is in the help", () => {
    expect(HELP).toMatch(/^  rates \[--json\] +the exchange-rate source/m);
  });
});

/** Runs the CLI and collects what it prints. */
async function cli(argv: string[], env: Env) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await run(argv, { env, out: (s) => out.push(s), err: (s) => err.push(s) });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

describe("admin CLI against the admin API over HTTP", () => {
  // A real HTTP server whose requests go to the app's admin route handlers (test/helpers.ts).
  let server: Server;
  let env: Env;
  let port: number;
  /** What the CLI says on stderr before it sends a request. */
  let says: string;
  beforeAll(async () => {
    server = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const headers: Record<string, string> = {};
      for (const h of ["authorization", "content-type", "accept"]) if (req.headers[h]) headers[h] = String(req.headers[h]);
      const r = await request(req.method!, req.url!, { headers, rawBody: chunks.length ? Buffer.concat(chunks) : undefined });
      res.writeHead(r.status, Object.fromEntries(r.headers));
      res.end(Buffer.from(await r.arrayBuffer()));
    });
    // Every interface, IPv4 and IPv6: localhost reaches it whichever it resolves to.
    await new Promise<void>((resolve) => server.listen(0, resolve));
    port = (server.address() as AddressInfo).port;
    env = { BASE_URL: `http://127.0.0.1:${port}/`, ADMIN_TOKEN: adminToken() };
    says = `Server: http://127.0.0.1:${port} (from BASE_URL)`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("creates a business, updates it, and manages its keys and webhook secret", async () => {
    const created = await cli(["business", "create", "--name", "CLI shop", "--coins", "BITCOIN,ETHEREUM", "--fee", "2"], env);
    expect(created).toMatchObject({ code: 0, err: says });
    const business = JSON.parse(created.out);
    expect(business).toMatchObject({ name: "CLI shop", mode: "test", enabledCoins: ["BITCOIN", "ETHEREUM"], feePercent: 2 });
    expect(business.apiKey).toMatch(/^eyJ/);
    expect(business.webhookSecret).toMatch(/^whsec_/);
    const id = String(business.businessId);

    const updated = await cli(["business", "update", id, "--lifetime", "900", "--webhook-url", "http://localhost:9/hook"], env);
    expect(JSON.parse(updated.out)).toMatchObject({ paymentLifetimeSeconds: 900, webhookUrl: "http://localhost:9/hook" });
    expect(JSON.parse((await cli(["business", "get", id], env)).out)).toMatchObject({ businessId: Number(id), paymentLifetimeSeconds: 900 });

    const key = JSON.parse((await cli(["key", "create", id, "--expires-in", "3600"], env)).out);
    expect(key).toMatchObject({ keyId: expect.stringMatching(/^key_/), businessIds: [Number(id)] });
    const listed = JSON.parse((await cli(["key", "list", id], env)).out) as { keyId: string }[];
    expect(listed.map((k) => k.keyId)).toEqual(expect.arrayContaining([business.keyId, key.keyId]));
    const revoked = JSON.parse((await cli(["key", "revoke", id, key.keyId], env)).out);
    expect(revoked).toMatchObject({ keyId: key.keyId, revokedAt: expect.any(String) });

    const rotated = JSON.parse((await cli(["webhook-secret", "rotate", id], env)).out);
    expect(rotated.webhookSecret).toMatch(/^whsec_/);
    expect(rotated.webhookSecret).not.toBe(business.webhookSecret);
  });

  it("shows each chain's health as a table, or as JSON with --json", async () => {
    await chainFollowed("BITCOIN");
    const table = await cli(["chains"], env);
    expect(table.code).toBe(0);
    const lines = table.out.split("\n");
    expect(lines[0]).toMatch(/^CHAIN\s+STATE\s+NETWORK\s+NODE\s+TIP\s+CURSOR\s+LAG\s+LAST TICK\s+COINS$/);
    // The test configuration names a node for every chain (test/setup.ts), without its password.
    expect(lines.find((l) => l.startsWith("BITCOIN "))).toMatch(/^BITCOIN\s+healthy\s+main\s+http:\/\/127\.0\.0\.1:9\s+1\s+1\s+0\s+\d+ s ago\s+BITCOIN$/);
    expect(table.out).not.toContain("test:test@");
    // TRON's network is named from its chain id (the genesis block id's last 4 bytes).
    await chainFollowed("TRON");
    expect((await cli(["chains"], env)).out.split("\n").find((l) => l.startsWith("TRON "))).toMatch(/^TRON\s+healthy\s+main \(mainnet, 728126428\)\s/);
    const json = JSON.parse((await cli(["chains", "--json"], env)).out) as { chain: string; state: string; networkName: string | null }[];
    expect(json.map((c) => c.chain)).toEqual(["BITCOIN", "LITECOIN", "BITCOIN_CASH", "ETHEREUM", "TRON", "SOLANA", "MONERO", "TON"]);
    expect(json.find((c) => c.chain === "TRON")?.networkName).toBe("mainnet");
    expect((await cli(["chains", "extra"], env)).code).toBe(2);
  });

  it("shows the rates as a table, or as JSON with --json", async () => {
    const table = await cli(["rates"], env);
    expect(table).toMatchObject({ code: 0, err: says });
    // The tests pin the rates (test/setup.ts).
    expect(table.out).toMatch(/^Source: RATES_FILE \S+pinned-rates\.json \(pinned for the tests/);
    expect(table.out).toMatch(/^COIN +USD +PROVIDERS +AGE +USABLE$/m);
    expect(table.out).toMatch(/^BITCOIN +65000 +RATES_FILE +- +yes$/m);
    expect(table.out).toMatch(/^CURRENCY +PER USD +PROVIDERS +AGE +USABLE$/m);
    expect(table.out).toMatch(/^USD +1 +RATES_FILE +- +yes$/m);
    const json = JSON.parse((await cli(["rates", "--json"], env)).out) as RatesReport;
    expect(json).toMatchObject({ source: "rates-file", providers: [] });
    expect(json.coins.find((c) => c.key === "BITCOIN")).toMatchObject({ usd: "65000", usable: true });
    expect((await cli(["rates", "--json", "x"], env)).code).toBe(2);
  });

  it("prints a validation error's fields to stderr and exits 1", async () => {
    const r = await cli(["business", "create", "--name", "X", "--lifetime", "1", "--coins", "DOGECOIN"], env);
    expect(r.code).toBe(1);
    expect(r.out).toBe("");
    expect(r.err).toContain("Error 400: Validation failed");
    expect(r.err).toContain("- paymentLifetimeSeconds: must be at least 5");
    expect(r.err).toMatch(/- enabledCoins\[0\]: /);
  });

  it("reports 404 and a wrong admin token", async () => {
    const missing = await cli(["business", "get", "987654321"], env);
    expect(missing).toMatchObject({ code: 1, err: `${says}\nError 404: Not found\n  No business 987654321 exists.` });
    const wrong = await cli(["key", "list", "1"], { ...env, ADMIN_TOKEN: "adm_wrong_token_0123456789" });
    expect(wrong).toMatchObject({ code: 1, err: expect.stringContaining("Error 401: Unauthorized") });
  });

  it("says so when no admin token can be found, or the server cannot be reached", async () => {
    const noToken = await cli(["key", "list", "1"], { BASE_URL: env.BASE_URL, DATA_DIR: path.join(tmpdir(), "no-such-dir-xyz") });
    expect(noToken).toMatchObject({ code: 1, err: expect.stringContaining("No admin token") });

    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const down = await cli(["key", "list", "1"], { ...env, BASE_URL: `http://127.0.0.1:${port}` });
    expect(down.code).toBe(1);
    expect(down.err).toBe(
      `Server: http://127.0.0.1:${port} (from BASE_URL)\nCannot reach the service at http://127.0.0.1:${port} (ECONNREFUSED). Is it running? Start it with \`npm start\`, or set BASE_URL (or PORT).`,
    );
  });

  it("talks to BASE_URL, else the server npm start runs here (localhost:$PORT, PORT 3000 by default), and says which", async () => {
    expect(serverOf({ BASE_URL: "https://pay.example.com/", PORT: "4000", PUBLIC_BASE_URL: "https://shop.example" })).toEqual({
      url: "https://pay.example.com",
      from: "from BASE_URL",
    });
    expect(serverOf({ PORT: "4000", PUBLIC_BASE_URL: "https://shop.example" })).toEqual({ url: "http://localhost:4000", from: "from PORT" });
    expect(serverOf({ BASE_URL: "", PORT: "" })).toEqual({ url: "http://localhost:3000", from: "the default; set BASE_URL or PORT to change it" });

    const byPort = await cli(["rates", "--json"], { PORT: String(port), ADMIN_TOKEN: env.ADMIN_TOKEN });
    expect(byPort).toMatchObject({ code: 0, err: `Server: http://localhost:${port} (from PORT)` });
    expect(JSON.parse(byPort.out)).toMatchObject({ source: "rates-file" });
  });

  it("prints help without a token or a server, and exits 2 on a usage error", async () => {
    expect(await cli(["help"], {})).toMatchObject({ code: 0, out: expect.stringContaining("business create --name N") });
    expect(await cli(["key", "list"], {})).toMatchObject({ code: 2, err: expect.stringContaining("expected BUSINESS_ID, got none") });
  });
});
