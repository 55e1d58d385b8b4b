"use client";

import { useState, useTransition } from "react";
import { CopyButton } from "@/components/checkout/copy-button";
import type { ActionResult } from "@/lib/accounts/session";
import type { MembersOverview } from "@/lib/dashboard/members";
import { buttonClass, describedBy, errorsFor, FieldError, formatTime, inputClass, Outcome } from "../developers/form-controls";

type Invite = MembersOverview["invites"][number];
type Created = { inviteId: string; email: string; role: string; expiresAt: string; url: string };

export type InviteActions = {
  create: (businessId: number, input: { email: string; role: string }) => Promise<ActionResult<Created>>;
  revoke: (businessId: number, inviteId: string) => Promise<ActionResult<unknown>>;
};

/**
 * Inviting a further user without an e-mail server: the owner gets a link, shown once, to pass
 * on however they like. Open invitations are listed and can be withdrawn.
 */
export function Invitations({ businessId, invites, actions }: { businessId: number; invites: Invite[]; actions: InviteActions }) {
  const [pending, start] = useTransition();
  const [result, setResult] = useState<ActionResult<unknown> | null>(null);
  const [created, setCreated] = useState<Created | null>(null);

  function invite(form: HTMLFormElement) {
    const data = new FormData(form);
    const input = { email: String(data.get("email") ?? "").trim(), role: String(data.get("role") ?? "") };
    start(async () => {
      const r = await actions.create(businessId, input);
      setResult(r);
      setCreated(r.ok && r.data ? r.data : null);
      if (r.ok) form.reset();
    });
  }

  function withdraw(id: string) {
    start(async () => {
      const r = await actions.revoke(businessId, id);
      setResult(r.ok ? { ok: true, message: "Invitation withdrawn: its link no longer works." } : r);
    });
  }

  const fieldErrors = result && !result.ok ? result.fieldErrors : undefined;
  const emailErrors = errorsFor(fieldErrors, "email");
  const roleErrors = errorsFor(fieldErrors, "role");
  return (
    <div className="space-y-4">
      <form onSubmit={(e) => (e.preventDefault(), invite(e.currentTarget))} className="grid gap-3 sm:grid-cols-[1fr_16rem_auto] sm:items-end" noValidate>
        <div>
          <label htmlFor="invite-email" className="block text-sm font-medium text-slate-800">Email</label>
          <input id="invite-email" name="email" type="email" autoComplete="off" required className={inputClass} {...describedBy("invite-email-error", emailErrors)} />
          <FieldError id="invite-email-error" messages={emailErrors} />
        </div>
        <div>
          <label htmlFor="invite-role" className="block text-sm font-medium text-slate-800">Role</label>
          <select id="invite-role" name="role" defaultValue="developer" className={inputClass} {...describedBy("invite-role-error", roleErrors)}>
            <option value="viewer">viewer: sees payments</option>
            <option value="developer">developer: also keys and webhooks</option>
            <option value="owner">owner: everything</option>
          </select>
          <FieldError id="invite-role-error" messages={roleErrors} />
        </div>
        <button type="submit" disabled={pending} className={buttonClass.primary}>Create invitation</button>
      </form>
      {created ? (
        <div className="rounded-xl bg-emerald-50 p-4 ring-1 ring-emerald-300" data-testid="invite-link">
          <p className="font-semibold text-emerald-950">Invitation for {created.email} ({created.role}). Copy the link now: it is shown only once.</p>
          <div className="mt-2 flex flex-wrap items-center gap-2">
            <code className="min-w-0 flex-1 break-all rounded bg-white px-2 py-1.5 font-mono text-xs ring-1 ring-emerald-200" data-testid="invite-url">{created.url}</code>
            <CopyButton value={created.url} what="invitation link" />
          </div>
          <p className="mt-2 text-sm text-emerald-950">It works once, until {formatTime(created.expiresAt)}. Anyone with the link can accept it for {created.email}: send it privately.</p>
          <button type="button" className={`${buttonClass.secondary} mt-3`} onClick={() => setCreated(null)}>Done</button>
        </div>
      ) : null}
      <Outcome result={result && !created ? result : null} success={result?.ok ? result.message : undefined} fields={["email", "role"]} />
      {invites.length ? (
        <div>
          <h3 className="mb-2 text-sm font-semibold text-slate-900">Open invitations</h3>
          <ul className="divide-y divide-slate-200 rounded-xl bg-white ring-1 ring-slate-200" aria-label="Open invitations">
            {invites.map((i) => (
              <li key={i.inviteId} className="flex flex-wrap items-center gap-x-4 gap-y-2 px-4 py-3">
                <p className="min-w-0 flex-1 break-all text-sm text-slate-800">
                  <span className="font-medium">{i.email}</span> · {i.role} · expires {formatTime(i.expiresAt)}
                </p>
                <button type="button" disabled={pending} className={buttonClass.secondary} onClick={() => withdraw(i.inviteId)}>
                  Withdraw<span className="sr-only"> the invitation of {i.email}</span>
                </button>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}
