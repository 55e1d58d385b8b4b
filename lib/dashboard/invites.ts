import { createHash, randomBytes } from "node:crypto";
import { z } from "zod";
import type { Db } from "@/db/client";
import { claimInvite, deleteOpenInvite, findInviteByHash, insertInvite, releaseInvite } from "@/db/queries/member-invites";
import { addMember, findUserByEmail, membershipOf } from "@/db/queries/members";
import { inTransaction } from "@/db/transaction";
import { authorize } from "@/lib/accounts/authorize";
import { createUser } from "@/lib/accounts/users";
import { CreateUserSchema, UserNameSchema } from "@/lib/accounts/schemas";
import { config } from "@/lib/config";
import { emailField } from "@/lib/http/email-field";
import { ApiError, conflict, invalidField, notFound } from "@/lib/http/errors";
import { parseWith } from "@/lib/http/parse";
import { RoleSchema } from "./members";

/*
 * Owners invite further users without an e-mail server: the owner gets a link to pass on, shown
 * once. The link carries 256 random bits; only their SHA-256 is stored, so the table cannot be
 * turned back into working links. A link works once, for INVITE_DAYS.
 *
 * The link alone does not accept: the owner who made it holds it too. Only the invited person
 * does, either signed in as the invited address (the membership goes to that account, whose
 * password stays) or by making the account for it (a name and password; only while no account
 * has the address). The invitation page shows the same to everyone who opens it, so it does not
 * tell whether the address has an account.
 */

export const INVITE_DAYS = 7;
const TOKEN = /^[A-Za-z0-9_-]{43}$/; // 32 bytes, base64url

const hashOf = (token: string) => createHash("sha256").update(token).digest("hex");

export const InviteSchema = z.strictObject({ email: emailField, role: RoleSchema });

export async function createInvite(db: Db, userId: string, businessId: unknown, input: unknown, now = new Date()) {
  const { business } = await authorize(db, userId, businessId, "manage-members");
  const given = input && typeof input === "object" ? (input as Record<string, unknown>) : {};
  const { email, role } = parseWith(InviteSchema, {
    ...given,
    ...(typeof given.email === "string" && { email: given.email.trim().toLowerCase() }),
  });
  const existing = await findUserByEmail(db, email);
  if (existing && (await membershipOf(db, existing.id, business.id))) {
    throw invalidField("email", "already belongs to this business; change their role in the list instead");
  }
  const token = randomBytes(32).toString("base64url");
  const invite = await insertInvite(db, {
    id: `inv_${randomBytes(12).toString("base64url")}`,
    tokenHash: hashOf(token),
    businessId: business.id,
    email,
    role,
    invitedBy: userId,
    expiresAt: new Date(now.getTime() + INVITE_DAYS * 86_400_000),
    createdAt: now,
  });
  return {
    inviteId: invite.id,
    email,
    role,
    expiresAt: invite.expiresAt.toISOString(),
    /** The only copy of the token: the database keeps its hash. */
    url: `${config().publicBaseUrl}/dashboard/invite/${token}`,
  };
}

/** Withdraws an open invitation of the business; another business's invitation is a 404. */
export async function revokeInvite(db: Db, userId: string, businessId: unknown, inviteId: unknown) {
  const { business } = await authorize(db, userId, businessId, "manage-members");
  const row = typeof inviteId === "string" ? await deleteOpenInvite(db, business.id, inviteId) : undefined;
  if (!row) throw notFound(`No open invitation ${String(inviteId)} exists for business ${business.id}.`);
  return { inviteId: row.id };
}

type OpenInvite = NonNullable<Awaited<ReturnType<typeof findInviteByHash>>>;

/** The open invitation a link names: unknown, used, withdrawn and expired links all read alike (null). */
async function openInvite(db: Db, token: unknown, now: Date): Promise<OpenInvite | null> {
  if (typeof token !== "string" || !TOKEN.test(token)) return null;
  const found = await findInviteByHash(db, hashOf(token));
  if (!found || found.invite.acceptedAt || found.invite.expiresAt <= now) return null;
  return found;
}

/** What the invitation page shows, or null when the link does not work (any reason). Nothing in it depends on whether the address has an account. */
export async function invitationFor(db: Db, token: unknown, now = new Date()) {
  const found = await openInvite(db, token, now);
  if (!found) return null;
  const { invite } = found;
  return {
    businessName: found.businessName,
    businessMode: found.businessMode,
    email: invite.email,
    role: invite.role,
    expiresAt: invite.expiresAt.toISOString(),
  };
}

export const AcceptInviteSchema = z
  .strictObject({
    name: UserNameSchema,
    password: CreateUserSchema.shape.password.unwrap(),
    confirmPassword: z.string(),
  })
  .refine((v) => v.password === v.confirmPassword, { path: ["confirmPassword"], message: "does not match the password" });

const INVALID = "This invitation link does not work: it has been used or withdrawn, or it has expired. Ask the business's owner for a new one.";

type Viewer = { id: string; email: string } | null;

/**
 * Accepts an invitation for the signed-in user, who must be the invited address: the membership
 * goes to their account with the invited role (a member already keeps the role they have). The
 * claim and the membership are one transaction, so a link accepted twice at once counts once.
 */
export async function joinInvite(db: Db, token: unknown, viewer: Viewer, now = new Date()) {
  const found = await openInvite(db, token, now);
  if (!found) throw notFound(INVALID);
  const { invite } = found;
  if (!viewer) throw new ApiError("unauthorized", 401, `Sign in as ${invite.email} to accept this invitation.`);
  if (viewer.email.toLowerCase() !== invite.email) {
    throw new ApiError("forbidden", 403, `This invitation is for ${invite.email}, and you are signed in as ${viewer.email}. Sign out, then sign in as ${invite.email} to accept it.`);
  }
  await inTransaction(db, async (tx) => {
    if (!(await claimInvite(tx, invite.tokenHash, now))) throw conflict(INVALID);
    if (!(await membershipOf(tx, viewer.id, invite.businessId))) await addMember(tx, viewer.id, invite.businessId, invite.role);
  });
  return { email: invite.email, created: false, businessId: invite.businessId };
}

/**
 * Accepts an invitation by making the invited address's account (AcceptInviteSchema: a name and a
 * password). An address that has an account already is refused: its owner signs in and accepts,
 * so the link never adds an existing account to a business on its own. The invitation is claimed
 * (a conditional UPDATE) before the account is made, so a link opened twice makes one account; if
 * making the account fails, the claim is released and the link works again.
 */
export async function acceptInviteWithNewAccount(db: Db, token: unknown, input: unknown, now = new Date()) {
  const found = await openInvite(db, token, now);
  if (!found) throw notFound(INVALID);
  const { invite } = found;
  const details = parseWith(AcceptInviteSchema, input);
  if (await findUserByEmail(db, invite.email)) {
    throw conflict(`No account was made: ${invite.email} has one already. Sign in as ${invite.email}, then open this link again to accept the invitation.`);
  }
  if (!(await claimInvite(db, invite.tokenHash, now))) throw conflict(INVALID);
  try {
    const made = await createUser(db, { email: invite.email, businessId: invite.businessId, role: invite.role, name: details.name, password: details.password });
    return { email: made.email, created: made.created, businessId: invite.businessId };
  } catch (e) {
    await releaseInvite(db, invite.id);
    throw e;
  }
}
