"use server";

import { getDb } from "@/db/client";
import { currentUser, type ActionResult } from "@/lib/accounts/session";
import { acceptInviteWithNewAccount, joinInvite } from "@/lib/dashboard/invites";
import { ApiError, plainFieldErrors } from "@/lib/http/errors";
import { log } from "@/log/logger.mjs";

type Accepted = ActionResult<{ email: string; created: boolean }>;

/** Errors reach the form as `asUser` would give them: the service's detail and field errors, never a stack trace. */
async function answer(work: () => Promise<{ email: string; created: boolean }>): Promise<Accepted> {
  try {
    const { email, created } = await work();
    return { ok: true, data: { email, created } };
  } catch (e) {
    if (e instanceof ApiError) return { ok: false, error: e.detail, fieldErrors: plainFieldErrors(e.fieldErrors), status: e.status };
    log.error({ component: "dashboard", err: e }, "accepting an invitation failed");
    return { ok: false, error: "Something went wrong on our side. Please try again.", status: 500 };
  }
}

/** Accepts the invitation for the signed-in user, who must be the invited address. */
export async function joinInviteAction(token: string): Promise<Accepted> {
  return answer(async () => joinInvite(await getDb(), token, await currentUser()));
}

/** Accepts the invitation by making the invited address's account (no session needed: there is no account yet). */
export async function createAccountFromInviteAction(token: string, input: unknown): Promise<Accepted> {
  return answer(async () => acceptInviteWithNewAccount(await getDb(), token, input));
}
