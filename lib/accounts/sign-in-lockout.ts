import { APIError, createAuthMiddleware, isAPIError } from "better-auth/api";
import type { Db } from "@/db/client";
import { clearFailures, lockedUntil, recordFailure } from "@/db/queries/sign-in-lockouts";
import type { Config } from "@/lib/config";
import { LOCKED_CODE } from "./lockout-code";

/*
 * Per-account lockout, beside Better Auth's per-address rate limit (which a spread-out guesser
 * escapes): SIGN_IN_LOCKOUT_FAILURES wrong passwords for one email address within
 * SIGN_IN_LOCKOUT_MINUTES lock that address's password step for SIGN_IN_LOCKOUT_MINUTES. Counts
 * are kept per address typed, whether or not a user has it, so the lockout answers alike for
 * both and reveals nothing. While locked the password is not even checked, so a guess made then
 * learns nothing either. A correct password clears the count. Better Auth has no per-account
 * lockout of its own; its before/after hooks are the documented way to add one.
 */

const SIGN_IN_PATH = "/sign-in/email";

/** The key an address is counted under: what sign-in itself matches (Better Auth lowercases emails). */
export const lockoutKey = (email: unknown): string | null =>
  typeof email === "string" && email.trim() !== "" ? email.trim().toLowerCase() : null;

function lockedError(until: Date, now: Date): APIError {
  const seconds = Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000));
  const minutes = Math.ceil(seconds / 60);
  return new APIError(
    "TOO_MANY_REQUESTS",
    {
      code: LOCKED_CODE,
      message: `Too many failed sign-ins with this email address. Sign-in for it is locked; try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`,
    },
    { "X-Retry-After": String(seconds) },
  );
}

/** Better Auth's `hooks` option: the lock check before the password step, the count after it. */
export function signInLockoutHooks(db: Db, cfg: Pick<Config, "signInLockout">) {
  const windowMs = cfg.signInLockout.minutes * 60_000;
  return {
    before: createAuthMiddleware(async (ctx) => {
      if (ctx.path !== SIGN_IN_PATH) return;
      const email = lockoutKey(ctx.body?.email);
      if (!email) return;
      const now = new Date();
      const until = await lockedUntil(db, email, now);
      if (until) throw lockedError(until, now);
    }),
    after: createAuthMiddleware(async (ctx) => {
      if (ctx.path !== SIGN_IN_PATH) return;
      const email = lockoutKey(ctx.body?.email);
      if (!email) return;
      const returned = ctx.context.returned;
      if (isAPIError(returned)) {
        // Only a wrong email or password counts; a refused origin or a rate limit is no guess.
        if (returned.statusCode !== 401) return;
        const now = new Date();
        const until = await recordFailure(db, email, now, cfg.signInLockout.failures, windowMs);
        if (until) console.warn(`[auth] sign-in for an email address locked until ${until.toISOString()} after ${cfg.signInLockout.failures} failures`);
        return;
      }
      await clearFailures(db, email);
    }),
  };
}

/** The operator's unlock (admin API, CLI): forgets the address's failures; says whether it was locked. */
export async function unlockSignIn(db: Db, email: string): Promise<{ email: string; wasLocked: boolean }> {
  const key = lockoutKey(email)!;
  return { email: key, wasLocked: await clearFailures(db, key) };
}
