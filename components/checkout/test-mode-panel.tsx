"use client";

import { useTranslations } from "next-intl";
import { useActionState, type ReactNode } from "react";
import { simulateAction, type ActionResult } from "@/lib/checkout/actions";
import { FormError } from "./form-error";

type Props = {
  paymentId: string;
  /** The selected coin's ticker and what is still due, or null before a coin is chosen. */
  charge: { symbol: string; due: string; requiredConfirmations: number } | null;
  /** The payment reached a final status: transfers now are only recorded as late. */
  final: boolean;
};

const button =
  "min-h-10 rounded-lg px-3 text-sm font-semibold focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-amber-700 disabled:opacity-60";
const primary = `${button} bg-amber-500 text-amber-950 hover:bg-amber-400`;
const secondary = `${button} bg-white text-amber-950 ring-1 ring-amber-400 ring-inset hover:bg-amber-100`;
const input =
  "min-h-10 w-full min-w-0 rounded-lg border border-amber-300 bg-white px-3 text-sm text-slate-900 focus:outline-2 focus:outline-offset-1 focus:outline-amber-700";

function Row({ children }: { children: ReactNode }) {
  return <div className="flex flex-col gap-2 min-[400px]:flex-row min-[400px]:items-end">{children}</div>;
}

/**
 * Design §5: for test-mode payments only, stand-ins for the customer's wallet and the chain —
 * pay in full, pay part, add confirmations, drop the transfers. Each is a server action on the
 * simulated chain; the status then follows through the same detection as a real watcher.
 */
export function TestModePanel({ paymentId, charge, final }: Props) {
  const t = useTranslations("checkout.test");
  const [state, action, pending] = useActionState<ActionResult | null, FormData>(simulateAction, null);
  const hidden = (intent: string) => (
    <>
      <input type="hidden" name="paymentId" value={paymentId} />
      <input type="hidden" name="intent" value={intent} />
    </>
  );
  return (
    <section
      aria-labelledby="test-mode-title"
      className="overflow-hidden rounded-2xl border-2 border-dashed border-amber-400 bg-amber-50"
      data-testid="test-mode-panel"
    >
      <h2
        id="test-mode-title"
        className="bg-[repeating-linear-gradient(135deg,#fbbf24_0_10px,#fcd34d_10px_20px)] px-4 py-2 text-xs font-extrabold tracking-widest text-amber-950 uppercase"
      >
        {t("title")}
      </h2>
      <div className="space-y-4 p-4">
        <p className="text-sm text-amber-900">
          {t("intro")}
        </p>
        {charge === null ? (
          <p className="text-sm font-medium text-amber-900">
            {final ? t("final") : t("chooseFirst")}
          </p>
        ) : (
          <fieldset disabled={pending} className="space-y-4" aria-busy={pending}>
            <legend className="sr-only">{t("legend")}</legend>
            {final ? (
              <p className="text-sm font-medium text-amber-900">
                {t("finalLate")}
              </p>
            ) : null}
            <form action={action}>
              {hidden("pay-full")}
              <button type="submit" className={`${primary} w-full`}>
                {charge.due !== "0" ? t("payFullAmount", { amount: charge.due, symbol: charge.symbol }) : t("payFull")}
              </button>
            </form>
            <form action={action}>
              {hidden("pay-part")}
              <Row>
                <label className="flex-1 text-sm font-medium text-amber-950">
                  {t("amountIn", { symbol: charge.symbol })}
                  <input name="amount" inputMode="decimal" autoComplete="off" placeholder="0.0001" className={`${input} mt-1`} />
                </label>
                <button type="submit" className={secondary}>
                  {t("payPart")}
                </button>
              </Row>
            </form>
            <form action={action}>
              {hidden("confirm")}
              <Row>
                <label className="flex-1 text-sm font-medium text-amber-950">
                  {t("confirmationsToAdd")}
                  <input
                    name="confirmations"
                    type="number"
                    min={1}
                    max={1000}
                    step={1}
                    defaultValue={charge.requiredConfirmations}
                    className={`${input} mt-1`}
                  />
                </label>
                <button type="submit" className={secondary}>
                  {t("addConfirmations")}
                </button>
              </Row>
            </form>
            <form action={action}>
              {hidden("fail")}
              <button type="submit" className={`${secondary} w-full`}>
                {t("fail")}
              </button>
            </form>
          </fieldset>
        )}
        {pending ? (
          <p role="status" className="text-sm text-amber-900">
            {t("working")}
          </p>
        ) : null}
        <FormError result={state} />
      </div>
    </section>
  );
}
