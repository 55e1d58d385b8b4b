"use client";

import { useTranslations } from "next-intl";
import { useActionState, useEffect, useRef, useState } from "react";
import { cancelAction, type ActionResult } from "@/lib/checkout/actions";
import { FormError } from "./form-error";

/** "Cancel payment", with a confirmation step so a stray tap does not cancel the order. */
export function CancelPayment({ paymentId }: { paymentId: string }) {
  const t = useTranslations("checkout.cancel");
  const [confirming, setConfirming] = useState(false);
  const [state, action, pending] = useActionState<ActionResult | null, FormData>(cancelAction, null);
  const keepRef = useRef<HTMLButtonElement>(null);
  const openRef = useRef<HTMLButtonElement>(null);
  const wasConfirming = useRef(false);

  useEffect(() => {
    if (confirming) keepRef.current?.focus();
    else if (wasConfirming.current) openRef.current?.focus();
    wasConfirming.current = confirming;
  }, [confirming]);

  if (!confirming) {
    return (
      <button
        ref={openRef}
        type="button"
        onClick={() => setConfirming(true)}
        className="rounded-md px-2 py-1 text-sm font-medium text-slate-600 underline decoration-slate-300 underline-offset-4 hover:text-red-700 hover:decoration-red-300 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
      >
        {t("open")}
      </button>
    );
  }
  return (
    <form
      action={action}
      role="group"
      aria-labelledby="cancel-question"
      className="w-full rounded-xl border border-red-200 bg-red-50 p-4 text-start"
    >
      <input type="hidden" name="paymentId" value={paymentId} />
      <p id="cancel-question" className="text-sm font-semibold text-red-900">
        {t("question")}
      </p>
      <p className="mt-1 text-sm text-red-800">{t("warning")}</p>
      <div className="mt-3 flex flex-col gap-2 min-[400px]:flex-row">
        <button
          type="submit"
          disabled={pending}
          className="min-h-10 rounded-lg bg-red-700 px-4 text-sm font-semibold text-white hover:bg-red-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-red-700 disabled:opacity-60"
        >
          {pending ? t("cancelling") : t("confirm")}
        </button>
        <button
          ref={keepRef}
          type="button"
          onClick={() => setConfirming(false)}
          className="min-h-10 rounded-lg bg-white px-4 text-sm font-semibold text-slate-800 ring-1 ring-slate-300 ring-inset hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
        >
          {t("keep")}
        </button>
      </div>
      <FormError result={state} />
    </form>
  );
}
