import { and, eq } from "drizzle-orm";
import type { Tx } from "../client";
import { businessMembers, type MemberRole } from "../schema/accounts";

/*
 * Changes to a business's memberships. Whoever changes a role or removes a member first locks
 * the business's owner rows (`lockOwners`, in the same transaction), so two owners demoting each
 * other at once cannot leave the business without one: the second sees the first's change.
 */

/** The business's owners, their rows locked until the transaction ends. */
export async function lockOwners(tx: Tx, businessId: number): Promise<string[]> {
  const rows = await tx
    .select({ userId: businessMembers.userId })
    .from(businessMembers)
    .where(and(eq(businessMembers.businessId, businessId), eq(businessMembers.role, "owner")))
    .for("update");
  return rows.map((r) => r.userId);
}

/** Sets a member's role; undefined when the user is not a member. */
export async function setMemberRole(tx: Tx, businessId: number, userId: string, role: MemberRole) {
  const [row] = await tx
    .update(businessMembers)
    .set({ role })
    .where(and(eq(businessMembers.businessId, businessId), eq(businessMembers.userId, userId)))
    .returning();
  return row;
}

/** Ends a membership (the user's account stays); undefined when the user was not a member. */
export async function deleteMember(tx: Tx, businessId: number, userId: string) {
  const [row] = await tx
    .delete(businessMembers)
    .where(and(eq(businessMembers.businessId, businessId), eq(businessMembers.userId, userId)))
    .returning();
  return row;
}
