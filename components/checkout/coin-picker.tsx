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
 * friendly, works before hydration too). Choosing creates the charge on the server. A coin no
 * fresh exchange rate can price now is marked "Temporarily unavailable" in words, not colour only.
 */
export function CoinPicker({ paymentId, coins, current }: { paymentId: string; coins: Coin[]; current?: string }) {
  const [state, action, pending] = useActionState<ActionResult | null, FormData>(selectCoinAction, null);
  if (coins.length === 0) {
    return <p className="text-sm text-slate-600">No payment method is available for this payment. Please contact the merchant.</p>;
  }
  return (
    <form action={action} aria-busy={pending}>
      <input type="hidden" name="paymentId" value={paymentId} />
      {coins.every((c) => !c.available) ? (
        <p className="mb-3 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900 ring-1 ring-amber-200" data-testid="rates-unavailable">
          Exchange rates are temporarily unavailable, so no coin can be priced right now. This page updates when they return.
        </p>
      ) : null}
      <ul className="grid grid-cols-1 gap-2 min-[360px]:grid-cols-2" aria-label="Cryptocurrencies you can pay with">
        {coins.map((c) => {
          const selected = c.coin === current;
          const look = !c.available
            ? "bg-slate-50 ring-slate-200 cursor-not-allowed"
            : selected
              ? "bg-indigo-50 ring-2 ring-indigo-500"
              : "bg-white ring-slate-200 hover:bg-slate-50 hover:ring-slate-300";
          return (
            <li key={c.coin}>
              {/*
                An unavailable coin stays focusable and named (aria-disabled, not disabled): choosing
                it still asks the server, which answers why it cannot be quoted now.
              */}
              <button
                type="submit"
                name="coin"
                value={c.coin}
                disabled={pending}
                aria-disabled={c.available ? undefined : true}
                aria-pressed={current ? selected : undefined}
                className={`flex h-full min-h-14 w-full items-center gap-3 rounded-xl px-3 py-2 text-left ring-1 transition focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 disabled:cursor-wait disabled:opacity-60 ${look}`}
              >
                <span className={`inline-flex shrink-0 ${c.available ? "" : "opacity-50 grayscale"}`}>
                  <CoinBadge symbol={c.symbol} />
                </span>
                <span className="min-w-0">
                  <span className={`block text-sm leading-tight font-semibold ${c.available ? "text-slate-900" : "text-slate-600"}`}>{c.name}</span>
                  {/* slate-500 is 4.3:1 on the selected coin's indigo-50: slate-600 there (WCAG 1.4.3) */}
                  <span className={`block text-xs ${selected ? "text-slate-600" : "text-slate-500"}`}>
                    {c.symbol}
                    {c.network ? <span className="sr-only">, {NETWORK_NAMES[c.network] ?? c.network}</span> : null}
                  </span>
                  {c.available ? null : (
                    <span className="mt-0.5 block text-xs font-medium text-amber-800" data-testid="coin-unavailable">
                      <span className="sr-only">, </span>Temporarily unavailable
                    </span>
                  )}
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
