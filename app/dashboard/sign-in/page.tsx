import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SignInForm } from "@/components/dashboard/sign-in-form";
import { dashboardPath } from "@/lib/accounts/next-path";
import { currentUser } from "@/lib/accounts/session";

export const metadata: Metadata = { title: "Sign in · Merchant dashboard" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function SignInPage({ searchParams }: Props) {
  // Back to the page that asked for a sign-in (an invitation), if it is one of the dashboard's.
  const next = dashboardPath((await searchParams).next) ?? "/dashboard";
  if (await currentUser()) redirect(next);
  return (
    <main className="mx-auto flex min-h-screen max-w-sm flex-col justify-center px-4 py-12">
      <h1 className="mb-6 text-2xl font-semibold text-slate-900">Sign in to the merchant dashboard</h1>
      <SignInForm next={next} />
      <p className="mt-6 text-sm text-slate-600">Accounts are created by your operator or by an invitation from your business&apos;s owner.</p>
    </main>
  );
}
