import type { Metadata } from "next";
import Link from "next/link";
import { AcceptInvite } from "@/components/dashboard/members/accept-invite-form";
import { ModeBadge } from "@/components/dashboard/mode-badge";
import { getDb } from "@/db/client";
import { currentUser } from "@/lib/accounts/session";
import { invitationFor } from "@/lib/dashboard/invites";
import { createAccountFromInviteAction, joinInviteAction } from "./actions";

// The token is in the URL: no Referer carries it anywhere, and no search engine keeps the page.
export const metadata: Metadata = { title: "Invitation · Merchant dashboard", referrer: "no-referrer", robots: { index: false, follow: false } };

/**
 * An invitation link: the invited person signs in as the invited address and accepts, or makes
 * that address's account. What it shows depends on the invitation and on who is signed in here,
 * never on whether the invited address has an account.
 */
export default async function InvitePage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const viewer = await currentUser();
  const invite = await invitationFor(await getDb(), token);
  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col justify-center px-4 py-12">
      {invite ? (
        <>
          <h1 className="mb-2 text-2xl font-semibold text-slate-900">Join {invite.businessName}</h1>
          <p className="mb-6 flex flex-wrap items-center gap-2 text-slate-700">
            An invitation for <strong className="break-all">{invite.email}</strong>, as {invite.role} <ModeBadge mode={invite.businessMode} />
          </p>
          <AcceptInvite token={token} email={invite.email} viewerEmail={viewer?.email ?? null} join={joinInviteAction} create={createAccountFromInviteAction} />
        </>
      ) : (
        <>
          <h1 className="mb-2 text-2xl font-semibold text-slate-900">This invitation does not work</h1>
          <p className="text-slate-700">It has been used or withdrawn, or it has expired. Ask the business&apos;s owner for a new link.</p>
          <p className="mt-6">
            <Link href="/dashboard/sign-in" className="font-medium text-indigo-800 underline underline-offset-2">Sign in</Link>
          </p>
        </>
      )}
    </main>
  );
}
