"use client";

import { useRef, useState, useTransition } from "react";
import type { ActionResult } from "@/lib/accounts/session";
import { buttonClass, describedBy, errorsFor, FieldError, inputClass, Outcome } from "./developers/form-controls";

type Change = (input: unknown) => Promise<ActionResult<void>>;

/**
 * Changing one's password: the current one, then the new one twice. The server checks them with
 * ChangePasswordSchema (lib/accounts/password.ts) and its messages appear beside the fields;
 * every other session of the user ends.
 */
export function ChangePasswordForm({ email, change }: { email: string; change: Change }) {
  const [pending, start] = useTransition();
  const [result, setResult] = useState<ActionResult<void> | null>(null);
  const formRef = useRef<HTMLFormElement>(null);

  function submit(form: HTMLFormElement) {
    const data = new FormData(form);
    const input = {
      currentPassword: String(data.get("currentPassword") ?? ""),
      newPassword: String(data.get("newPassword") ?? ""),
      confirmPassword: String(data.get("confirmPassword") ?? ""),
    };
    start(async () => {
      const r = await change(input);
      setResult(r);
      if (r.ok) formRef.current?.reset();
    });
  }

  const err = (f: string) => errorsFor(result && !result.ok ? result.fieldErrors : undefined, f);
  return (
    <form ref={formRef} onSubmit={(e) => (e.preventDefault(), submit(e.currentTarget))} className="space-y-4" noValidate>
      <input type="hidden" name="username" autoComplete="username" value={email} />
      <div>
        <label htmlFor="current-password" className="block text-sm font-medium text-slate-800">Current password</label>
        <input id="current-password" name="currentPassword" type="password" autoComplete="current-password" required className={inputClass} {...describedBy("current-password-error", err("currentPassword"))} />
        <FieldError id="current-password-error" messages={err("currentPassword")} />
      </div>
      <div>
        <label htmlFor="new-password" className="block text-sm font-medium text-slate-800">New password (at least 10 characters)</label>
        <input id="new-password" name="newPassword" type="password" autoComplete="new-password" required minLength={10} maxLength={128} className={inputClass} {...describedBy("new-password-error", err("newPassword"))} />
        <FieldError id="new-password-error" messages={err("newPassword")} />
      </div>
      <div>
        <label htmlFor="confirm-new-password" className="block text-sm font-medium text-slate-800">New password again</label>
        <input id="confirm-new-password" name="confirmPassword" type="password" autoComplete="new-password" required className={inputClass} {...describedBy("confirm-new-password-error", err("confirmPassword"))} />
        <FieldError id="confirm-new-password-error" messages={err("confirmPassword")} />
      </div>
      <Outcome result={result} fields={["currentPassword", "newPassword", "confirmPassword"]} success="Password changed. Your other sessions have been signed out." />
      <button type="submit" disabled={pending} className={buttonClass.primary}>{pending ? "Changing…" : "Change password"}</button>
    </form>
  );
}
