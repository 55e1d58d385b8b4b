"use server";

import { getDb } from "@/db/client";
import type { ActionResult } from "@/lib/accounts/session";
import { acceptInvite } from "@/lib/dashboard/invites";
import { ApiError, plainFieldErrors } from "@/lib/http/errors";

/**
 * Accepts an invitation (no session: the link's token is the credential). Errors reach the
 * form as `asUser` would give them: the service's detail and field errors, never a stack trace.
 */
export async function acceptInviteAction(token: string, input: unknown): Promise<ActionResult<{ email: string; created: boolean }>> {
  try {
    const { email, created } = await acceptInvite(await getDb(), token, input);
    return { ok: true, data: { email, created } };
  } catch (e) {
    if (e instanceof ApiError) return { ok: false, error: e.detail, fieldErrors: plainFieldErrors(e.fieldErrors), status: e.status };
    console.error("[dashboard] accepting an invitation failed", e);
    return { ok: false, error: "Something went wrong on our side. Please try again.", status: 500 };
  }
}
