"use client";

import { useActionState } from "react";
import type { ActionResult } from "@/lib/accounts/session";

type RedeliverAction = (prev: ActionResult<any> | null, form: FormData) => Promise<ActionResult<any>>;

/** Sends one delivery again now (same message id, freshly signed) and says how it went. */
export function RedeliverButton({ deliveryId, eventType, action }: { deliveryId: number; eventType: string; action: RedeliverAction }) {
  const [state, submit, pending] = useActionState(action, null);
  return (
    <form action={submit} className="flex flex-wrap items-center gap-2">
      <input type="hidden" name="deliveryId" value={deliveryId} />
      <button
        type="submit"
        disabled={pending}
        aria-label={`Redeliver ${eventType} (delivery ${deliveryId})`}
        className="rounded-lg bg-white px-3 py-1.5 text-sm font-semibold text-indigo-800 ring-1 ring-slate-300 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-700 disabled:opacity-60"
      >
        {pending ? "Sending…" : "Redeliver"}
      </button>
      <span aria-live="polite" className="text-sm">
        {state?.ok ? <span className="text-emerald-800">{state.message}</span> : null}
        {state && !state.ok ? <span role="alert" className="text-red-800">{state.error}</span> : null}
      </span>
    </form>
  );
}
