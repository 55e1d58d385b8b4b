"use client";

import { useState, useTransition } from "react";
import type { ActionResult } from "@/lib/accounts/session";
import { buttonClass, describedBy, errorsFor, FieldError, inputClass, Outcome } from "../developers/form-controls";

/**
 * A chain's wallet address (an address only, nothing secret: the Solana and TON settings), with
 * Save and, once one is set, Remove (an empty address). `field` names the input and the
 * field its errors come back under.
 */
export function WalletAddressForm(props: { field: string; chain: string; wallet: string | null; note: string; noteTestId?: string; save: (address: string) => Promise<ActionResult<unknown>> }) {
  const { field, chain, wallet, note, noteTestId, save } = props;
  const [pending, start] = useTransition();
  const [result, setResult] = useState<ActionResult<unknown> | null>(null);
  const errors = errorsFor(result && !result.ok ? result.fieldErrors : undefined, field);
  const submit = (address: string) => start(async () => setResult(await save(address)));

  return (
    <form onSubmit={(e) => (e.preventDefault(), submit(String(new FormData(e.currentTarget).get(field) ?? "").trim()))} className="space-y-3" noValidate>
      <div>
        <label htmlFor={field} className="block text-sm font-medium text-slate-800">{chain} wallet address</label>
        <input id={field} name={field} defaultValue={wallet ?? ""} spellCheck={false} autoComplete="off" className={`${inputClass} font-mono`} {...describedBy(`${field}-help ${field}-error`, errors)} />
        <p id={`${field}-help`} className="mt-1 text-sm text-slate-600" data-testid={noteTestId}>{note}</p>
        <FieldError id={`${field}-error`} messages={errors} />
      </div>
      <div className="flex flex-wrap gap-2">
        <button type="submit" disabled={pending} className={buttonClass.primary}>{pending ? "Saving…" : `Save ${chain} wallet`}</button>
        {wallet ? (
          <button type="button" disabled={pending} onClick={() => submit("")} className={buttonClass.secondary}>Remove {chain} wallet</button>
        ) : null}
      </div>
      <Outcome result={result} success={`${chain} wallet saved.`} fields={[field]} />
    </form>
  );
}
