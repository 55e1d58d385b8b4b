"use client";

import { useState, useTransition } from "react";
import type { ActionResult } from "@/lib/accounts/session";
import type { MoneroSettingsView } from "@/lib/dashboard/monero-settings";
import { buttonClass, describedBy, errorsFor, FieldError, inputClass, Outcome } from "../developers/form-controls";

export type SaveMoneroAction = (businessId: number, input: unknown, remove?: boolean) => Promise<ActionResult<unknown>>;

/**
 * The business's Monero wallet: its primary address, private view key and restore height. The
 * page says plainly what the view key can and cannot do, and asks for nothing more: a spend key
 * or a seed is never needed. The view key is never shown again once saved.
 */
export function MoneroWalletForm({ businessId, view, save }: { businessId: number; view: MoneroSettingsView; save: SaveMoneroAction }) {
  const [pending, start] = useTransition();
  const [result, setResult] = useState<ActionResult<unknown> | null>(null);
  const err = (field: string) => errorsFor(result && !result.ok ? result.fieldErrors : undefined, field);

  function submit(form: HTMLFormElement) {
    const data = new FormData(form);
    const height = String(data.get("restoreHeight") ?? "").trim();
    const input = {
      primaryAddress: String(data.get("primaryAddress") ?? "").trim(),
      privateViewKey: String(data.get("privateViewKey") ?? "").trim(),
      restoreHeight: /^\d+$/.test(height) ? Number(height) : height,
    };
    start(async () => {
      const r = await save(businessId, input);
      setResult(r);
      if (r.ok) form.reset();
    });
  }

  return (
    <form onSubmit={(e) => (e.preventDefault(), submit(e.currentTarget))} className="space-y-3" noValidate>
      <p className="text-sm text-slate-700" data-testid="monero-view-key-note">{view.note}</p>
      {view.wallet ? (
        <p className="text-sm text-slate-700">
          Paid to subaddresses of <span className="break-all font-mono">{view.wallet.primaryAddress}</span>, scanned from block {view.wallet.restoreHeight}
          {view.wallet.walletCreated ? "." : " (the view-only wallet is made at the first Monero payment)."} Saving new keys replaces them.
        </p>
      ) : (
        <p className="text-sm text-slate-600">No Monero wallet yet: a live business offers Monero once one is saved.</p>
      )}
      <div>
        <label htmlFor="primaryAddress" className="block text-sm font-medium text-slate-800">Primary address</label>
        <input id="primaryAddress" name="primaryAddress" spellCheck={false} autoComplete="off" placeholder="4…" className={`${inputClass} font-mono`} {...describedBy("primaryAddress-error", err("primaryAddress"))} />
        <FieldError id="primaryAddress-error" messages={err("primaryAddress")} />
      </div>
      <div>
        <label htmlFor="privateViewKey" className="block text-sm font-medium text-slate-800">Private view key</label>
        <input id="privateViewKey" name="privateViewKey" type="password" spellCheck={false} autoComplete="off" className={`${inputClass} font-mono`} {...describedBy("privateViewKey-help privateViewKey-error", err("privateViewKey"))} />
        <p id="privateViewKey-help" className="mt-1 text-sm text-slate-600">64 hexadecimal digits, from your wallet&apos;s keys page (the secret view key). It is checked against the address.</p>
        <FieldError id="privateViewKey-error" messages={err("privateViewKey")} />
      </div>
      <div>
        <label htmlFor="restoreHeight" className="block text-sm font-medium text-slate-800">Restore height</label>
        <input id="restoreHeight" name="restoreHeight" inputMode="numeric" className={inputClass} {...describedBy("restoreHeight-help restoreHeight-error", err("restoreHeight"))} />
        <p id="restoreHeight-help" className="mt-1 text-sm text-slate-600">The block your wallet was made at: older blocks are not scanned.</p>
        <FieldError id="restoreHeight-error" messages={err("restoreHeight")} />
      </div>
      <div className="flex flex-wrap gap-2">
        <button type="submit" disabled={pending} className={buttonClass.primary}>{pending ? "Saving…" : "Save Monero wallet"}</button>
        {view.wallet ? (
          <button type="button" disabled={pending} onClick={() => start(async () => setResult(await save(businessId, null, true)))} className={buttonClass.secondary}>Remove Monero wallet</button>
        ) : null}
      </div>
      <Outcome result={result} success="Monero wallet saved." fields={["primaryAddress", "privateViewKey", "restoreHeight"]} />
    </form>
  );
}
