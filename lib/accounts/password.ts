import { isAPIError } from "better-auth/api";
import { z } from "zod";
import { CreateUserSchema } from "./schemas";
import { ApiError, invalidField } from "@/lib/http/errors";
import { parseWith } from "@/lib/http/parse";
import type { Auth } from "./auth";

/*
 * A signed-in user changes their password (the Security page): the operator's or the first
 * run's generated password is meant to be replaced. The new password follows the one rule every
 * password here follows (CreateUserSchema's: 10 to 128 characters); Better Auth checks the
 * current one and stores the new hash; every other session of the user ends, so a session
 * someone else holds with the old password does not outlive the change. A wrong current password
 * counts toward the per-email lockout, and a locked address is refused (429) without a check
 * (lib/accounts/sign-in-lockout.ts).
 */

export const ChangePasswordSchema = z
  .strictObject({
    currentPassword: z.string().min(1, "enter your current password"),
    newPassword: CreateUserSchema.shape.password.unwrap(),
    confirmPassword: z.string(),
  })
  .refine((v) => v.newPassword === v.confirmPassword, { path: ["confirmPassword"], message: "does not match the new password" })
  .refine((v) => v.newPassword !== v.currentPassword, { path: ["newPassword"], message: "must differ from the current password" });

/**
 * Changes the password of the user whose session `requestHeaders` carry, then ends their other
 * sessions. The current session is kept as it is rather than replaced (Better Auth's
 * `revokeOtherSessions` option would issue a new cookie, which the page rendered with the
 * action's answer does not see yet: it would find itself signed out).
 */
export async function changePassword(auth: Auth, requestHeaders: Headers, input: unknown): Promise<void> {
  const { currentPassword, newPassword } = parseWith(ChangePasswordSchema, input);
  try {
    await auth.api.changePassword({ body: { currentPassword, newPassword }, headers: requestHeaders });
  } catch (e) {
    if (isAPIError(e) && e.body?.code === "INVALID_PASSWORD") throw invalidField("currentPassword", "is not correct");
    if (isAPIError(e) && e.statusCode === 429) throw new ApiError("rate-limited", 429, e.body?.message ?? "Too many attempts. Try again later.");
    throw e;
  }
  await auth.api.revokeOtherSessions({ headers: requestHeaders });
}
