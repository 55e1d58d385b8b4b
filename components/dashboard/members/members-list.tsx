"use client";

import { useState, useTransition } from "react";
import type { ActionResult } from "@/lib/accounts/session";
import type { MembersOverview } from "@/lib/dashboard/members";
import { buttonClass, inputClass, Outcome } from "../developers/form-controls";

type Member = MembersOverview["members"][number];

export type MemberActions = {
  changeRole: (businessId: number, memberId: string, role: string) => Promise<ActionResult<unknown>>;
  remove: (businessId: number, memberId: string) => Promise<ActionResult<unknown>>;
};

const ROLES = ["owner", "developer", "viewer"] as const;

/**
 * The business's members: email, name, role (changeable), whether they sign in with two
 * factors, and removal after a confirmation. The server refuses to leave the business without an
 * owner; its answer shows here.
 */
export function MembersList({ businessId, members, actions }: { businessId: number; members: Member[]; actions: MemberActions }) {
  const [pending, start] = useTransition();
  const [result, setResult] = useState<ActionResult<unknown> | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);

  function changeRole(m: Member, form: HTMLFormElement) {
    const role = String(new FormData(form).get("role") ?? "");
    start(async () => {
      const r = await actions.changeRole(businessId, m.userId, role);
      setResult(r.ok ? { ok: true, message: `${m.email} is now ${role}.` } : r);
    });
  }

  function remove(m: Member) {
    start(async () => {
      const r = await actions.remove(businessId, m.userId);
      setConfirming(null);
      setResult(r.ok ? { ok: true, message: `${m.email} no longer belongs to this business.` } : r);
    });
  }

  return (
    <div>
      <ul className="divide-y divide-slate-200 rounded-xl bg-white ring-1 ring-slate-200" aria-label="Members">
        {members.map((m) => (
          <li key={m.userId} className="flex flex-wrap items-center gap-x-4 gap-y-2 px-4 py-3" data-testid="member-row" data-email={m.email}>
            <div className="min-w-0 flex-1">
              <p className="break-all font-medium text-slate-900">
                {m.email} {m.isYou ? <span className="text-sm font-normal text-slate-600">(you)</span> : null}
              </p>
              <p className="text-sm text-slate-700">
                {m.name} · two-factor sign-in{" "}
                <span className={m.twoFactorEnabled ? "font-semibold text-emerald-800" : "font-semibold text-amber-800"}>{m.twoFactorEnabled ? "on" : "off"}</span>
              </p>
            </div>
            <form onSubmit={(e) => (e.preventDefault(), changeRole(m, e.currentTarget))} className="flex items-center gap-2">
              <label htmlFor={`role-${m.userId}`} className="sr-only">Role of {m.email}</label>
              <select id={`role-${m.userId}`} name="role" defaultValue={m.role} className={`${inputClass} mt-0 w-36`}>
                {ROLES.map((r) => (
                  <option key={r} value={r}>{r}</option>
                ))}
              </select>
              <button type="submit" disabled={pending} className={buttonClass.secondary}>
                Save<span className="sr-only"> role of {m.email}</span>
              </button>
            </form>
            {confirming === m.userId ? (
              <div role="group" aria-label={`Confirm removing ${m.email}`} className="flex flex-wrap items-center gap-2">
                <button type="button" disabled={pending} className={buttonClass.danger} onClick={() => remove(m)}>Remove now</button>
                <button type="button" className={buttonClass.secondary} onClick={() => setConfirming(null)}>Cancel</button>
              </div>
            ) : (
              <button type="button" className={buttonClass.secondary} onClick={() => setConfirming(m.userId)}>
                Remove<span className="sr-only"> {m.email}</span>
              </button>
            )}
          </li>
        ))}
      </ul>
      <Outcome result={result} success={result?.ok ? result.message : undefined} />
    </div>
  );
}
