import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import path from "node:path";
import { z } from "zod";

/**
 * Configuration is read from the environment once, validated with zod, and fails start-up
 * with one readable message listing every problem. Embedded mode (no DATABASE_URL) generates
 * and persists the secrets it needs in DATA_DIR so `npm start` works with nothing set;
 * production (NODE_ENV=production with DATABASE_URL) generates nothing.
 */
const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL")
    .optional(),
  DATA_DIR: z.string().min(1).default("./.data"),
  PUBLIC_BASE_URL: z
    .url({ protocol: /^https?$/, error: "must be an http(s) URL such as https://pay.example.com" })
    .optional(),
  ADMIN_TOKEN: z.string().min(16, "must be at least 16 characters").optional(),
  API_KEY_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  RATE_LIMIT_PER_SECOND: z.coerce.number().positive().default(100),
  RATE_LIMIT_BURST: z.coerce.number().int().positive().default(200),
});

export type Config = {
  env: "development" | "production" | "test";
  port: number;
  databaseUrl: string | undefined;
  /** Directory of the embedded database and generated secrets; ":memory:" keeps both in memory. */
  dataDir: string;
  publicBaseUrl: string;
  /** Undefined disables the admin API. */
  adminToken: string | undefined;
  apiKeySecret: Uint8Array;
  rateLimit: { perSecond: number; burst: number };
  /** Production deployments never generate secrets. */
  production: boolean;
  /** Secrets generated on this start (printed once by the bootstrap). */
  generated: { adminToken: boolean };
};

export class ConfigError extends Error {
  constructor(problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

type StoredSecrets = { adminToken?: string; apiKeySecret?: string };

function readSecrets(file: string): StoredSecrets {
  if (!existsSync(file)) return {};
  return JSON.parse(readFileSync(file, "utf8")) as StoredSecrets;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((i) => `${i.path.join(".") || "environment"}: ${i.message}`),
    );
  }
  const e = parsed.data;
  const production = e.NODE_ENV === "production" && e.DATABASE_URL !== undefined;
  const problems: string[] = [];
  if (production && !e.API_KEY_SECRET) {
    problems.push("API_KEY_SECRET: required in production (32+ random characters, e.g. `openssl rand -base64 48`)");
  }
  if (production && !e.PUBLIC_BASE_URL) {
    problems.push("PUBLIC_BASE_URL: required in production (the https address customers reach the checkout at)");
  }
  if (problems.length) throw new ConfigError(problems);

  let adminToken = e.ADMIN_TOKEN;
  let apiKeySecret = e.API_KEY_SECRET;
  let generatedAdmin = false;
  if (!production && (!adminToken || !apiKeySecret)) {
    const stored = persistedSecrets(e.DATA_DIR);
    if (!adminToken) {
      generatedAdmin = stored.fresh.adminToken;
      adminToken = stored.secrets.adminToken;
    }
    apiKeySecret ??= stored.secrets.apiKeySecret;
  }

  return {
    env: e.NODE_ENV,
    port: e.PORT,
    databaseUrl: e.DATABASE_URL,
    dataDir: e.DATA_DIR,
    publicBaseUrl: (e.PUBLIC_BASE_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ""),
    adminToken,
    apiKeySecret: new TextEncoder().encode(apiKeySecret!),
    rateLimit: { perSecond: e.RATE_LIMIT_PER_SECOND, burst: e.RATE_LIMIT_BURST },
    production,
    generated: { adminToken: generatedAdmin },
  };
}

/** Secrets generated on first run and kept in DATA_DIR/secrets.json (mode 0600). */
function persistedSecrets(dataDir: string) {
  const fresh = { adminToken: false };
  const make = () => randomBytes(32).toString("base64url");
  if (dataDir === ":memory:") {
    memorySecrets ??= { adminToken: `adm_${make()}`, apiKeySecret: make() };
    return { secrets: memorySecrets as Required<StoredSecrets>, fresh };
  }
  const file = path.join(dataDir, "secrets.json");
  const secrets = readSecrets(file);
  if (!secrets.adminToken || !secrets.apiKeySecret) {
    if (!secrets.adminToken) fresh.adminToken = true;
    secrets.adminToken ??= `adm_${make()}`;
    secrets.apiKeySecret ??= make();
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  }
  return { secrets: secrets as Required<StoredSecrets>, fresh };
}
let memorySecrets: StoredSecrets | undefined;

const globalForConfig = globalThis as unknown as { __paymentsConfig?: Config };

/** The process-wide configuration, parsed on first use. */
export function config(): Config {
  globalForConfig.__paymentsConfig ??= loadConfig();
  return globalForConfig.__paymentsConfig;
}
