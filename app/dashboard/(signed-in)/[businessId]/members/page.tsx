import type { Metadata } from "next";
import { Invitations } from "@/components/dashboard/members/invitations";
import { MembersList } from "@/components/dashboard/members/members-list";
import { sectionCard, SectionTitle } from "@/components/dashboard/mode-badge";
import { getDb } from "@/db/client";
import { requireMember } from "@/lib/accounts/session";
import { INVITE_DAYS } from "@/lib/dashboard/invites";
import { membersOverview } from "@/lib/dashboard/members";
import { changeRoleAction, createInviteAction, removeMemberAction, revokeInviteAction } from "./actions";

export const metadata: Metadata = { title: "Members · Merchant dashboard" };

/** Who belongs to the business: owners only (anyone else gets the 404 page). */
export default async function MembersPage({ params }: { params: Promise<{ businessId: string }> }) {
  const { user, business } = await requireMember((await params).businessId, "manage-members");
  const overview = await membersOverview(await getDb(), user.id, business.id);
  return (
    <main className="max-w-4xl space-y-6">
      <SectionTitle title="Members" mode={business.mode} />
      <section aria-labelledby="members-heading" className="space-y-3">
        <h3 id="members-heading" className="font-semibold text-slate-900">People with access</h3>
        <MembersList businessId={business.id} members={overview.members} actions={{ changeRole: changeRoleAction, remove: removeMemberAction }} />
      </section>
      <section aria-labelledby="invite-heading" className={sectionCard}>
        <h3 id="invite-heading" className="mb-1 font-semibold text-slate-900">Invite someone</h3>
        <p className="mb-3 text-sm text-slate-700">You get a link to send them yourself (no e-mail is sent). It works once, for {INVITE_DAYS} days.</p>
        <Invitations businessId={business.id} invites={overview.invites} actions={{ create: createInviteAction, revoke: revokeInviteAction }} />
      </section>
    </main>
  );
}
