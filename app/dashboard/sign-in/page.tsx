import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SignInForm } from "@/components/dashboard/sign-in-form";
import { currentUser } from "@/lib/accounts/session";

export const metadata: Metadata = { title: "Sign in · Merchant dashboard" };

export default async function SignInPage() {
  if (await currentUser()) redirect("/dashboard");
  return (
    <main className="mx-auto flex min-h-screen max-w-sm flex-col justify-center px-4 py-12">
      <h1 className="mb-6 text-2xl font-semibold text-slate-900">Sign in to the merchant dashboard</h1>
      <SignInForm />
      <p className="mt-6 text-sm text-slate-600">Accounts are created by your operator or by an invitation from your business&apos;s owner.</p>
    </main>
  );
}
