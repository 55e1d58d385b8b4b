"use client";

import { useState, useTransition } from "react";
import type { ActionResult } from "@/lib/accounts/session";
import type { SolanaSettingsView } from "@/lib/dashboard/solana-settings";
import { buttonClass, describedBy, errorsFor, FieldError, inputClass, Outcome } from "../developers/form-controls";

export type SaveSolanaAction = (businessId: number, input: unknown) => Promise<ActionResult<unknown>>;

/**
 * The business's Solana wallet address (a public key, nothing secret), and the payments that
 * reached it without a payment's reference and matched none by amount: the merchant matches them
 * by hand (docs/real-chains.md#solana).
 */
export function SolanaWalletForm({ businessId, view, save }: { businessId: number; view: SolanaSettingsView; save: SaveSolanaAction }) {
  const [pending, start] = useTransition();
  const [result, setResult] = useState<ActionResult<unknown> | null>(null);
  const err = (field: string) => errorsFor(result && !result.ok ? result.fieldErrors : undefined, field);
  const submit = (value: string) => start(async () => setResult(await save(businessId, { solanaWallet: value })));

  return (
    <div className="space-y-4">
      <form onSubmit={(e) => (e.preventDefault(), submit(String(new FormData(e.currentTarget).get("solanaWallet") ?? "").trim()))} className="space-y-3" noValidate>
        <div>
          <label htmlFor="solanaWallet" className="block text-sm font-medium text-slate-800">Solana wallet address</label>
          <input id="solanaWallet" name="solanaWallet" defaultValue={view.wallet ?? ""} spellCheck={false} autoComplete="off" className={`${inputClass} font-mono`} {...describedBy("solanaWallet-help solanaWallet-error", err("solanaWallet"))} />
          <p id="solanaWallet-help" className="mt-1 text-sm text-slate-600" data-testid="solana-wallet-note">{view.note}</p>
          <FieldError id="solanaWallet-error" messages={err("solanaWallet")} />
        </div>
        <div className="flex flex-wrap gap-2">
          <button type="submit" disabled={pending} className={buttonClass.primary}>{pending ? "Saving…" : "Save Solana wallet"}</button>
          {view.wallet ? (
            <button type="button" disabled={pending} onClick={() => submit("")} className={buttonClass.secondary}>Remove Solana wallet</button>
          ) : null}
        </div>
        <Outcome result={result} success="Solana wallet saved." fields={["solanaWallet"]} />
      </form>
      {view.unmatched.length ? (
        <div>
          <h4 className="text-sm font-semibold text-slate-800">Payments without a reference</h4>
          <p className="text-sm text-slate-600">Sent to your wallet without a payment&apos;s reference, and no single open payment was due exactly that amount: match them by hand.</p>
          <ul className="mt-2 space-y-1 text-sm" data-testid="solana-unmatched">
            {view.unmatched.map((u) => (
              <li key={`${u.signature}:${u.coin}`} className="break-all">
                <span className="font-mono">{u.amount}</span> base units of {u.coin} at slot {u.slot} ({u.seenAt.slice(0, 16).replace("T", " ")} UTC): <span className="font-mono">{u.signature}</span>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}
