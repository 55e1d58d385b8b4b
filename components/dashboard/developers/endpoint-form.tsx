"use client";

import Link from "next/link";
import { useState, useTransition } from "react";
import { CopyButton } from "@/components/checkout/copy-button";
import type { ActionResult } from "@/lib/accounts/session";
import { eventName } from "../names";
import { buttonClass, describedBy, errorsFor, FieldError, inputClass, Outcome } from "./form-controls";

type Saved = { endpointId: number; secret: string };
type Initial = { url: string; description: string; eventTypes: string[] | null };

/**
 * Adds an endpoint or edits one: URL, description and the event types it receives (none ticked:
 * every type). A new endpoint's secret is shown once here, with a link to its page.
 */
export function EndpointForm({
  eventTypes,
  initial,
  base,
  save,
}: {
  eventTypes: readonly string[];
  initial?: Initial;
  base: string;
  save: (input: { url: string; description: string; eventTypes: string[] | null }) => Promise<ActionResult<unknown>>;
}) {
  const [pending, start] = useTransition();
  const [result, setResult] = useState<ActionResult<unknown> | null>(null);
  const id = initial ? "edit-endpoint" : "new-endpoint";

  function submit(form: HTMLFormElement) {
    const data = new FormData(form);
    const types = data.getAll("eventTypes").map(String);
    const input = { url: String(data.get("url") ?? "").trim(), description: String(data.get("description") ?? ""), eventTypes: types.length ? types : null };
    start(async () => {
      const r = await save(input);
      setResult(r);
      if (r.ok && !initial) form.reset();
    });
  }

  const urlErrors = result && !result.ok ? errorsFor(result.fieldErrors, "url") : [];
  // Adding answers the new endpoint with its secret; editing answers no secret.
  const created = result?.ok && !initial ? (result.data as Saved | undefined) : undefined;
  return (
    <form onSubmit={(e) => (e.preventDefault(), submit(e.currentTarget))} className="space-y-3" noValidate aria-label={initial ? "Edit endpoint" : "Add an endpoint"}>
      <div>
        <label htmlFor={`${id}-url`} className="block text-sm font-medium text-slate-800">URL</label>
        <input id={`${id}-url`} name="url" type="url" inputMode="url" required defaultValue={initial?.url} placeholder="https://shop.example/hooks/payments" className={inputClass} {...describedBy(`${id}-url-error`, urlErrors)} />
        <FieldError id={`${id}-url-error`} messages={urlErrors} />
      </div>
      <div>
        <label htmlFor={`${id}-description`} className="block text-sm font-medium text-slate-800">Description (optional)</label>
        <input id={`${id}-description`} name="description" maxLength={500} defaultValue={initial?.description} className={inputClass} />
      </div>
      <fieldset>
        <legend className="text-sm font-medium text-slate-800">Events it receives (none ticked: all, those added later too)</legend>
        <div className="mt-1 grid gap-1 sm:grid-cols-2">
          {eventTypes.map((t) => (
            <label key={t} className="flex min-h-8 items-center gap-2 text-sm text-slate-800">
              <input type="checkbox" name="eventTypes" value={t} defaultChecked={initial?.eventTypes?.includes(t) ?? false} className="h-4 w-4" />
              {eventName(t).label} <code className="font-mono text-xs text-slate-600">{t}</code>
            </label>
          ))}
        </div>
      </fieldset>
      <button type="submit" disabled={pending} className={buttonClass.primary}>{initial ? "Save endpoint" : "Add endpoint"}</button>
      <Outcome result={result} success={result?.ok ? (initial ? "Endpoint saved." : "Endpoint added.") : undefined} fields={["url"]} />
      {created?.secret ? (
        <div className="space-y-2 rounded-lg bg-slate-50 p-3 ring-1 ring-slate-200">
          <p className="text-sm text-slate-800">Its signing secret (also on its page):</p>
          <div className="flex flex-wrap items-center gap-2">
            <code className="min-w-0 flex-1 break-all font-mono text-xs" data-testid="new-endpoint-secret">{created.secret}</code>
            <CopyButton value={created.secret} what="signing secret" />
          </div>
          <Link className="text-sm font-medium text-indigo-800 underline" href={`${base}/webhooks/${created.endpointId}`}>Open the endpoint</Link>
        </div>
      ) : null}
    </form>
  );
}
