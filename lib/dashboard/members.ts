import { z } from "zod";
import type { Db } from "@/db/client";
import { deleteMember, lockOwners, setMemberRole } from "@/db/queries/member-changes";
import { openInvites } from "@/db/queries/member-invites";
import { membersOf, membershipOf } from "@/db/queries/members";
import { MEMBER_ROLES } from "@/db/schema/accounts";
import { inTransaction } from "@/db/transaction";
import { authorize } from "@/lib/accounts/authorize";
import { conflict, notFound } from "@/lib/http/errors";
import { parseWith } from "@/lib/http/parse";

/*
 * The dashboard's Members section (owners: `manage-members`): who belongs to the business, with
 * which role and whether they sign in with two factors; role changes and removals. A business
 * always keeps at least one owner. Invitations are in ./invites.ts.
 */

export const RoleSchema = z.enum(MEMBER_ROLES, "must be owner, developer or viewer");

export async function membersOverview(db: Db, userId: string, businessId: unknown, now = new Date()) {
  const { business } = await authorize(db, userId, businessId, "manage-members");
  const [members, invites] = await Promise.all([membersOf(db, business.id), openInvites(db, business.id, now)]);
  return {
    members: members.map((m) => ({ ...m, twoFactorEnabled: Boolean(m.twoFactorEnabled), isYou: m.userId === userId })),
    invites: invites.map((i) => ({ inviteId: i.id, email: i.email, role: i.role, createdAt: i.createdAt.toISOString(), expiresAt: i.expiresAt.toISOString() })),
  };
}
export type MembersOverview = Awaited<ReturnType<typeof membersOverview>>;

const MemberId = z.string().min(1).max(200);

/**
 * Runs `change` on a member of the business with its owners locked, after checking the change
 * leaves an owner: `keepsOwner(role)` says whether the member stays an owner.
 */
async function changeMember<T>(
  db: Db,
  businessId: number,
  memberId: unknown,
  keepsOwner: boolean,
  change: (tx: Db, memberId: string) => Promise<T>,
): Promise<T> {
  const id = MemberId.safeParse(memberId);
  const missing = () => notFound(`No member ${String(memberId)} belongs to business ${businessId}.`);
  if (!id.success) throw missing();
  return inTransaction(db, async (tx) => {
    const owners = await lockOwners(tx, businessId);
    const role = await membershipOf(tx, id.data, businessId);
    if (!role) throw missing();
    if (role === "owner" && !keepsOwner && owners.length <= 1) {
      throw conflict("This is the business's last owner: make another member an owner first.");
    }
    return change(tx, id.data);
  });
}

export async function changeMemberRole(db: Db, userId: string, businessId: unknown, memberId: unknown, role: unknown) {
  const { business } = await authorize(db, userId, businessId, "manage-members");
  const next = parseWith(z.strictObject({ role: RoleSchema }), { role }).role;
  return changeMember(db, business.id, memberId, next === "owner", async (tx, id) => {
    await setMemberRole(tx, business.id, id, next);
    return { userId: id, role: next };
  });
}

/** Ends a user's membership (their account stays, with any other business's membership). */
export async function removeMember(db: Db, userId: string, businessId: unknown, memberId: unknown) {
  const { business } = await authorize(db, userId, businessId, "manage-members");
  return changeMember(db, business.id, memberId, false, async (tx, id) => {
    await deleteMember(tx, business.id, id);
    return { userId: id, removed: true as const };
  });
}
