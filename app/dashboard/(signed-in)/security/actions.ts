"use server";

import { headers } from "next/headers";
import { getAuth } from "@/lib/accounts/auth";
import { changePassword } from "@/lib/accounts/password";
import { asUser } from "@/lib/accounts/session";

/** The Security page's password change, for the signed-in user (Better Auth's nextCookies sets the new session cookie). */
export async function changePasswordAction(input: unknown) {
  return asUser(async () => changePassword(await getAuth(), await headers(), input));
}
