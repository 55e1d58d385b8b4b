import { and, asc, eq, gt, isNull } from "drizzle-orm";
import type { Tx } from "../client";
import { businesses } from "../schema/businesses";
import { memberInvites } from "../schema/accounts";

/*
 * Owners' invitations (member_invites). Rows are found by the SHA-256 of the link's token: the
 * token itself is never stored. Accepting claims the row with a conditional UPDATE, so a link
 * works once even when opened twice at the same moment.
 */

export type InviteRow = typeof memberInvites.$inferSelect;

export async function insertInvite(tx: Tx, row: typeof memberInvites.$inferInsert): Promise<InviteRow> {
  const [created] = await tx.insert(memberInvites).values(row).returning();
  return created;
}

/** The invitation with this token hash and its business's name, whatever its state. */
export async function findInviteByHash(tx: Tx, tokenHash: string) {
  const [row] = await tx
    .select({ invite: memberInvites, businessName: businesses.name, businessMode: businesses.mode })
    .from(memberInvites)
    .innerJoin(businesses, eq(businesses.id, memberInvites.businessId))
    .where(eq(memberInvites.tokenHash, tokenHash))
    .limit(1);
  return row;
}

/** Marks the invitation accepted if it is still open (not accepted, not expired at `now`); the row, or undefined. */
export async function claimInvite(tx: Tx, tokenHash: string, now: Date): Promise<InviteRow | undefined> {
  const [row] = await tx
    .update(memberInvites)
    .set({ acceptedAt: now })
    .where(and(eq(memberInvites.tokenHash, tokenHash), isNull(memberInvites.acceptedAt), gt(memberInvites.expiresAt, now)))
    .returning();
  return row;
}

/** Opens a claimed invitation again (the acceptance that claimed it failed). */
export async function releaseInvite(tx: Tx, id: string): Promise<void> {
  await tx.update(memberInvites).set({ acceptedAt: null }).where(eq(memberInvites.id, id));
}

/** The business's invitations still open at `now`, oldest first. */
export async function openInvites(tx: Tx, businessId: number, now: Date): Promise<InviteRow[]> {
  return tx
    .select()
    .from(memberInvites)
    .where(and(eq(memberInvites.businessId, businessId), isNull(memberInvites.acceptedAt), gt(memberInvites.expiresAt, now)))
    .orderBy(asc(memberInvites.createdAt));
}

/** Withdraws an open invitation of the business (its link stops working); the row, or undefined. */
export async function deleteOpenInvite(tx: Tx, businessId: number, id: string): Promise<InviteRow | undefined> {
  const [row] = await tx
    .delete(memberInvites)
    .where(and(eq(memberInvites.id, id), eq(memberInvites.businessId, businessId), isNull(memberInvites.acceptedAt)))
    .returning();
  return row;
}
