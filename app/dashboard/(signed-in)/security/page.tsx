import type { Metadata } from "next";
import { ChangePasswordForm } from "@/components/dashboard/change-password-form";
import { TwoFactorSetup } from "@/components/dashboard/two-factor-setup";
import { requireUser } from "@/lib/accounts/session";
import { changePasswordAction } from "./actions";

export const metadata: Metadata = { title: "Security · Merchant dashboard" };

export default async function SecurityPage() {
  const user = await requireUser();
  return (
    <main className="max-w-xl">
      <h1 className="mb-2 text-xl font-semibold">Security</h1>
      <p className="mb-6 text-slate-700">Signed in as {user.email}. Sessions end after 12 hours, or when you sign out.</p>
      <section aria-labelledby="password" className="mb-8">
        <h2 id="password" className="mb-3 text-lg font-semibold">Password</h2>
        <ChangePasswordForm email={user.email} change={changePasswordAction} />
      </section>
      <section aria-labelledby="two-factor">
        <h2 id="two-factor" className="mb-3 text-lg font-semibold">Two-factor sign-in</h2>
        <TwoFactorSetup enabled={user.twoFactorEnabled} />
      </section>
    </main>
  );
}
