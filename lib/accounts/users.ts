import { randomBytes } from "node:crypto";
import type { Db } from "@/db/client";
import { findBusiness } from "@/db/queries/businesses";
import { addMember, findUserByEmail } from "@/db/queries/members";
import type { MemberRole } from "@/db/schema/accounts";
import { inTransaction } from "@/db/transaction";
import { conflict, invalidField } from "@/lib/http/errors";
import { createAuth, PASSWORD_MAX, PASSWORD_MIN } from "./auth";

export type NewUser = { email: string; name?: string; password?: string; businessId: number; role: MemberRole };

/** A password for a user created without one: 24 url-safe characters (144 bits), shown once. */
export function generatePassword(): string {
  return randomBytes(18).toString("base64url");
}

/**
 * A dashboard user of `businessId` with `role` (the operator's `user create`, the first run, an
 * accepted invitation). A new email gets an account with the given password (or a generated
 * one, returned once); an existing user gets the membership (or the new role) and keeps their
 * password, so a password given for one is refused (409) rather than silently ignored: setting
 * it is `setPassword`'s (lib/accounts/set-password.ts). The password is hashed by Better Auth
 * (scrypt).
 */
export async function createUser(db: Db, input: NewUser) {
  const email = input.email.trim().toLowerCase();
  if (!(await findBusiness(db, input.businessId))) throw invalidField("businessId", `no business ${input.businessId} exists`);
  const existing = await findUserByEmail(db, email);
  if (existing) {
    if (input.password !== undefined) {
      throw conflict(
        `${email} already has a dashboard account, and this does not change its password. Leave out the password to add the account to business ${input.businessId}, or set the password with POST /admin/v1/users/password (npm run admin -- user set-password).`,
      );
    }
    await addMember(db, existing.id, input.businessId, input.role);
    return { userId: existing.id, email, created: false as const, password: null };
  }
  const password = input.password ?? generatePassword();
  const ctx = await createAuth(db).$context;
  // Counted in code points (an emoji is one character), as the admin API documents.
  const chars = [...password].length;
  if (chars < PASSWORD_MIN) throw invalidField("password", `must be at least ${PASSWORD_MIN} characters`);
  if (chars > PASSWORD_MAX) throw invalidField("password", `must be at most ${PASSWORD_MAX} characters`);
  const hash = await ctx.password.hash(password);
  return inTransaction(db, async (tx) => {
    const txCtx = await createAuth(tx).$context;
    const user = await txCtx.internalAdapter.createUser({ email, name: input.name?.trim() || email.split("@")[0], emailVerified: true }, { method: "admin" });
    await txCtx.internalAdapter.linkAccount({ userId: user.id, providerId: "credential", accountId: user.id, password: hash });
    await addMember(tx, user.id, input.businessId, input.role);
    return { userId: user.id, email, created: true as const, password: input.password ? null : password };
  });
}
