"use client";

import type { ActionResult } from "@/lib/accounts/session";
import type { SolanaSettingsView } from "@/lib/dashboard/solana-settings";
import { WalletAddressForm } from "./wallet-address-form";

export type SaveSolanaAction = (businessId: number, input: unknown) => Promise<ActionResult<unknown>>;

/**
 * The business's Solana wallet address (a public key, nothing secret), and the payments that
 * reached it without a payment's reference and matched none by amount: the merchant matches them
 * by hand (docs/real-chains.md#solana).
 */
export function SolanaWalletForm({ businessId, view, save }: { businessId: number; view: SolanaSettingsView; save: SaveSolanaAction }) {
  return (
    <div className="space-y-4">
      <WalletAddressForm field="solanaWallet" chain="Solana" wallet={view.wallet} note={view.note} noteTestId="solana-wallet-note" save={(address) => save(businessId, { solanaWallet: address })} />
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
