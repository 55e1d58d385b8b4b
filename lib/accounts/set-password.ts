import { z } from "zod";
import type { Db } from "@/db/client";
import { findUserByEmail } from "@/db/queries/members";
import { inTransaction } from "@/db/transaction";
import { notFound } from "@/lib/http/errors";
import { createAuth } from "./auth";
import { CreateUserSchema } from "./schemas";
import { generatePassword } from "./users";

/** POST /admin/v1/users/password: the operator sets a dashboard user's password (a forgotten one, a leaked one). */
export const SetPasswordSchema = z
  .strictObject({
    email: CreateUserSchema.shape.email,
    password: CreateUserSchema.shape.password,
  })
  .meta({ id: "SetPassword", description: "Without `password` one is generated and returned once." });
export type SetPasswordInput = z.infer<typeof SetPasswordSchema>;

/**
 * Sets the password of the user with `email` (the same rule as every password here:
 * CreateUserSchema's), or a generated one, returned once; every session of the user ends, so
 * whoever held the old password is signed out everywhere. The hash is Better Auth's (scrypt). The
 * email's sign-in lockout, if any, stays: `user unlock` lifts it.
 */
export async function setPassword(db: Db, input: SetPasswordInput) {
  const email = input.email.trim().toLowerCase();
  const user = await findUserByEmail(db, email);
  if (!user) throw notFound(`No dashboard user has the email ${email}. Create one with POST /admin/v1/users (npm run admin -- user create).`);
  const password = input.password ?? generatePassword();
  const hash = await (await createAuth(db).$context).password.hash(password);
  const sessionsEnded = await inTransaction(db, async (tx) => {
    const auth = (await createAuth(tx).$context).internalAdapter;
    const hasCredential = (await auth.findAccounts(user.id)).some((a) => a.providerId === "credential");
    if (hasCredential) await auth.updatePassword(user.id, hash);
    else await auth.linkAccount({ userId: user.id, providerId: "credential", accountId: user.id, password: hash });
    const ended = (await auth.listSessions(user.id, { onlyActiveSessions: true })).length;
    await auth.deleteUserSessions(user.id);
    return ended;
  });
  return { userId: user.id, email, password: input.password ? null : password, sessionsEnded };
}
