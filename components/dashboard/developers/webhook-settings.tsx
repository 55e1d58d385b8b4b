"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { CopyButton } from "@/components/checkout/copy-button";
import type { ActionResult } from "@/lib/accounts/session";
import { buttonClass, describedBy, errorsFor, FieldError, inputClass, Outcome } from "./form-controls";

type Attempt = { succeeded: boolean; statusCode: number | null; latencyMs: number; error: string | null };
type Delivery = { deliveryId: number; status: string; nextAttemptAt: string | null; attempts: Attempt[] };

export type WebhookActions = {
  setUrl: (businessId: number, url: string) => Promise<ActionResult<{ webhookUrl: string | null }>>;
  reveal: (businessId: number) => Promise<ActionResult<{ webhookSecret: string }>>;
  rotate: (businessId: number) => Promise<ActionResult<{ webhookSecret: string }>>;
  sendTest: (businessId: number) => Promise<ActionResult<Delivery>>;
  delivery: (businessId: number, deliveryId: number) => Promise<ActionResult<Delivery>>;
};

type Props = {
  businessId: number;
  webhookUrl: string | null;
  mode: "test" | "live";
  allowed: { manageWebhooks: boolean; seeSecrets: boolean };
  actions: WebhookActions;
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function describe(d: Delivery): string {
  const last = d.attempts.at(-1);
  if (!last) return `Test event queued (delivery ${d.deliveryId}); waiting for the first attempt…`;
  if (last.succeeded) return `Test event delivered: your endpoint answered HTTP ${last.statusCode} in ${last.latencyMs} ms.`;
  const why = last.error ?? `HTTP ${last.statusCode}`;
  return `Test event not delivered (${why}).${d.nextAttemptAt ? " It will be retried on the usual schedule; see the log below." : ""}`;
}

/**
 * The webhook endpoint: its URL, the signing secret (revealed on demand to roles that may see
 * secrets, and rotatable), and a signed test event whose outcome is followed until the first
 * attempt is recorded in the delivery log.
 */
export function WebhookSettings({ businessId, webhookUrl, mode, allowed, actions }: Props) {
  const router = useRouter();
  const [pending, start] = useTransition();
  const [urlResult, setUrlResult] = useState<ActionResult<unknown> | null>(null);
  const [secret, setSecret] = useState<{ value: string; rotated: boolean } | null>(null);
  const [secretResult, setSecretResult] = useState<ActionResult<unknown> | null>(null);
  const [confirmRotate, setConfirmRotate] = useState(false);
  const [testStatus, setTestStatus] = useState<{ text: string; ok: boolean | null } | null>(null);

  function saveUrl(form: HTMLFormElement) {
    const url = String(new FormData(form).get("webhookUrl") ?? "");
    start(async () => {
      const r = await actions.setUrl(businessId, url);
      setUrlResult(r.ok ? { ok: true, message: r.data?.webhookUrl ? "Webhook URL saved." : "Webhook URL removed: events are recorded but not sent." } : r);
    });
  }

  function reveal() {
    start(async () => {
      const r = await actions.reveal(businessId);
      setSecretResult(r.ok ? null : r);
      if (r.ok && r.data) setSecret({ value: r.data.webhookSecret, rotated: false });
    });
  }

  function rotate() {
    start(async () => {
      const r = await actions.rotate(businessId);
      setConfirmRotate(false);
      setSecretResult(r.ok ? { ok: true, message: "Secret rotated: every delivery from now on is signed with the new one." } : r);
      if (r.ok && r.data) setSecret({ value: r.data.webhookSecret, rotated: true });
    });
  }

  function sendTest() {
    start(async () => {
      const r = await actions.sendTest(businessId);
      if (!r.ok || !r.data) return setTestStatus({ text: r.ok ? "Could not send." : r.error, ok: false });
      let d = r.data;
      setTestStatus({ text: describe(d), ok: null });
      // The background worker attempts it within a moment; follow it for up to 20 s.
      for (let i = 0; i < 40 && d.attempts.length === 0; i++) {
        await sleep(500);
        const next = await actions.delivery(businessId, d.deliveryId);
        if (next.ok && next.data) d = next.data;
      }
      setTestStatus({ text: describe(d), ok: d.attempts.length ? d.attempts.at(-1)!.succeeded : null });
      router.refresh();
    });
  }

  const urlErrors = urlResult && !urlResult.ok ? errorsFor(urlResult.fieldErrors, "webhookUrl") : [];
  return (
    <div className="space-y-6">
      {allowed.manageWebhooks ? (
        <form onSubmit={(e) => (e.preventDefault(), saveUrl(e.currentTarget))} className="space-y-2" noValidate>
          <label htmlFor="webhook-url" className="block text-sm font-medium text-slate-800">Endpoint URL</label>
          <div className="flex flex-wrap gap-2">
            <input id="webhook-url" name="webhookUrl" type="url" inputMode="url" defaultValue={webhookUrl ?? ""} placeholder="https://shop.example/hooks/payments" className={`${inputClass} mt-0 min-w-0 flex-1`} {...describedBy("webhook-url-error", urlErrors)} />
            <button type="submit" disabled={pending} className={buttonClass.primary}>Save URL</button>
          </div>
          <FieldError id="webhook-url-error" messages={urlErrors} />
          <p className="text-sm text-slate-600">
            {mode === "live" ? "Live mode: a public https:// address." : "Test mode: http:// and local addresses are allowed."} Leave it empty to send no webhooks.
          </p>
          <Outcome result={urlResult} success={urlResult?.ok ? urlResult.message : undefined} fields={["webhookUrl"]} />
        </form>
      ) : (
        <p className="text-slate-800">
          Endpoint URL: {webhookUrl ? <code className="break-all font-mono text-sm">{webhookUrl}</code> : "none (events are recorded but not sent)"}
        </p>
      )}

      <div className="space-y-2">
        <h3 className="font-semibold text-slate-900">Signing secret</h3>
        <div className="flex flex-wrap items-center gap-2">
          {allowed.seeSecrets ? (
            secret ? (
              <div className="flex w-full flex-wrap items-center gap-2">
                <code className="min-w-0 flex-1 break-all rounded bg-slate-100 px-2 py-1.5 font-mono text-xs" data-testid="webhook-secret">{secret.value}</code>
                <CopyButton value={secret.value} what="signing secret" />
                <button type="button" className={buttonClass.secondary} onClick={() => setSecret(null)}>Hide</button>
              </div>
            ) : (
              <button type="button" disabled={pending} className={buttonClass.secondary} onClick={reveal}>Reveal signing secret</button>
            )
          ) : (
            <p className="text-slate-700">Hidden: your role cannot see secrets.</p>
          )}
          {allowed.manageWebhooks ? (
            confirmRotate ? (
              <div role="group" aria-label="Confirm rotating the secret" className="flex w-full flex-wrap items-center gap-2 rounded-lg bg-amber-50 p-3 ring-1 ring-amber-200">
                <span className="text-sm text-amber-950">Deliveries are signed with the new secret at once; update your receiver straight after.</span>
                <button type="button" disabled={pending} className={buttonClass.danger} onClick={rotate}>Rotate now</button>
                <button type="button" className={buttonClass.secondary} onClick={() => setConfirmRotate(false)}>Cancel</button>
              </div>
            ) : (
              <button type="button" className={buttonClass.secondary} onClick={() => setConfirmRotate(true)}>Rotate secret</button>
            )
          ) : null}
        </div>
        <Outcome result={secretResult} success={secretResult?.ok ? secretResult.message : undefined} />
      </div>

      {allowed.manageWebhooks ? (
        <div className="space-y-2">
          <h3 className="font-semibold text-slate-900">Test event</h3>
          <p className="text-sm text-slate-700">Sends a signed <code>WEBHOOK_TEST</code> event (no payment) to the endpoint, as every event is sent.</p>
          <button type="button" disabled={pending || !webhookUrl} className={buttonClass.secondary} onClick={sendTest}>Send a test event</button>
          {!webhookUrl ? <p className="text-sm text-slate-600">Save an endpoint URL first.</p> : null}
          <p role="status" data-testid="test-event-status" className={`text-sm font-medium ${testStatus?.ok === false ? "text-red-800" : testStatus?.ok ? "text-emerald-800" : "text-slate-800"}`}>
            {testStatus?.text ?? ""}
          </p>
        </div>
      ) : null}
    </div>
  );
}
