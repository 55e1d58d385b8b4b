import { readFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import type { RatesReport } from "@/lib/rates/report";
import { chainsTable, ratesTable, type ChainRow } from "./admin-tables";

/**
 * `npm run admin -- <command>`: a small CLI over the admin API (design §4). `buildRequest` maps
 * the arguments to one HTTP request without touching the network; `run` sends it and prints.
 */

export const HELP = `Usage: npm run admin -- <command> [options]

Commands:
  business create --name N [settings] [--parent ID]   create a business (prints its API key and webhook secret)
  business get ID                                     show a business's settings
  business update ID [settings]                       change settings
  key create BUSINESS_ID [--for ID,ID] [--expires-in S]   issue an API key (shown once)
  key list BUSINESS_ID                                list API keys
  key revoke BUSINESS_ID KEY_ID                       revoke an API key
  webhook-secret rotate BUSINESS_ID                   replace the webhook signing secret
  user create --email E --business ID [--role R] [--name N] [--password P]
                                                      a dashboard user (role owner, developer or viewer; default owner);
                                                      without --password one is generated and shown once;
                                                      an existing user keeps their password (--password is refused)
  user set-password --email E [--password P]          set a user's password (without --password one is generated
                                                      and shown once); ends the user's sessions
  user unlock --email E                               lift the sign-in lockout of an email address
  chains [--json]                                     each chain's node, network, tip, cursor, lag, last tick and error
  rates [--json]                                      the exchange-rate source, each provider's last success and error, and
                                                      every coin's and currency's rate, providers, age and usability (why not)
  doctor [--env-file FILE]                            checks the configuration, database, chain nodes, rate source,
                                                      SMTP and the public URL from this machine; exit code 1 on a failure
  backup FILE                                         a consistent copy of the database, taken while the service runs:
                                                      the embedded one in DATA_DIR (a gzipped tar), or with DATABASE_URL
                                                      pg_dump's custom format (pg_dump on PATH)
  restore FILE [--force]                              puts a backup in place (stop the service first): into an empty
                                                      DATA_DIR, or with DATABASE_URL into an empty database (pg_restore);
                                                      --force replaces a database that holds data
  help                                                show this help

Settings:
  --name N              display name
  --mode test|live      test (default) pays on a simulated chain; live uses real chains
  --webhook-url U       default webhook address ("" clears it)
  --lifetime S          payment lifetime in seconds (5 … 604800, default 3600)
  --coins A,B           enabled coins, e.g. BITCOIN,ETHEREUM (default: BTC, ETH, LTC and USDT, USDC on Ethereum and TRON)
  --fee P               platform fee in percent
  --tolerance P         underpayment tolerance in percent

Environment:
  BASE_URL      the service (default http://localhost:$PORT, PORT=3000: the server npm start runs here)
  ADMIN_TOKEN   the admin token (default: adminToken in $DATA_DIR/secrets.json, DATA_DIR=./.data)
  DATABASE_URL, DATA_DIR   the database backup and restore work on (PostgreSQL, else the embedded one in DATA_DIR)
The server it talks to is printed on stderr.`;

export type ApiRequest = { method: "GET" | "POST" | "PATCH" | "DELETE"; path: string; body?: Record<string, unknown>; table?: "chains" | "rates" };

export class UsageError extends Error {}

/** The environment variables the CLI reads: BASE_URL, PORT, ADMIN_TOKEN, DATA_DIR. */
export type Env = Record<string, string | undefined>;

const SETTINGS = {
  name: { type: "string" },
  mode: { type: "string" },
  "webhook-url": { type: "string" },
  lifetime: { type: "string" },
  coins: { type: "string" },
  fee: { type: "string" },
  tolerance: { type: "string" },
} as const;
const USER_OPTIONS = { email: { type: "string" }, business: { type: "string" }, role: { type: "string" }, name: { type: "string" }, password: { type: "string" } } as const;
const KEY_OPTIONS = { for: { type: "string" }, "expires-in": { type: "string" } } as const;

type StringOptions = Record<string, { type: "string" }>;

function parse(args: string[], options: StringOptions, ids: string[]) {
  let parsed;
  try {
    parsed = parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (e) {
    throw new UsageError((e as Error).message.split("\n")[0]);
  }
  if (parsed.positionals.length !== ids.length) {
    const want = ids.length ? ids.join(" ") : "no arguments";
    throw new UsageError(`expected ${want}, got ${parsed.positionals.length ? parsed.positionals.join(" ") : "none"}`);
  }
  return { values: parsed.values as Record<string, string | undefined>, positionals: parsed.positionals };
}

function id(value: string, what: string): string {
  if (!/^[1-9][0-9]*$/.test(value)) throw new UsageError(`${what} must be a positive integer, got "${value}"`);
  return value;
}

function num(value: string | undefined, flag: string, integer = false): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === "" || !Number.isFinite(n) || (integer && !Number.isInteger(n))) {
    throw new UsageError(`--${flag} must be ${integer ? "a whole number" : "a number"}, got "${value}"`);
  }
  return n;
}

const list = (value: string) => value.split(",").map((s) => s.trim()).filter(Boolean);

/** The settings flags as an admin API body; only the flags given appear. */
function settingsBody(v: Record<string, string | undefined>): Record<string, unknown> {
  const body: Record<string, unknown> = {
    name: v.name,
    mode: v.mode,
    webhookUrl: v["webhook-url"] === "" ? null : v["webhook-url"],
    paymentLifetimeSeconds: num(v.lifetime, "lifetime", true),
    enabledCoins: v.coins === undefined ? undefined : list(v.coins),
    feePercent: num(v.fee, "fee"),
    underpaymentTolerancePercent: num(v.tolerance, "tolerance"),
  };
  return Object.fromEntries(Object.entries(body).filter(([, x]) => x !== undefined));
}

/** Arguments → the admin API request they stand for, or "help". Throws UsageError. */
export function buildRequest(argv: string[]): ApiRequest | "help" {
  const [group, action, ...rest] = argv;
  if (!group || ["help", "--help", "-h"].includes(group) || argv.includes("--help") || argv.includes("-h")) return "help";
  const command = `${group} ${action ?? ""}`.trim();
  const base = "/admin/v1/businesses";
  switch (command) {
    case "business create": {
      const { values } = parse(rest, { ...SETTINGS, parent: { type: "string" } }, []);
      if (!values.name) throw new UsageError("business create needs --name");
      const body = settingsBody(values);
      if (values.parent !== undefined) body.parentBusinessId = Number(id(values.parent, "--parent"));
      return { method: "POST", path: base, body };
    }
    case "business get": {
      const { positionals } = parse(rest, {}, ["ID"]);
      return { method: "GET", path: `${base}/${id(positionals[0], "ID")}` };
    }
    case "business update": {
      const { values, positionals } = parse(rest, SETTINGS, ["ID"]);
      const body = settingsBody(values);
      if (Object.keys(body).length === 0) throw new UsageError("business update needs at least one setting to change");
      return { method: "PATCH", path: `${base}/${id(positionals[0], "ID")}`, body };
    }
    case "key create": {
      const { values, positionals } = parse(rest, KEY_OPTIONS, ["BUSINESS_ID"]);
      const body: Record<string, unknown> = {};
      if (values.for !== undefined) body.businessIds = list(values.for).map((x) => Number(id(x, "--for")));
      if (values["expires-in"] !== undefined) body.expiresInSeconds = num(values["expires-in"], "expires-in", true);
      return { method: "POST", path: `${base}/${id(positionals[0], "BUSINESS_ID")}/api-keys`, body };
    }
    case "key list": {
      const { positionals } = parse(rest, {}, ["BUSINESS_ID"]);
      return { method: "GET", path: `${base}/${id(positionals[0], "BUSINESS_ID")}/api-keys` };
    }
    case "key revoke": {
      const { positionals } = parse(rest, {}, ["BUSINESS_ID", "KEY_ID"]);
      const [business, key] = positionals;
      return { method: "DELETE", path: `${base}/${id(business, "BUSINESS_ID")}/api-keys/${encodeURIComponent(key)}` };
    }
    case "webhook-secret rotate": {
      const { positionals } = parse(rest, {}, ["BUSINESS_ID"]);
      return { method: "POST", path: `${base}/${id(positionals[0], "BUSINESS_ID")}/webhook-secret/rotate` };
    }
    case "user create": {
      const { values } = parse(rest, USER_OPTIONS, []);
      if (!values.email) throw new UsageError("user create needs --email");
      if (!values.business) throw new UsageError("user create needs --business ID");
      const body: Record<string, unknown> = { email: values.email, businessId: Number(id(values.business, "--business")) };
      if (values.role !== undefined) body.role = values.role;
      if (values.name !== undefined) body.name = values.name;
      if (values.password !== undefined) body.password = values.password;
      return { method: "POST", path: "/admin/v1/users", body };
    }
    case "user set-password": {
      const { values } = parse(rest, { email: { type: "string" }, password: { type: "string" } }, []);
      if (!values.email) throw new UsageError("user set-password needs --email");
      const body: Record<string, unknown> = { email: values.email };
      if (values.password !== undefined) body.password = values.password;
      return { method: "POST", path: "/admin/v1/users/password", body };
    }
    case "user unlock": {
      const { values } = parse(rest, { email: { type: "string" } }, []);
      if (!values.email) throw new UsageError("user unlock needs --email");
      return { method: "POST", path: "/admin/v1/users/unlock", body: { email: values.email } };
    }
    case "chains":
    case "chains --json":
    case "rates":
    case "rates --json": {
      const report = group as "chains" | "rates";
      if (rest.length) throw new UsageError(`${report} takes only --json, got ${rest.join(" ")}`);
      return { method: "GET", path: `/admin/v1/${report}`, ...(action === "--json" ? {} : { table: report }) };
    }
    default:
      throw new UsageError(`unknown command "${argv.join(" ")}"`);
  }
}

/** ADMIN_TOKEN, else the token the embedded quick start stored in $DATA_DIR/secrets.json. */
export function adminToken(env: Env): string | undefined {
  if (env.ADMIN_TOKEN) return env.ADMIN_TOKEN;
  try {
    const file = path.join(env.DATA_DIR || "./.data", "secrets.json");
    const token = (JSON.parse(readFileSync(file, "utf8")) as { adminToken?: unknown }).adminToken;
    return typeof token === "string" ? token : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The server the CLI talks to, and why: BASE_URL, else the server `npm start` runs on this
 * machine (http://localhost:$PORT, PORT defaulting to 3000 as the server's does). Never
 * PUBLIC_BASE_URL: that is the customers' address, often a proxy elsewhere, and the admin token
 * is not sent beyond this machine unless BASE_URL says so.
 */
export function serverOf(env: Env): { url: string; from: string } {
  if (env.BASE_URL) return { url: env.BASE_URL.replace(/\/+$/, ""), from: "from BASE_URL" };
  if (env.PORT) return { url: `http://localhost:${env.PORT}`, from: "from PORT" };
  return { url: "http://localhost:3000", from: "the default; set BASE_URL or PORT to change it" };
}

type Io = { env: Env; out: (s: string) => void; err: (s: string) => void };

/** A ProblemDetails (or any other failed response) as a few readable lines. */
export function describeFailure(status: number, body: unknown): string {
  if (!body || typeof body !== "object") return `Error: HTTP ${status}${body ? `: ${String(body).slice(0, 500)}` : ""}`;
  const p = body as { title?: string; detail?: string; errors?: Record<string, string[]> };
  const lines = [`Error ${status}: ${p.title ?? "request failed"}`];
  if (p.detail) lines.push(`  ${p.detail}`);
  for (const [field, messages] of Object.entries(p.errors ?? {})) lines.push(`  - ${field}: ${messages.join("; ")}`);
  return lines.join("\n");
}

/** Runs one CLI invocation; resolves to the exit code (0 ok, 1 failed request, 2 usage). */
export async function run(argv: string[], io: Io): Promise<number> {
  // The doctor checks the service's own servers rather than calling the admin API (scripts/admin-doctor.ts).
  if (argv[0] === "doctor") return (await import("./admin-doctor")).doctor(argv.slice(1), io);
  // These work on the database itself, not through the admin API (scripts/admin-backup.ts).
  if (argv[0] === "backup" || argv[0] === "restore") return (await import("./admin-backup")).runBackupCommand(argv, io);
  let req: ApiRequest | "help";
  try {
    req = buildRequest(argv);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    io.err(`${e.message}\nRun \`npm run admin -- help\` for usage.`);
    return 2;
  }
  if (req === "help") {
    io.out(HELP);
    return 0;
  }
  const token = adminToken(io.env);
  if (!token) {
    io.err("No admin token: set ADMIN_TOKEN, or run from the project directory after the first `npm start` (it stores the token in $DATA_DIR/secrets.json).");
    return 1;
  }
  const server = serverOf(io.env);
  const baseUrl = server.url;
  io.err(`Server: ${baseUrl} (${server.from})`);
  let res: Response;
  try {
    res = await fetch(baseUrl + req.path, {
      method: req.method,
      headers: {
        authorization: `Bearer ${token}`,
        accept: "application/json",
        ...(req.body && { "content-type": "application/json" }),
      },
      body: req.body && JSON.stringify(req.body),
    });
  } catch (e) {
    const cause = (e as { cause?: { code?: string; message?: string } }).cause;
    io.err(`Cannot reach the service at ${baseUrl} (${cause?.code ?? cause?.message ?? (e as Error).message}). Is it running? Start it with \`npm start\`, or set BASE_URL (or PORT).`);
    return 1;
  }
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: shown as text below
  }
  if (!res.ok) {
    io.err(describeFailure(res.status, body));
    return 1;
  }
  const data = (body as { data?: unknown })?.data ?? body;
  if (req.table === "chains") io.out(chainsTable(data as ChainRow[]));
  else if (req.table === "rates") io.out(ratesTable(data as RatesReport));
  else io.out(JSON.stringify(data, null, 2));
  return 0;
}
