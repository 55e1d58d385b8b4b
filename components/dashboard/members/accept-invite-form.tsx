"use client";

import Link from "next/link";
import { useState, useTransition } from "react";
import type { ActionResult } from "@/lib/accounts/session";
import { SignOutButton } from "../sign-out-button";
import { buttonClass, describedBy, errorsFor, FieldError, inputClass, Outcome } from "../developers/form-controls";

type Result = ActionResult<{ email: string; created: boolean }>;
type Join = (token: string) => Promise<Result>;
type Create = (token: string, input: unknown) => Promise<Result>;

/**
 * Accepting an invitation, which only the invited person can do: signed in as the invited
 * address (then one button), or by making that address's account (a name and a password, at
 * least 10 characters, checked on the server with the same rule as every password here). Anyone
 * else who opens the link sees both ways, the same whether or not the address has an account.
 */
export function AcceptInvite({ token, email, viewerEmail, join, create }: { token: string; email: string; viewerEmail: string | null; join: Join; create: Create }) {
  const [pending, start] = useTransition();
  const [result, setResult] = useState<Result | null>(null);
  const here = `/dashboard/invite/${token}`;

  if (result?.ok) {
    return (
      <div role="status" className="space-y-4 rounded-xl bg-emerald-50 p-4 ring-1 ring-emerald-300" data-testid="invite-accepted">
        <p className="font-semibold text-emerald-950">
          {result.data?.created ? `Your account is ready. Sign in as ${email} with the password you just chose.` : "The business is added to your account."}
        </p>
        {result.data?.created ? (
          <Link href="/dashboard/sign-in" className={buttonClass.primary}>Continue to sign in</Link>
        ) : (
          <Link href="/dashboard" className={buttonClass.primary}>Go to the dashboard</Link>
        )}
      </div>
    );
  }

  if (viewerEmail === email) {
    return (
      <form onSubmit={(e) => (e.preventDefault(), start(async () => setResult(await join(token))))} className="space-y-4">
        <p className="text-slate-800">You are signed in as {email}: accepting adds this business to your account.</p>
        <Outcome result={result} />
        <button type="submit" disabled={pending} className={`${buttonClass.primary} w-full`}>{pending ? "Accepting…" : "Accept invitation"}</button>
      </form>
    );
  }

  const fieldErrors = result && !result.ok ? result.fieldErrors : undefined;
  const err = (f: string) => errorsFor(fieldErrors, f);
  function submit(form: HTMLFormElement) {
    const data = new FormData(form);
    const input = { name: String(data.get("name") ?? ""), password: String(data.get("password") ?? ""), confirmPassword: String(data.get("confirmPassword") ?? "") };
    start(async () => setResult(await create(token, input)));
  }
  return (
    <div className="space-y-8">
      <section aria-labelledby="have-account" className="space-y-3">
        <h2 id="have-account" className="text-lg font-semibold text-slate-900">Already have an account for {email}?</h2>
        {viewerEmail ? (
          <>
            <p className="text-slate-800">You are signed in as <strong className="break-all">{viewerEmail}</strong>. Sign out, then sign in as {email} to accept.</p>
            <SignOutButton then={`/dashboard/sign-in?next=${encodeURIComponent(here)}`} />
          </>
        ) : (
          <Link href={`/dashboard/sign-in?next=${encodeURIComponent(here)}`} className={buttonClass.secondary}>Sign in to accept</Link>
        )}
      </section>
      <section aria-labelledby="new-account">
        <h2 id="new-account" className="mb-3 text-lg font-semibold text-slate-900">New here? Create your account</h2>
        <form onSubmit={(e) => (e.preventDefault(), submit(e.currentTarget))} className="space-y-4" noValidate>
          <input type="hidden" name="username" autoComplete="username" value={email} />
          <div>
            <label htmlFor="name" className="block text-sm font-medium text-slate-800">Your name</label>
            <input id="name" name="name" autoComplete="name" required maxLength={200} className={inputClass} {...describedBy("name-error", err("name"))} />
            <FieldError id="name-error" messages={err("name")} />
          </div>
          <div>
            <label htmlFor="password" className="block text-sm font-medium text-slate-800">Password (at least 10 characters)</label>
            <input id="password" name="password" type="password" autoComplete="new-password" required minLength={10} maxLength={128} className={inputClass} {...describedBy("password-error", err("password"))} />
            <FieldError id="password-error" messages={err("password")} />
          </div>
          <div>
            <label htmlFor="confirm-password" className="block text-sm font-medium text-slate-800">Password again</label>
            <input id="confirm-password" name="confirmPassword" type="password" autoComplete="new-password" required className={inputClass} {...describedBy("confirm-error", err("confirmPassword"))} />
            <FieldError id="confirm-error" messages={err("confirmPassword")} />
          </div>
          <Outcome result={result} fields={["name", "password", "confirmPassword"]} />
          <button type="submit" disabled={pending} className={`${buttonClass.primary} w-full`}>{pending ? "Creating…" : "Create my account"}</button>
        </form>
      </section>
    </div>
  );
}
