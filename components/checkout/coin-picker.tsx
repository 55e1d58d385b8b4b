"use client";

import { useActionState } from "react";
import { selectCoinAction, type ActionResult } from "@/lib/checkout/actions";
import type { CheckoutView } from "@/lib/checkout/view";
import { CoinBadge } from "./coin-badge";
import { FormError } from "./form-error";

type Coin = CheckoutView["coins"][number];

const NETWORK_NAMES: Record<string, string> = {
  BTC: "Bitcoin network",
  LTC: "Litecoin network",
  ETHEREUM: "Ethereum network",
  TRON: "TRON network",
  SOLANA: "Solana network",
};

/**
 * The customer's choice of coin: one submit button per offered coin (keyboard and screen-reader
 * friendly, works before hydration too). Choosing creates the charge on the server.
 */
export function CoinPicker({ paymentId, coins, current }: { paymentId: string; coins: Coin[]; current?: string }) {
  const [state, action, pending] = useActionState<ActionResult | null, FormData>(selectCoinAction, null);
  if (coins.length === 0) {
    return <p className="text-sm text-slate-600">No payment method is available for this payment. Please contact the merchant.</p>;
  }
  return (
    <form action={action} aria-busy={pending}>
      <input type="hidden" name="paymentId" value={paymentId} />
      <ul className="grid grid-cols-1 gap-2 min-[360px]:grid-cols-2" aria-label="Cryptocurrencies you can pay with">
        {coins.map((c) => {
          const selected = c.coin === current;
          return (
            <li key={c.coin}>
              <button
                type="submit"
                name="coin"
                value={c.coin}
                disabled={pending}
                aria-pressed={current ? selected : undefined}
                className={`flex h-full min-h-14 w-full items-center gap-3 rounded-xl px-3 py-2 text-left ring-1 transition focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 disabled:cursor-wait disabled:opacity-60 ${
                  selected ? "bg-indigo-50 ring-2 ring-indigo-500" : "bg-white ring-slate-200 hover:bg-slate-50 hover:ring-slate-300"
                }`}
              >
                <CoinBadge symbol={c.symbol} />
                <span className="min-w-0">
                  <span className="block text-sm leading-tight font-semibold text-slate-900">{c.name}</span>
                  <span className="block text-xs text-slate-500">
                    {c.symbol}
                    {c.network ? <span className="sr-only">, {NETWORK_NAMES[c.network] ?? c.network}</span> : null}
                  </span>
                </span>
              </button>
            </li>
          );
        })}
      </ul>
      {pending ? (
        <p role="status" className="mt-3 text-sm text-slate-600">
          Preparing your payment address…
        </p>
      ) : null}
      <FormError result={state} />
    </form>
  );
}
