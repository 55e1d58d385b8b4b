"use server";

import { refresh } from "next/cache";
import { getDb } from "@/db/client";
import { asUser, type ActionResult, type DashboardUser } from "@/lib/accounts/session";
import { createInvite, revokeInvite } from "@/lib/dashboard/invites";
import { changeMemberRole, removeMember } from "@/lib/dashboard/members";

/* The Members page's server actions: thin shells over lib/dashboard/members.ts and invites.ts, which authorize and validate. */

async function change<T>(work: (user: DashboardUser) => Promise<T>): Promise<ActionResult<T>> {
  const result = await asUser(work);
  if (result.ok) refresh();
  return result;
}

export async function changeRoleAction(businessId: number, memberId: string, role: string) {
  return change(async (u) => changeMemberRole(await getDb(), u.id, businessId, memberId, role));
}

export async function removeMemberAction(businessId: number, memberId: string) {
  return change(async (u) => removeMember(await getDb(), u.id, businessId, memberId));
}

export async function createInviteAction(businessId: number, input: { email: string; role: string }) {
  return change(async (u) => createInvite(await getDb(), u.id, businessId, input));
}

export async function revokeInviteAction(businessId: number, inviteId: string) {
  return change(async (u) => revokeInvite(await getDb(), u.id, businessId, inviteId));
}
