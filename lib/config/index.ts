import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { DATABASE_ENV } from "@/db/settings";
import type { Erc20Coin, Trc20Coin } from "@/domain/token-contracts";
import type { SplCoin } from "@/domain/solana";
import type { WatchedChain } from "@/domain/watched-chains";
import { FRAME_ANCESTORS_ENV } from "./frame-ancestors";
import { LOG_ENV } from "./logging";
import { MONERO_ENV } from "./monero";
import { MAIL_ENV, mailConfigOf, type MailConfig } from "./mail";
import { RATES_ENV, ratesConfigOf, type RatesConfig } from "./rates";
import { SOLANA_ENV } from "./solana";
import { TON_ENV, type TonChainConfig } from "./ton";
import { devFlag, DURATION, durationMs, isHttpUrl, optionalString } from "./values";
import { TOKEN_CONTRACTS_ENV } from "./token-contracts";
import { TRUSTED_PROXIES_ENV, type TrustedProxy } from "./trusted-proxies";

export type { TrustedProxy } from "./trusted-proxies";

/**
 * Configuration is read from the environment once, validated with zod, and fails start-up
 * with one readable message listing every problem. Embedded mode (no DATABASE_URL) generates
 * and persists the secrets it needs in DATA_DIR so `npm start` works with nothing set;
 * production (NODE_ENV=production with DATABASE_URL) generates nothing.
 */

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  ...DATABASE_ENV,
  PUBLIC_BASE_URL: z
    .url({ protocol: /^https?$/, error: "must be an http(s) URL such as https://pay.example.com" })
    .optional(),
  ADMIN_TOKEN: z.string().min(16, "must be at least 16 characters").optional(),
  // Bearer token of /metrics; unset: /metrics answers 404 (docs/monitoring.md).
  METRICS_TOKEN: optionalString(z.string().trim().regex(/^[\x21-\x7e]{16,}$/, "must be at least 16 printable characters, no spaces")),
  API_KEY_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  RATE_LIMIT_PER_SECOND: z.coerce.number().positive().default(100),
  RATE_LIMIT_BURST: z.coerce.number().int().positive().default(200),
  // Background work through Inngest (design §2) instead of the embedded runner. The SDK reads the
  // same variables itself; they are parsed here so start-up can decide the driver and report mistakes.
  INNGEST_EVENT_KEY: optionalString(z.string()),
  INNGEST_SIGNING_KEY: optionalString(z.string()),
  INNGEST_DEV: optionalString(
    z
      .string()
      .trim()
      .refine((v) => devFlag(v) !== undefined || isHttpUrl(v), "must be 1, 0, true, false or the Dev Server's http(s) URL"),
  ),
  INNGEST_BASE_URL: optionalString(z.url({ protocol: /^https?$/, error: "must be an http(s) URL such as http://inngest:8288" })),
  // Bitcoin Core-style JSON-RPC of each chain's node (credentials in the URL); unset: not watched.
  BITCOIN_RPC_URL: rpcUrl("http://user:password@127.0.0.1:8332/"),
  LITECOIN_RPC_URL: rpcUrl("http://user:password@127.0.0.1:9332/"),
  BITCOIN_CASH_RPC_URL: rpcUrl("http://user:password@127.0.0.1:8332/"),
  // Any EVM JSON-RPC (an own node or a provider); its chain id decides the network.
  ETHEREUM_RPC_URL: rpcUrl("https://eth.example.com/v2/KEY or http://127.0.0.1:8545"),
  // A java-tron full node's HTTP API (its /wallet paths): an own node or a provider such as TronGrid.
  TRON_RPC_URL: rpcUrl("http://127.0.0.1:8090 or https://api.trongrid.io"),
  // Sent as the TRON-PRO-API-KEY header (TronGrid's key); never logged.
  TRON_API_KEY: optionalString(z.string().trim().regex(/^[\x21-\x7e]{1,200}$/, "must be the provider's key: printable characters, no spaces")),
  ...TOKEN_CONTRACTS_ENV,
  ...MONERO_ENV,
  ...SOLANA_ENV,
  ...TON_ENV,
  // Webhooks of both modes may go to private addresses and plain http (a merchant server on the service's own network).
  WEBHOOK_ALLOW_PRIVATE_TARGETS: optionalString(z.string().trim().refine((v) => devFlag(v) !== undefined, "must be 1, 0, true or false")),
  LATE_PAYMENT_WINDOW: optionalString(z.string().trim().regex(DURATION, "must be a duration such as 7d, 12h, 30m or 3600 (seconds)")).default("7d"),
  ...RATES_ENV,
  ...FRAME_ANCESTORS_ENV,
  // Dashboard sign-in attempts (and second-step codes) per client address per minute.
  SIGN_IN_ATTEMPTS_PER_MINUTE: z.preprocess((v) => (v === "" ? undefined : v), z.coerce.number().int().min(1).max(10_000).default(5)),
  // Wrong passwords for one email address that lock its sign-in, and for how long (per-account lockout).
  SIGN_IN_LOCKOUT_FAILURES: z.preprocess((v) => (v === "" ? undefined : v), z.coerce.number().int().min(1).max(10_000).default(10)),
  SIGN_IN_LOCKOUT_MINUTES: z.preprocess((v) => (v === "" ? undefined : v), z.coerce.number().int().min(1).max(24 * 60).default(15)),
  ...TRUSTED_PROXIES_ENV,
  ...MAIL_ENV,
  ...LOG_ENV,
});


function rpcUrl(example: string) {
  return optionalString(z.url({ protocol: /^https?$/, error: `must be an http(s) URL such as ${example}` }));
}


export type Config = {
  env: "development" | "production" | "test";
  port: number;
  databaseUrl: string | undefined;
  /** Directory of the embedded database and generated secrets; ":memory:" keeps both in memory. */
  dataDir: string;
  publicBaseUrl: string;
  /** Undefined disables the admin API. */
  adminToken: string | undefined;
  /** METRICS_TOKEN: the bearer token /metrics asks for; undefined: /metrics is a 404. */
  metricsToken: string | undefined;
  apiKeySecret: Uint8Array;
  rateLimit: { perSecond: number; burst: number };
  /**
   * Inngest settings (design §2). `enabled` (an event key, or dev mode) selects Inngest as the
   * background driver; otherwise the embedded runner runs and nothing is ever sent to Inngest.
   */
  inngest: {
    enabled: boolean;
    eventKey: string | undefined;
    signingKey: string | undefined;
    /** INNGEST_DEV is 1/true or a Dev Server URL. */
    dev: boolean;
    baseUrl: string | undefined;
  };
  /** The chains whose nodes the service follows (lib/chains/watch), and how long closed payments stay watched. */
  chains: {
    rpcUrls: Partial<Record<WatchedChain, string>>;
    /** ETHEREUM_TOKEN_CONTRACTS: contracts replacing the built-in mainnet ones. */
    tokenContracts: Partial<Record<Erc20Coin, string>>;
    /** TRON_TOKEN_CONTRACTS (the same for TRC-20 tokens) and TRON_API_KEY. */
    tron: { tokenContracts: Partial<Record<Trc20Coin, string>>; apiKey: string | undefined };
    /** SOLANA_TOKEN_MINTS: mints replacing the built-in mainnet ones. */
    solana: { tokenMints: Partial<Record<SplCoin, string>> };
    ton?: TonChainConfig;
    /** MONERO_WALLET_RPC_URL: the monero-wallet-rpc holding the businesses' view-only wallets (MONERO_DAEMON_URL is rpcUrls.MONERO). */
    monero?: { walletRpcUrl: string | undefined };
    latePaymentWindowMs: number;
  };
  /**
   * WEBHOOK_ALLOW_PRIVATE_TARGETS: webhook URLs (and their deliveries) of live businesses, and of
   * test businesses in production, may be http:// and private, loopback or link-local addresses —
   * for a self-hosted service whose merchant server sits on the same private network. Off by
   * default (D7's SSRF guard, lib/http/url-safety.ts).
   */
  webhookPrivateTargets: boolean;
  /** CHECKOUT_FRAME_ANCESTORS: the origins that may frame the checkout page; empty: none may. */
  checkoutFrameAncestors: string[];
  /** Dashboard sign-in attempts (and second-step codes) allowed per client address per minute. */
  signInAttemptsPerMinute: number;
  /**
   * Per-email lockout: `failures` wrong passwords within `minutes` lock that address's sign-in
   * for `minutes`, whether or not a user has it (lib/accounts/sign-in-lockout.ts).
   */
  signInLockout: { failures: number; minutes: number };
  /** TRUSTED_PROXIES: connections from these may say whom they forward for (X-Forwarded-For). */
  trustedProxies: TrustedProxy[];
  /** Exchange rates: a pinned RATES_FILE, market providers, or the static table for test businesses (lib/config/rates.ts). */
  rates: RatesConfig;
  /** Customer e-mails: the SMTP server (none: kept, not sent), the sender, explorer links (lib/config/mail.ts). */
  mail: MailConfig;
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
  const inngestDev = e.INNGEST_DEV !== undefined && (devFlag(e.INNGEST_DEV) ?? true);
  if (e.INNGEST_EVENT_KEY && !inngestDev && !e.INNGEST_SIGNING_KEY) {
    problems.push(
      "INNGEST_SIGNING_KEY: required with INNGEST_EVENT_KEY (Inngest signs its calls to /api/inngest); for the Dev Server set INNGEST_DEV=1 instead",
    );
  }
  const rates = ratesConfigOf(e);
  problems.push(...rates.problems);
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

  const publicBaseUrl = (e.PUBLIC_BASE_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, "");
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    databaseUrl: e.DATABASE_URL,
    dataDir: e.DATA_DIR,
    publicBaseUrl,
    adminToken,
    metricsToken: e.METRICS_TOKEN,
    apiKeySecret: new TextEncoder().encode(apiKeySecret!),
    rateLimit: { perSecond: e.RATE_LIMIT_PER_SECOND, burst: e.RATE_LIMIT_BURST },
    inngest: {
      enabled: Boolean(e.INNGEST_EVENT_KEY) || inngestDev,
      eventKey: e.INNGEST_EVENT_KEY,
      signingKey: e.INNGEST_SIGNING_KEY,
      dev: inngestDev,
      baseUrl: e.INNGEST_BASE_URL,
    },
    chains: {
      rpcUrls: Object.fromEntries(
        (
          [
            ["BITCOIN", e.BITCOIN_RPC_URL],
            ["LITECOIN", e.LITECOIN_RPC_URL],
            ["BITCOIN_CASH", e.BITCOIN_CASH_RPC_URL],
            ["ETHEREUM", e.ETHEREUM_RPC_URL],
            ["TRON", e.TRON_RPC_URL],
            ["MONERO", e.MONERO_DAEMON_URL],
            ["SOLANA", e.SOLANA_RPC_URL],
            ["TON", e.TON_API_URL],
          ] as const
        ).filter(([, url]) => url !== undefined),
      ),
      tokenContracts: e.ETHEREUM_TOKEN_CONTRACTS,
      tron: { tokenContracts: e.TRON_TOKEN_CONTRACTS, apiKey: e.TRON_API_KEY },
      solana: { tokenMints: e.SOLANA_TOKEN_MINTS },
      ton: { jettonMasters: e.TON_JETTON_MASTERS, apiKey: e.TON_API_KEY },
      monero: { walletRpcUrl: e.MONERO_WALLET_RPC_URL },
      latePaymentWindowMs: durationMs(e.LATE_PAYMENT_WINDOW),
    },
    webhookPrivateTargets: e.WEBHOOK_ALLOW_PRIVATE_TARGETS !== undefined && devFlag(e.WEBHOOK_ALLOW_PRIVATE_TARGETS) === true,
    checkoutFrameAncestors: e.CHECKOUT_FRAME_ANCESTORS,
    rates: rates.config,
    signInAttemptsPerMinute: e.SIGN_IN_ATTEMPTS_PER_MINUTE,
    signInLockout: { failures: e.SIGN_IN_LOCKOUT_FAILURES, minutes: e.SIGN_IN_LOCKOUT_MINUTES },
    trustedProxies: e.TRUSTED_PROXIES,
    mail: mailConfigOf(e, publicBaseUrl),
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
