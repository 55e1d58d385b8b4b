import { APIError, createAuthMiddleware, getSessionFromCtx, isAPIError } from "better-auth/api";
import { z } from "zod";
import type { Db } from "@/db/client";
import { clearFailures, lockedUntil, recordFailure } from "@/db/queries/sign-in-lockouts";
import type { Config } from "@/lib/config";
import { LOCKED_CODE } from "./lockout-code";
import { log } from "@/log/logger.mjs";

/*
 * Per-account lockout, beside Better Auth's per-address rate limit (which a spread-out guesser
 * escapes): SIGN_IN_LOCKOUT_FAILURES wrong passwords for one email address within
 * SIGN_IN_LOCKOUT_MINUTES lock that address's password step for SIGN_IN_LOCKOUT_MINUTES. Counts
 * are kept per address typed, whether or not a user has it, so the lockout answers alike for
 * both and reveals nothing. While locked the password is not even checked, so a guess made then
 * learns nothing either. A correct password clears the count. Better Auth has no per-account
 * lockout of its own; its before/after hooks are the documented way to add one.
 *
 * A signed-in user's password checks (the Security page: changing the password, turning
 * two-factor sign-in on or off) count toward the same lockout of the user's email: a session
 * someone else holds must not become an unlimited password oracle.
 */

const SIGN_IN_PATH = "/sign-in/email";
/** Endpoints that check the signed-in user's password; each answers a wrong one with INVALID_PASSWORD. */
const SESSION_PASSWORD_PATHS = new Set(["/change-password", "/two-factor/enable", "/two-factor/disable"]);

/** Better Auth's own e-mail check at sign-in (`z.email()` on the address as typed), so both agree on what an address is. */
const SignInEmail = z.email();

/** The key an address is counted under: what sign-in itself matches (Better Auth lowercases emails); null for anything not an address. */
export const lockoutKey = (email: unknown): string | null =>
  typeof email === "string" && SignInEmail.safeParse(email).success ? email.toLowerCase() : null;

/** Seconds until `until`, at least one. */
export const secondsUntil = (until: Date, now: Date) => Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000));

function lockedError(until: Date, now: Date): APIError {
  const seconds = secondsUntil(until, now);
  const minutes = Math.ceil(seconds / 60);
  return new APIError(
    "TOO_MANY_REQUESTS",
    {
      code: LOCKED_CODE,
      message: `Too many failed sign-ins with this email address. Sign-in for it is locked; try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`,
    },
    // Retry-After is the standard header (RFC 9110); X-Retry-After is what Better Auth's own 429 carries.
    { "Retry-After": String(seconds), "X-Retry-After": String(seconds) },
  );
}

type HookContext = Parameters<Parameters<typeof createAuthMiddleware>[0]>[0];

/**
 * The email address whose password this request checks, or undefined when it checks none. The
 * signed-in user's for the session endpoints (null without a session: the endpoint answers 401).
 */
async function checkedEmail(ctx: HookContext): Promise<string | null | undefined> {
  if (ctx.path === SIGN_IN_PATH) return lockoutKey(ctx.body?.email);
  if (!SESSION_PASSWORD_PATHS.has(ctx.path)) return undefined;
  const session = await getSessionFromCtx(ctx);
  return session ? session.user.email.toLowerCase() : null;
}

/** Whether the endpoint's answer is a wrong password (only that counts: a refused origin or a rate limit is no guess). */
function wrongPassword(ctx: HookContext, returned: APIError): boolean {
  if (ctx.path === SIGN_IN_PATH) return returned.statusCode === 401;
  return returned.body?.code === "INVALID_PASSWORD";
}

/** Better Auth's `hooks` option: the lock check before the password step, the count after it. */
export function signInLockoutHooks(db: Db, cfg: Pick<Config, "signInLockout">) {
  const windowMs = cfg.signInLockout.minutes * 60_000;
  return {
    before: createAuthMiddleware(async (ctx) => {
      if (ctx.path === SIGN_IN_PATH && typeof ctx.body?.email === "string" && !lockoutKey(ctx.body.email)) {
        // Refused before the lockout's query: a string PostgreSQL cannot store (a NUL) must not reach it.
        throw new APIError("BAD_REQUEST", { code: "INVALID_EMAIL", message: "Invalid email" });
      }
      const email = await checkedEmail(ctx);
      if (!email) return;
      const now = new Date();
      const until = await lockedUntil(db, email, now);
      if (until) throw lockedError(until, now);
    }),
    after: createAuthMiddleware(async (ctx) => {
      if (ctx.path !== SIGN_IN_PATH && !SESSION_PASSWORD_PATHS.has(ctx.path)) return;
      const returned = ctx.context.returned;
      if (isAPIError(returned) && !wrongPassword(ctx, returned)) return;
      const email = await checkedEmail(ctx);
      if (!email) return;
      if (!isAPIError(returned)) return void (await clearFailures(db, email));
      const until = await recordFailure(db, email, new Date(), cfg.signInLockout.failures, windowMs);
      if (until) log.warn({ component: "auth", lockedUntil: until.toISOString(), failures: cfg.signInLockout.failures }, "sign-in for an email address is locked after repeated wrong passwords");
    }),
  };
}

/** The operator's unlock (admin API, CLI): forgets the address's failures; says whether it was locked. */
export async function unlockSignIn(db: Db, email: string): Promise<{ email: string; wasLocked: boolean }> {
  const key = email.trim().toLowerCase();
  return { email: key, wasLocked: await clearFailures(db, key) };
}
