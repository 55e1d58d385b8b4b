"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { authClient } from "@/lib/accounts/client";
import { LOCKED_CODE } from "@/lib/accounts/lockout-code";

type Step = "password" | "code";

const field = "mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-slate-900 shadow-sm focus:border-indigo-600 focus:outline-2 focus:outline-indigo-600";
const button = "w-full rounded-lg bg-indigo-700 px-4 py-2.5 font-semibold text-white hover:bg-indigo-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-700 disabled:opacity-60";

/**
 * Email and password, then — for users who enabled it — the 6-digit code of their authenticator
 * app (or a backup code). Every failure reads the same whether or not the email exists. Then to
 * `next`: the dashboard, or the page that sent the user here (an invitation).
 */
export function SignInForm({ next = "/dashboard" }: { next?: string }) {
  const router = useRouter();
  const [step, setStep] = useState<Step>("password");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function onPassword(form: FormData) {
    setBusy(true);
    setError(null);
    let retryAfter: string | null = null;
    const { data, error } = await authClient.signIn.email(
      { email: String(form.get("email") ?? ""), password: String(form.get("password") ?? "") },
      { onError: (ctx) => void (retryAfter = ctx.response.headers.get("retry-after")) },
    );
    setBusy(false);
    // A locked address gets the server's words (the same whether or not the address has a user).
    if (error?.code === LOCKED_CODE && error.message) return setError(error.message);
    if (error) return setError(message(error.status, retryAfter, "The email or password is incorrect."));
    if (data && "twoFactorRedirect" in data && data.twoFactorRedirect) return setStep("code");
    router.push(next);
    router.refresh();
  }

  async function onCode(form: FormData) {
    setBusy(true);
    setError(null);
    const code = String(form.get("code") ?? "").replace(/\s+/g, "");
    let retryAfter: string | null = null;
    const onError = { onError: (ctx: { response: Response }) => void (retryAfter = ctx.response.headers.get("retry-after")) };
    const { error } = /^\d{6}$/.test(code)
      ? await authClient.twoFactor.verifyTotp({ code, trustDevice: false }, onError)
      : await authClient.twoFactor.verifyBackupCode({ code }, onError);
    setBusy(false);
    if (error) return setError(message(error.status, retryAfter, "That code is not valid. Check your authenticator app and try again."));
    router.push(next);
    router.refresh();
  }

  return step === "password" ? (
    <form action={onPassword} className="space-y-4" aria-describedby={error ? "sign-in-error" : undefined}>
      <div>
        <label htmlFor="email" className="block text-sm font-medium text-slate-800">Email</label>
        <input id="email" name="email" type="email" autoComplete="username" required className={field} />
      </div>
      <div>
        <label htmlFor="password" className="block text-sm font-medium text-slate-800">Password</label>
        <input id="password" name="password" type="password" autoComplete="current-password" required className={field} />
      </div>
      {error ? <p id="sign-in-error" role="alert" className="text-sm text-red-800">{error}</p> : null}
      <button type="submit" disabled={busy} className={button}>{busy ? "Signing in…" : "Sign in"}</button>
    </form>
  ) : (
    <form action={onCode} className="space-y-4">
      <p className="text-sm text-slate-700">Enter the 6-digit code from your authenticator app, or one of your backup codes.</p>
      <div>
        <label htmlFor="code" className="block text-sm font-medium text-slate-800">Code</label>
        <input id="code" name="code" inputMode="text" autoComplete="one-time-code" required autoFocus className={field} />
      </div>
      {error ? <p role="alert" className="text-sm text-red-800">{error}</p> : null}
      <button type="submit" disabled={busy} className={button}>{busy ? "Checking…" : "Verify"}</button>
    </form>
  );
}

function message(status: number | undefined, retryAfter: string | null, fallback: string): string {
  if (status === 429) return `Too many attempts. Try again in ${retryAfter ? `${retryAfter} seconds` : "a minute"}.`;
  return fallback;
}
