"use client";

import { useState, useTransition } from "react";
import type { ActionResult } from "@/lib/accounts/session";
import type { TonSettingsView } from "@/lib/dashboard/ton-settings";
import { buttonClass, inputClass, Outcome } from "../developers/form-controls";
import { WalletAddressForm } from "./wallet-address-form";

export type SaveTonAction = (businessId: number, input: unknown) => Promise<ActionResult<unknown>>;
export type ResolveTonAction = (businessId: number, input: unknown) => Promise<ActionResult<unknown>>;

/**
 * The business's TON wallet address, and the money that reached it without a comment or with one
 * no payment has: the merchant assigns each to a payment (by its id) or leaves it
 * (docs/real-chains.md#ton).
 */
export function TonWalletForm({ businessId, view, save, resolve }: { businessId: number; view: TonSettingsView; save: SaveTonAction; resolve: ResolveTonAction }) {
  const [pending, start] = useTransition();
  const [reviewResult, setReviewResult] = useState<ActionResult<unknown> | null>(null);
  const decide = (txHash: string, coin: string, paymentId: string | null) => start(async () => setReviewResult(await resolve(businessId, { txHash, coin, paymentId })));

  return (
    <div className="space-y-4">
      <WalletAddressForm field="tonWallet" chain="TON" wallet={view.wallet} note={view.note} save={(address) => save(businessId, { tonWallet: address })} />
      {view.review.length ? (
        <div>
          <h4 className="text-sm font-semibold text-slate-800">Payments to review</h4>
          <p className="text-sm text-slate-600">Sent to your wallet without a comment, or with one no payment has. Assign each to the payment it was for (its id), or leave it.</p>
          <ul className="mt-2 space-y-3 text-sm" data-testid="ton-review">
            {view.review.map((u) => (
              <li key={`${u.txHash}:${u.coin}`} className="break-all">
                <span className="font-mono">{u.amount}</span> base units of {u.coin}, {u.comment === null ? "no comment" : <>comment <span className="font-mono">{u.comment}</span></>}, from <span className="font-mono">{u.sender ?? "unknown"}</span> ({u.seenAt.slice(0, 16).replace("T", " ")} UTC): <span className="font-mono">{u.txHash}</span>
                <form
                  className="mt-1 flex flex-wrap gap-2"
                  onSubmit={(e) => (e.preventDefault(), decide(u.txHash, u.coin, String(new FormData(e.currentTarget).get("paymentId") ?? "").trim()))}
                >
                  <label className="sr-only" htmlFor={`assign-${u.txHash}-${u.coin}`}>Payment id</label>
                  <input id={`assign-${u.txHash}-${u.coin}`} name="paymentId" placeholder="Payment id" spellCheck={false} className={`${inputClass} font-mono`} />
                  <button type="submit" disabled={pending} className={buttonClass.primary}>Assign</button>
                  <button type="button" disabled={pending} onClick={() => decide(u.txHash, u.coin, null)} className={buttonClass.secondary}>Leave it</button>
                </form>
              </li>
            ))}
          </ul>
          <Outcome result={reviewResult} success="Done." fields={["paymentId"]} />
        </div>
      ) : null}
    </div>
  );
}
