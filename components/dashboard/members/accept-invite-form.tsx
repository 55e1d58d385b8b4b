"use client";

import Link from "next/link";
import { useState, useTransition } from "react";
import type { ActionResult } from "@/lib/accounts/session";
import { buttonClass, describedBy, errorsFor, FieldError, inputClass, Outcome } from "../developers/form-controls";

type Accept = (token: string, input: unknown) => Promise<ActionResult<{ email: string; created: boolean }>>;

/**
 * Accepting an invitation: a new user chooses a name and a password (at least 10 characters,
 * checked on the server with the same rule as every password here); a user who already has an
 * account just accepts. Either way, the next step is signing in.
 */
export function AcceptInviteForm({ token, email, hasAccount, accept }: { token: string; email: string; hasAccount: boolean; accept: Accept }) {
  const [pending, start] = useTransition();
  const [result, setResult] = useState<ActionResult<{ email: string; created: boolean }> | null>(null);

  function submit(form: HTMLFormElement) {
    const data = new FormData(form);
    const input = hasAccount
      ? {}
      : { name: String(data.get("name") ?? ""), password: String(data.get("password") ?? ""), confirmPassword: String(data.get("confirmPassword") ?? "") };
    start(async () => setResult(await accept(token, input)));
  }

  if (result?.ok) {
    return (
      <div role="status" className="space-y-4 rounded-xl bg-emerald-50 p-4 ring-1 ring-emerald-300" data-testid="invite-accepted">
        <p className="font-semibold text-emerald-950">
          {result.data?.created ? "Your account is ready." : "The business is added to your account."} Sign in as {email}
          {result.data?.created ? " with the password you just chose." : "."}
        </p>
        <Link href="/dashboard/sign-in" className={buttonClass.primary}>Continue to sign in</Link>
      </div>
    );
  }

  const fieldErrors = result && !result.ok ? result.fieldErrors : undefined;
  const err = (f: string) => errorsFor(fieldErrors, f);
  return (
    <form onSubmit={(e) => (e.preventDefault(), submit(e.currentTarget))} className="space-y-4" noValidate>
      {hasAccount ? (
        <p className="text-slate-800">You already have an account with this address: accepting adds this business to it, and your password stays as it is.</p>
      ) : (
        <>
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
        </>
      )}
      <Outcome result={result} fields={["name", "password", "confirmPassword"]} />
      <button type="submit" disabled={pending} className={`${buttonClass.primary} w-full`}>
        {pending ? "Accepting…" : hasAccount ? "Accept invitation" : "Create my account"}
      </button>
    </form>
  );
}
