import Link from "next/link";
import { AccountLink } from "@/components/dashboard/section-nav";
import { SignOutButton } from "@/components/dashboard/sign-out-button";
import { requireUser } from "@/lib/accounts/session";

/** Every dashboard page but sign-in: a signed-in user, or the sign-in page. */
export default async function SignedInLayout({ children }: { children: React.ReactNode }) {
  const user = await requireUser();
  return (
    <div className="min-h-screen">
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-2 px-4 py-3">
          <Link href="/dashboard" className="font-semibold text-slate-900 underline-offset-2 hover:underline">
            Merchant dashboard
          </Link>
          <nav aria-label="Account" className="flex items-center gap-3 text-sm">
            <span className="text-slate-600">{user.email}</span>
            <AccountLink href="/dashboard/security">Security</AccountLink>
            <SignOutButton />
          </nav>
        </div>
      </header>
      <div className="mx-auto max-w-6xl px-4 py-6">{children}</div>
    </div>
  );
}
