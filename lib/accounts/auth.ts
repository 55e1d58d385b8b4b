import { createHmac } from "node:crypto";
import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { APIError } from "better-auth/api";
import { nextCookies } from "better-auth/next-js";
import { twoFactor } from "better-auth/plugins/two-factor";
import { getDb, type Db } from "@/db/client";
import { accounts, authRateLimits, sessions, twoFactors, users, verifications } from "@/db/schema/accounts";
import { config, type Config } from "@/lib/config";
import { log } from "@/log/logger.mjs";
import { UserFieldsSchema } from "./schemas";
import { signInLockoutHooks } from "./sign-in-lockout";

/*
 * Dashboard accounts through Better Auth (a library, not hand-written sessions or hashing):
 * - email and password, hashed with scrypt (memory-hard), no public sign-up: users are created
 *   by the operator (admin API, CLI, first run) or by an owner's invitation (lib/accounts/users.ts);
 * - sessions are database rows; the cookie is HttpOnly, SameSite=Lax, Secure in production and
 *   wherever PUBLIC_BASE_URL is https;
 *   a session lasts SESSION_HOURS and is renewed on use at most hourly;
 * - only the endpoints the dashboard uses are reachable over HTTP (lib/accounts/auth-handler.ts);
 *   every user field Better Auth writes passes our schemas first (`databaseHooks`);
 * - sign-in is rate-limited per client address in the database (shared by all instances), the
 *   address resolved from the connection (lib/http/client-address.ts), and
 *   a wrong email and a wrong password get the same answer; repeated wrong passwords for one
 *   email address lock its sign-in for a while, alike whether or not a user has it
 *   (lib/accounts/sign-in-lockout.ts);
 * - TOTP two-factor for users who enable it (the secret is stored encrypted; repeated wrong
 *   codes lock the second step for a while);
 * - CSRF: state-changing requests must come from the service's own origin (Better Auth checks
 *   Origin and Fetch Metadata; server actions are checked by Next.js the same way).
 */

export const SESSION_HOURS = 12;
/** Password length in characters (code points); Better Auth counts UTF-16 units, so its ceiling is four times ours. */
export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 128;

/** The auth secret, derived from API_KEY_SECRET so no further secret needs managing. */
function authSecret(cfg: Config): string {
  return createHmac("sha256", cfg.apiKeySecret).update("better-auth").digest("base64url");
}

/** Better Auth's user writes, held to UserFieldsSchema; a refused write is a 400 naming the field. */
async function checkUserFields<T extends Record<string, unknown>>(user: T): Promise<{ data: T }> {
  const parsed = UserFieldsSchema.safeParse(user);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new APIError("BAD_REQUEST", { code: "INVALID_USER_FIELD", message: `${issue.path.join(".")}: ${issue.message}` });
  }
  return { data: { ...user, ...parsed.data } };
}

export function createAuth(db: Db, cfg: Config = config()) {
  // Sign-in attempts per client address per minute (SIGN_IN_ATTEMPTS_PER_MINUTE, 5); beyond, 429 with Retry-After.
  const attempts = { window: 60, max: cfg.signInAttemptsPerMinute };
  return betterAuth({
    appName: "cryptopay",
    baseURL: cfg.publicBaseUrl,
    basePath: "/api/auth",
    secret: authSecret(cfg),
    trustedOrigins: [cfg.publicBaseUrl],
    database: drizzleAdapter(db, {
      provider: "pg",
      schema: { user: users, session: sessions, account: accounts, verification: verifications, twoFactor: twoFactors, rateLimit: authRateLimits },
    }),
    emailAndPassword: { enabled: true, disableSignUp: true, minPasswordLength: PASSWORD_MIN, maxPasswordLength: PASSWORD_MAX * 4 },
    session: { expiresIn: SESSION_HOURS * 3600, updateAge: 3600 },
    rateLimit: {
      enabled: true,
      storage: "database",
      window: 60,
      max: 100,
      customRules: {
        "/sign-in/email": attempts,
        "/two-factor/verify-totp": attempts,
        "/two-factor/verify-backup-code": attempts,
      },
    },
    // disableOriginCheck: false keeps the Origin check on under NODE_ENV=test too (Better Auth skips it there by default).
    // Secure cookies wherever the service is reached over https (every production deployment; PUBLIC_BASE_URL says which).
    // The client's address is in X-Forwarded-For only as lib/accounts/auth-handler.ts rewrites it.
    advanced: {
      useSecureCookies: cfg.production || cfg.publicBaseUrl.startsWith("https://"),
      cookiePrefix: "cryptopay",
      disableOriginCheck: false,
      ipAddress: { ipAddressHeaders: ["x-forwarded-for"] },
    },
    telemetry: { enabled: false },
    // Better Auth's own lines (why a sign-in failed, a refused origin) go through the service's
    // logger, redacted like every other; LOG_LEVEL decides which are written.
    logger: { level: "debug", log: (level, message, ...args) => log[level]({ component: "auth", ...(args.length ? { details: args } : {}) }, message) },
    hooks: signInLockoutHooks(db, cfg),
    databaseHooks: { user: { create: { before: checkUserFields }, update: { before: checkUserFields } } },
    plugins: [twoFactor({ issuer: "cryptopay" }), nextCookies()],
  });
}

export type Auth = ReturnType<typeof createAuth>;

const g = globalThis as unknown as { __paymentsAuth?: Promise<Auth> };

/** The process's Better Auth instance, over the process's database. */
export function getAuth(): Promise<Auth> {
  g.__paymentsAuth ??= getDb().then((db) => createAuth(db));
  return g.__paymentsAuth;
}
