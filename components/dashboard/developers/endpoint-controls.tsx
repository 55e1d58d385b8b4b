"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { CopyButton } from "@/components/checkout/copy-button";
import type { ActionResult } from "@/lib/accounts/session";
import type { EndpointView } from "@/lib/webhooks/endpoints";
import { buttonClass, formatTime, inputClass, Outcome } from "./form-controls";

type Secret = { secret: string; previousSecretExpiresAt: string | null };
export type EndpointActions = {
  edit: (input: { enabled: boolean; recoverSince?: string }) => Promise<ActionResult<{ recovered: { queued: number } | null }>>;
  reveal: () => Promise<ActionResult<Secret>>;
  rotate: (input: { overlapSeconds: number }) => Promise<ActionResult<Secret>>;
  recover: (input: { since: string }) => Promise<ActionResult<{ queued: number }>>;
  sendTest: () => Promise<ActionResult<unknown>>;
  remove: () => Promise<ActionResult<unknown>>;
};

const OVERLAPS = [
  { seconds: 0, label: "none: replace it at once" },
  { seconds: 3600, label: "1 hour" },
  { seconds: 86400, label: "24 hours" },
  { seconds: 604800, label: "7 days" },
];

/** A `datetime-local` value (UTC, to the minute) and back to an ISO time. */
const toInput = (iso: string) => iso.slice(0, 16);
const fromInput = (value: string) => new Date(`${value}:00Z`).toISOString();

/**
 * One endpoint's controls: enable (offering to resend what it missed since a time, by default
 * since it was disabled) or disable, rotate the secret with an overlap, reveal it, send a test
 * event, delete. Times are UTC, as everywhere in the dashboard.
 */
export function EndpointControls({ endpoint: e, allowed, actions, listHref }: { endpoint: EndpointView; allowed: { manageWebhooks: boolean; seeSecrets: boolean }; actions: EndpointActions; listHref: string }) {
  const router = useRouter();
  const [pending, start] = useTransition();
  const [result, setResult] = useState<ActionResult<unknown> | null>(null);
  const [secret, setSecret] = useState<Secret | null>(null);
  const [recover, setRecover] = useState(true);
  const [since, setSince] = useState(toInput(e.failingSince ?? e.disabledAt ?? new Date().toISOString()));
  const [overlap, setOverlap] = useState(86400);

  const run = <T,>(work: () => Promise<ActionResult<T>>, message: (data: T | undefined) => string) =>
    start(async () => {
      const r = await work();
      setResult(r.ok ? { ok: true, message: message(r.data) } : r);
    });

  return (
    <div className="space-y-6">
      {allowed.manageWebhooks ? (
        e.enabled ? (
          <div className="flex flex-wrap items-center gap-2">
            <button type="button" disabled={pending} className={buttonClass.secondary} onClick={() => run(() => actions.edit({ enabled: false }), () => "Endpoint disabled: its events are logged, not sent.")}>
              Disable endpoint
            </button>
            <button type="button" disabled={pending} className={buttonClass.secondary} onClick={() => run(actions.sendTest, () => "Test event queued: see the log below.")}>
              Send a test event
            </button>
          </div>
        ) : (
          <form className="space-y-2 rounded-lg bg-amber-50 p-3 ring-1 ring-amber-200" aria-label="Enable endpoint" onSubmit={(ev) => {
            ev.preventDefault();
            run(() => actions.edit({ enabled: true, ...(recover && { recoverSince: fromInput(since) }) }), (d) =>
              d?.recovered ? `Endpoint enabled; ${d.recovered.queued} missed ${d.recovered.queued === 1 ? "message is" : "messages are"} being resent.` : "Endpoint enabled.");
          }}>
            <label className="flex items-center gap-2 text-sm text-amber-950">
              <input type="checkbox" checked={recover} onChange={(ev) => setRecover(ev.target.checked)} className="h-4 w-4" />
              Resend what it missed since
            </label>
            <input aria-label="Resend since (UTC)" type="datetime-local" value={since} onChange={(ev) => setSince(ev.target.value)} disabled={!recover} className={`${inputClass} w-60`} />
            <button type="submit" disabled={pending} className={buttonClass.primary}>Enable endpoint</button>
          </form>
        )
      ) : null}

      <div className="space-y-2">
        <h3 className="font-semibold text-slate-900">Signing secret</h3>
        {e.previousSecretExpiresAt ? <p className="text-sm text-slate-700">The previous secret also signs until {formatTime(e.previousSecretExpiresAt)}.</p> : null}
        {allowed.seeSecrets ? (
          secret ? (
            <div className="flex flex-wrap items-center gap-2">
              <code className="min-w-0 flex-1 break-all rounded bg-slate-100 px-2 py-1.5 font-mono text-xs" data-testid="endpoint-secret">{secret.secret}</code>
              <CopyButton value={secret.secret} what="signing secret" />
              <button type="button" className={buttonClass.secondary} onClick={() => setSecret(null)}>Hide</button>
            </div>
          ) : (
            <button type="button" disabled={pending} className={buttonClass.secondary} onClick={() => start(async () => {
              const r = await actions.reveal();
              if (r.ok && r.data) setSecret(r.data);
              else setResult(r);
            })}>Reveal signing secret</button>
          )
        ) : (
          <p className="text-slate-700">Hidden: your role cannot see secrets.</p>
        )}
        {allowed.manageWebhooks ? (
          <div className="flex flex-wrap items-end gap-2">
            <div>
              <label htmlFor="rotate-overlap" className="block text-sm font-medium text-slate-800">Old secret keeps signing for</label>
              <select id="rotate-overlap" value={overlap} onChange={(ev) => setOverlap(Number(ev.target.value))} className={`${inputClass} w-60`}>
                {OVERLAPS.map((o) => <option key={o.seconds} value={o.seconds}>{o.label}</option>)}
              </select>
            </div>
            <button type="button" disabled={pending} className={buttonClass.secondary} onClick={() => start(async () => {
              const r = await actions.rotate({ overlapSeconds: overlap });
              if (r.ok && r.data) setSecret(r.data);
              setResult(r.ok ? { ok: true, message: overlap ? "Secret rotated: both secrets sign until the overlap ends." : "Secret rotated: only the new one signs." } : r);
            })}>Rotate secret</button>
          </div>
        ) : null}
      </div>

      {allowed.manageWebhooks && e.enabled ? (
        <form className="flex flex-wrap items-end gap-2" aria-label="Resend failed messages" onSubmit={(ev) => {
          ev.preventDefault();
          run(() => actions.recover({ since: fromInput(since) }), (d) => `${d?.queued ?? 0} failed ${d?.queued === 1 ? "message is" : "messages are"} being resent.`);
        }}>
          <div>
            <label htmlFor="recover-since" className="block text-sm font-medium text-slate-800">Resend failed messages since (UTC)</label>
            <input id="recover-since" type="datetime-local" value={since} onChange={(ev) => setSince(ev.target.value)} className={`${inputClass} w-60`} />
          </div>
          <button type="submit" disabled={pending} className={buttonClass.secondary}>Resend</button>
        </form>
      ) : null}

      {allowed.manageWebhooks ? (
        <button type="button" disabled={pending} className={buttonClass.danger} onClick={() => start(async () => {
          if (!window.confirm("Delete this endpoint? Its pending messages stop; the log keeps them.")) return;
          const r = await actions.remove();
          if (r.ok) router.push(listHref);
          else setResult(r);
        })}>Delete endpoint</button>
      ) : null}
      <Outcome result={result} success={result?.ok ? result.message : undefined} />
    </div>
  );
}
