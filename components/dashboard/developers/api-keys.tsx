"use client";

import { useState, useTransition } from "react";
import { CopyButton } from "@/components/checkout/copy-button";
import type { ActionResult } from "@/lib/accounts/session";
import type { DeveloperOverview } from "@/lib/dashboard/developers";
import { buttonClass, errorsFor, FieldError, formatTime, inputClass, Outcome, describedBy } from "./form-controls";

type Key = DeveloperOverview["keys"][number];
type CreatedKey = { keyId: string; apiKey: string; expiresAt: string | null };

export type ApiKeyActions = {
  create: (businessId: number, input: unknown) => Promise<ActionResult<CreatedKey>>;
  revoke: (businessId: number, keyId: string) => Promise<ActionResult<unknown>>;
};

const LIFETIMES = [
  { label: "Never expires", seconds: "" },
  { label: "30 days", seconds: String(30 * 86400) },
  { label: "90 days", seconds: String(90 * 86400) },
  { label: "1 year", seconds: String(365 * 86400) },
];

function state(k: Key): { label: string; className: string } {
  if (k.revokedAt) return { label: "Revoked", className: "bg-slate-200 text-slate-800" };
  if (k.expiresAt && Date.parse(k.expiresAt) <= Date.now()) return { label: "Expired", className: "bg-slate-200 text-slate-800" };
  return { label: "Active", className: "bg-emerald-100 text-emerald-900" };
}

/**
 * The business's API keys: create one (its token shown once, with a copy button), see each key's
 * creation, expiry and last use, and revoke one after confirming. Roles without `manage-keys`
 * see the list only.
 */
export function ApiKeys({ businessId, keys, canManage, actions }: { businessId: number; keys: Key[]; canManage: boolean; actions: ApiKeyActions }) {
  const [pending, start] = useTransition();
  const [created, setCreated] = useState<CreatedKey | null>(null);
  const [result, setResult] = useState<ActionResult<unknown> | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);

  function create(form: HTMLFormElement) {
    const seconds = String(new FormData(form).get("expiresInSeconds") ?? "");
    start(async () => {
      const r = await actions.create(businessId, seconds ? { expiresInSeconds: Number(seconds) } : {});
      setResult(r);
      setCreated(r.ok && r.data ? r.data : null);
    });
  }

  function revoke(keyId: string) {
    start(async () => {
      const r = await actions.revoke(businessId, keyId);
      setResult(r.ok ? { ok: true, message: `Key ${keyId} is revoked: requests with it now get 401.` } : r);
      setConfirming(null);
    });
  }

  const fieldErrors = result && !result.ok ? errorsFor(result.fieldErrors, "expiresInSeconds") : [];
  return (
    <div className="space-y-4">
      {canManage ? (
        <form onSubmit={(e) => (e.preventDefault(), create(e.currentTarget))} className="flex flex-wrap items-end gap-3">
          <div>
            <label htmlFor="key-lifetime" className="block text-sm font-medium text-slate-800">Lifetime of the new key</label>
            <select id="key-lifetime" name="expiresInSeconds" className={`${inputClass} w-48`} {...describedBy("key-lifetime-error", fieldErrors)}>
              {LIFETIMES.map((l) => (
                <option key={l.label} value={l.seconds}>{l.label}</option>
              ))}
            </select>
            <FieldError id="key-lifetime-error" messages={fieldErrors} />
          </div>
          <button type="submit" disabled={pending} className={buttonClass.primary}>Create API key</button>
        </form>
      ) : null}

      {created ? (
        <div className="rounded-xl bg-emerald-50 p-4 ring-1 ring-emerald-300" data-testid="new-api-key">
          <p className="font-semibold text-emerald-950">New key {created.keyId}: copy it now. It is shown only once.</p>
          <div className="mt-2 flex flex-wrap items-center gap-2">
            <code className="min-w-0 flex-1 break-all rounded bg-white px-2 py-1.5 font-mono text-xs text-slate-900 ring-1 ring-emerald-200" data-testid="new-api-key-value">
              {created.apiKey}
            </code>
            <CopyButton value={created.apiKey} what="API key" />
          </div>
          <p className="mt-2 text-sm text-emerald-950">Send it as <code>Authorization: Bearer &lt;key&gt;</code>. {created.expiresAt ? `It expires ${formatTime(created.expiresAt)}.` : "It does not expire."}</p>
          <button type="button" className={`${buttonClass.secondary} mt-3`} onClick={() => setCreated(null)}>I have stored it</button>
        </div>
      ) : null}
      <Outcome result={result && !(result.ok && created) ? result : null} success={result?.ok ? result.message : undefined} fields={["expiresInSeconds"]} />

      {keys.length === 0 ? (
        <p className="text-slate-700">No API keys yet.</p>
      ) : (
        <ul className="divide-y divide-slate-200 rounded-xl bg-white ring-1 ring-slate-200" aria-label="API keys">
          {[...keys].reverse().map((k) => {
            const s = state(k);
            return (
              <li key={k.keyId} className="flex flex-wrap items-center gap-x-4 gap-y-2 px-4 py-3" data-testid="api-key-row" data-key-id={k.keyId}>
                <div className="min-w-0 flex-1">
                  <p className="flex flex-wrap items-center gap-2">
                    <code className="break-all font-mono text-sm text-slate-900">{k.keyId}</code>
                    <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${s.className}`}>{s.label}</span>
                  </p>
                  <p className="mt-1 text-sm text-slate-700">
                    Created {formatTime(k.createdAt)} · Expires {formatTime(k.expiresAt, "never")} · Last used{" "}
                    <span data-testid="key-last-used">{formatTime(k.lastUsedAt, "never")}</span>
                    {k.revokedAt ? ` · Revoked ${formatTime(k.revokedAt)}` : ""}
                  </p>
                </div>
                {canManage && !k.revokedAt ? (
                  confirming === k.keyId ? (
                    <div className="flex flex-wrap items-center gap-2" role="group" aria-label={`Confirm revoking ${k.keyId}`}>
                      <span className="text-sm text-slate-800">Apps using it stop working at once.</span>
                      <button type="button" disabled={pending} className={buttonClass.danger} onClick={() => revoke(k.keyId)}>Revoke now</button>
                      <button type="button" className={buttonClass.secondary} onClick={() => setConfirming(null)}>Cancel</button>
                    </div>
                  ) : (
                    <button type="button" className={buttonClass.secondary} onClick={() => setConfirming(k.keyId)}>
                      Revoke<span className="sr-only"> {k.keyId}</span>
                    </button>
                  )
                ) : null}
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
