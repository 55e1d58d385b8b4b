import { and, asc, eq } from "drizzle-orm";
import type { Tx } from "../client";
import { businesses } from "../schema/businesses";
import { businessMembers, users, type MemberRole } from "../schema/accounts";

/** The user's role in the business, or undefined when not a member. */
export async function membershipOf(tx: Tx, userId: string, businessId: number): Promise<MemberRole | undefined> {
  const [row] = await tx
    .select({ role: businessMembers.role })
    .from(businessMembers)
    .where(and(eq(businessMembers.userId, userId), eq(businessMembers.businessId, businessId)))
    .limit(1);
  return row?.role;
}

/** The businesses a user belongs to, with the role, by name. */
export async function businessesOfUser(tx: Tx, userId: string) {
  return tx
    .select({ id: businesses.id, name: businesses.name, mode: businesses.mode, role: businessMembers.role })
    .from(businessMembers)
    .innerJoin(businesses, eq(businesses.id, businessMembers.businessId))
    .where(eq(businessMembers.userId, userId))
    .orderBy(asc(businesses.name), asc(businesses.id));
}

/** Adds (or changes) a membership. */
export async function addMember(tx: Tx, userId: string, businessId: number, role: MemberRole): Promise<void> {
  await tx
    .insert(businessMembers)
    .values({ userId, businessId, role })
    .onConflictDoUpdate({ target: [businessMembers.userId, businessMembers.businessId], set: { role } });
}

export async function membersOf(tx: Tx, businessId: number) {
  return tx
    .select({ userId: users.id, email: users.email, name: users.name, role: businessMembers.role, twoFactorEnabled: users.twoFactorEnabled })
    .from(businessMembers)
    .innerJoin(users, eq(users.id, businessMembers.userId))
    .where(eq(businessMembers.businessId, businessId))
    .orderBy(asc(users.email));
}

export async function findUserByEmail(tx: Tx, email: string) {
  const [row] = await tx.select().from(users).where(eq(users.email, email.toLowerCase())).limit(1);
  return row;
}
