import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { addMember, membershipOf } from "@/db/queries/members";
import { memberInvites } from "@/db/schema/accounts";
import { acceptInviteWithNewAccount as acceptInvite, createInvite, invitationFor, INVITE_DAYS, joinInvite, revokeInvite } from "@/lib/dashboard/invites";
import { changeMemberRole, membersOverview, removeMember } from "@/lib/dashboard/members";
import { rejects, signIn, team, unique, userOf } from "./support";

/** The Members section's services and invitation links: owners only, never without an owner, links that work once. */

let t: Awaited<ReturnType<typeof team>>;
beforeAll(async () => {
  t = await team();
});

const tokenOf = (url: string) => new URL(url).pathname.split("/").pop()!;
const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");
const PASSWORD = "a long enough password";

describe("dashboard members: permissions and isolation", () => {
  it("only owners list, change, remove and invite; other businesses' owners and ids get 404", async () => {
    for (const userId of [t.viewer, t.developer]) {
      await rejects(membersOverview(t.db, userId, t.a.businessId), 403);
      await rejects(changeMemberRole(t.db, userId, t.a.businessId, t.viewer, "owner"), 403);
      await rejects(removeMember(t.db, userId, t.a.businessId, t.viewer), 403);
      await rejects(createInvite(t.db, userId, t.a.businessId, { email: unique("x"), role: "viewer" }), 403);
      await rejects(revokeInvite(t.db, userId, t.a.businessId, "inv_x"), 403);
    }
    const o = await membersOverview(t.db, t.owner, t.a.businessId);
    expect(o.members.map((m) => m.role).sort()).toEqual(["developer", "owner", "viewer"]);
    expect(o.members.find((m) => m.userId === t.owner)).toMatchObject({ isYou: true, twoFactorEnabled: false });

    // B's owner with A's id; A's owner with B's member and B's invitation.
    await rejects(membersOverview(t.db, t.ownerOfB, t.a.businessId), 404);
    await rejects(changeMemberRole(t.db, t.ownerOfB, t.a.businessId, t.viewer, "owner"), 404);
    await rejects(removeMember(t.db, t.ownerOfB, t.a.businessId, t.viewer), 404);
    await rejects(createInvite(t.db, t.ownerOfB, t.a.businessId, { email: unique("x"), role: "owner" }), 404);
    await rejects(changeMemberRole(t.db, t.owner, t.a.businessId, t.ownerOfB, "viewer"), 404);
    await rejects(removeMember(t.db, t.owner, t.a.businessId, t.ownerOfB), 404);
    const bInvite = await createInvite(t.db, t.ownerOfB, t.b.businessId, { email: unique("b"), role: "viewer" });
    await rejects(revokeInvite(t.db, t.owner, t.a.businessId, bInvite.inviteId), 404);
    expect(await membershipOf(t.db, t.ownerOfB, t.b.businessId)).toBe("owner");
    expect(await invitationFor(t.db, tokenOf(bInvite.url))).not.toBeNull();
  });
});

describe("dashboard members: roles", () => {
  it("changes roles, removes members, and never leaves the business without an owner", async () => {
    const x = await team();
    await rejects(changeMemberRole(x.db, x.owner, x.a.businessId, x.viewer, "admin"), 400, ["role"]);
    expect(await changeMemberRole(x.db, x.owner, x.a.businessId, x.viewer, "developer")).toEqual({ userId: x.viewer, role: "developer" });
    expect(await membershipOf(x.db, x.viewer, x.a.businessId)).toBe("developer");
    // The only owner cannot step down or leave.
    await rejects(changeMemberRole(x.db, x.owner, x.a.businessId, x.owner, "viewer"), 409);
    await rejects(removeMember(x.db, x.owner, x.a.businessId, x.owner), 409);
    // With a second owner, either may go.
    await changeMemberRole(x.db, x.owner, x.a.businessId, x.developer, "owner");
    await removeMember(x.db, x.developer, x.a.businessId, x.owner);
    expect(await membershipOf(x.db, x.owner, x.a.businessId)).toBeUndefined();
    await rejects(membersOverview(x.db, x.owner, x.a.businessId), 404);
    await rejects(removeMember(x.db, x.developer, x.a.businessId, x.developer), 409);
  });

  it("two owners demoting each other at once: one wins, one owner remains", async () => {
    const x = await team();
    await changeMemberRole(x.db, x.owner, x.a.businessId, x.developer, "owner");
    const outcomes = await Promise.allSettled([
      changeMemberRole(x.db, x.owner, x.a.businessId, x.developer, "viewer"),
      changeMemberRole(x.db, x.developer, x.a.businessId, x.owner, "viewer"),
    ]);
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
    const roles = [await membershipOf(x.db, x.owner, x.a.businessId), await membershipOf(x.db, x.developer, x.a.businessId)];
    expect(roles.filter((r) => r === "owner")).toHaveLength(1);
  });
});

describe("dashboard members: invitations", () => {
  it("gives a link once, stores only its token's SHA-256, and the link makes an account that signs in", async () => {
    const email = unique("Invited");
    const now = new Date();
    const made = await createInvite(t.db, t.owner, t.a.businessId, { email: `  ${email} `, role: "developer" }, now);
    expect(made).toMatchObject({ email: email.toLowerCase(), role: "developer", inviteId: expect.stringMatching(/^inv_/) });
    expect(made.url).toMatch(/^http:\/\/pay\.test\/dashboard\/invite\/[A-Za-z0-9_-]{43}$/);
    const token = tokenOf(made.url);
    expect(Date.parse(made.expiresAt) - now.getTime()).toBe(INVITE_DAYS * 86_400_000);

    const [row] = await t.db.select().from(memberInvites).where(eq(memberInvites.id, made.inviteId));
    expect(row.tokenHash).toBe(sha256(token));
    expect(JSON.stringify(row)).not.toContain(token);
    expect(row).toMatchObject({ businessId: t.a.businessId, email: email.toLowerCase(), role: "developer", invitedBy: t.owner, acceptedAt: null });
    // Listed for the owner, without the link.
    const listed = await membersOverview(t.db, t.owner, t.a.businessId);
    expect(listed.invites.map((i) => i.inviteId)).toContain(made.inviteId);
    expect(JSON.stringify(listed)).not.toContain(token);

    expect(await invitationFor(t.db, token)).toMatchObject({ email: email.toLowerCase(), role: "developer", businessMode: "test" });
    await rejects(acceptInvite(t.db, token, { name: "Dev", password: "short", confirmPassword: "short" }), 400, ["password"]);
    await rejects(acceptInvite(t.db, token, { name: "", password: PASSWORD, confirmPassword: PASSWORD }), 400, ["name"]);
    await rejects(acceptInvite(t.db, token, { name: "Dev\u0000", password: PASSWORD, confirmPassword: PASSWORD }), 400, ["name"]);
    await rejects(acceptInvite(t.db, token, { name: "Dev", password: PASSWORD, confirmPassword: "something else" }), 400, ["confirmPassword"]);
    // Failed attempts do not use the link up.
    expect(await acceptInvite(t.db, token, { name: "Dev", password: PASSWORD, confirmPassword: PASSWORD })).toMatchObject({ email: email.toLowerCase(), created: true });

    const after = await membersOverview(t.db, t.owner, t.a.businessId);
    const member = after.members.find((m) => m.email === email.toLowerCase())!;
    expect(member).toMatchObject({ role: "developer", name: "Dev" });
    expect(after.invites.map((i) => i.inviteId)).not.toContain(made.inviteId);
    expect(await signIn(email, PASSWORD)).toBe(200);

    // Used: the link works no more, whatever is sent.
    expect(await invitationFor(t.db, token)).toBeNull();
    await rejects(acceptInvite(t.db, token, { name: "Again", password: "another long password", confirmPassword: "another long password" }), 404);
    expect(await signIn(email, "another long password")).toBe(401);
  });

  it("a link opened twice at once makes one account", async () => {
    const made = await createInvite(t.db, t.owner, t.a.businessId, { email: unique("twice"), role: "viewer" });
    const token = tokenOf(made.url);
    const input = { name: "Twice", password: PASSWORD, confirmPassword: PASSWORD };
    const outcomes = await Promise.allSettled([acceptInvite(t.db, token, input), acceptInvite(t.db, token, input)]);
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
  });

  it("expires after seven days, can be withdrawn, and refuses unknown and malformed tokens", async () => {
    const old = await createInvite(t.db, t.owner, t.a.businessId, { email: unique("late"), role: "viewer" }, new Date(Date.now() - (INVITE_DAYS * 86_400_000 + 1000)));
    expect(await invitationFor(t.db, tokenOf(old.url))).toBeNull();
    await rejects(acceptInvite(t.db, tokenOf(old.url), { name: "Late", password: PASSWORD, confirmPassword: PASSWORD }), 404);
    expect((await membersOverview(t.db, t.owner, t.a.businessId)).invites.map((i) => i.inviteId)).not.toContain(old.inviteId);

    const withdrawn = await createInvite(t.db, t.owner, t.a.businessId, { email: unique("withdrawn"), role: "owner" });
    expect(await revokeInvite(t.db, t.owner, t.a.businessId, withdrawn.inviteId)).toEqual({ inviteId: withdrawn.inviteId });
    expect(await invitationFor(t.db, tokenOf(withdrawn.url))).toBeNull();
    await rejects(revokeInvite(t.db, t.owner, t.a.businessId, withdrawn.inviteId), 404);

    for (const token of ["", "short", "x".repeat(43), "../../../etc/passwd", 42]) {
      expect(await invitationFor(t.db, token)).toBeNull();
      await rejects(acceptInvite(t.db, token, {}), 404);
      await rejects(joinInvite(t.db, token, { id: t.owner, email: "owner@shop.example" }), 404);
    }
  });

  it("validates the invitation, and refuses to invite someone already in the business", async () => {
    await rejects(createInvite(t.db, t.owner, t.a.businessId, { email: "not-an-email", role: "viewer" }), 400, ["email"]);
    await rejects(createInvite(t.db, t.owner, t.a.businessId, { email: unique("x"), role: "admin" }), 400, ["role"]);
    await rejects(createInvite(t.db, t.owner, t.a.businessId, { email: unique("x") }), 400, ["role"]);
    const member = (await membersOverview(t.db, t.owner, t.a.businessId)).members.find((m) => m.userId === t.viewer)!;
    await rejects(createInvite(t.db, t.owner, t.a.businessId, { email: member.email.toUpperCase(), role: "owner" }), 400, ["email"]);
    expect(await membershipOf(t.db, t.viewer, t.a.businessId)).toBe("viewer");
  });

  it("only the invited person accepts: the link alone never adds an existing account, and the page reads alike", async () => {
    const userId = await userOf(t.b.businessId, "viewer", PASSWORD);
    const { members } = await membersOverview(t.db, t.ownerOfB, t.b.businessId);
    const existing = members.find((m) => m.userId === userId)!.email;
    const made = await createInvite(t.db, t.owner, t.a.businessId, { email: existing, role: "developer" });
    const token = tokenOf(made.url);
    const fresh = await createInvite(t.db, t.owner, t.a.businessId, { email: unique("fresh"), role: "developer" });

    // What the page is given is the same for an address with an account and one without.
    const shown = await invitationFor(t.db, token);
    const shownFresh = await invitationFor(t.db, tokenOf(fresh.url));
    expect(Object.keys(shown!).sort()).toEqual(Object.keys(shownFresh!).sort());
    expect({ ...shown, email: "x", expiresAt: "x" }).toEqual({ ...shownFresh, email: "x", expiresAt: "x" });

    // The inviting owner holds the link: without a session, as themself, or by making the account, nothing is accepted.
    await rejects(joinInvite(t.db, token, null), 401);
    const asOwner = await rejects(joinInvite(t.db, token, { id: t.owner, email: (await membersOverview(t.db, t.owner, t.a.businessId)).members.find((m) => m.isYou)!.email }), 403);
    expect(asOwner.detail).toContain(`This invitation is for ${existing}`);
    const created = await rejects(acceptInvite(t.db, token, { name: "Mallory", password: "owner chose this", confirmPassword: "owner chose this" }), 409);
    expect(created.detail).toBe(`No account was made: ${existing} has one already. Sign in as ${existing}, then open this link again to accept the invitation.`);
    expect(await membershipOf(t.db, userId, t.a.businessId)).toBeUndefined();
    expect(await signIn(existing, "owner chose this")).toBe(401);
    expect(await invitationFor(t.db, token)).not.toBeNull(); // refused attempts do not use the link up

    // Signed in as the invited address, it is accepted: the membership, and the password stays.
    expect(await joinInvite(t.db, token, { id: userId, email: existing.toUpperCase() })).toMatchObject({ created: false });
    expect(await membershipOf(t.db, userId, t.a.businessId)).toBe("developer");
    expect(await membershipOf(t.db, userId, t.b.businessId)).toBe("viewer");
    expect(await signIn(existing, PASSWORD)).toBe(200);
    expect(await invitationFor(t.db, token)).toBeNull();
    await rejects(joinInvite(t.db, token, { id: userId, email: existing }), 404);
  });

  it("a member added since the invitation keeps their role, and a link accepted twice at once counts once", async () => {
    const userId = await userOf(t.b.businessId, "viewer");
    const email = (await membersOverview(t.db, t.ownerOfB, t.b.businessId)).members.find((m) => m.userId === userId)!.email;
    const made = await createInvite(t.db, t.owner, t.a.businessId, { email, role: "owner" });
    await addMember(t.db, userId, t.a.businessId, "viewer"); // the operator, meanwhile
    expect(await joinInvite(t.db, tokenOf(made.url), { id: userId, email })).toMatchObject({ created: false });
    expect(await membershipOf(t.db, userId, t.a.businessId)).toBe("viewer");

    const developerEmail = (await membersOverview(t.db, t.owner, t.a.businessId)).members.find((m) => m.userId === t.developer)!.email;
    const twice = await createInvite(t.db, t.ownerOfB, t.b.businessId, { email: developerEmail, role: "developer" });
    const outcomes = await Promise.allSettled([0, 1].map(() => joinInvite(t.db, tokenOf(twice.url), { id: t.developer, email: developerEmail })));
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
    expect(await membershipOf(t.db, t.developer, t.b.businessId)).toBe("developer");
  });
});
