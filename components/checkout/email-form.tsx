"use client";

import { useTranslations } from "next-intl";
import { useActionState } from "react";
import { setEmailAction, type ActionResult } from "@/lib/checkout/actions";
import { FormError } from "./form-error";

/**
 * Optional email for the receipt and status updates (only shown while the payment has none). It
 * promises a receipt only when one will be sent (`sendsReceipt`: an SMTP server is configured and
 * the business sends receipts).
 */
export function EmailForm({ paymentId, sendsReceipt }: { paymentId: string; sendsReceipt: boolean }) {
  const [state, action, pending] = useActionState<ActionResult | null, FormData>(setEmailAction, null);
  const t = useTranslations("checkout.email");
  const invalid = state !== null && !state.ok;
  return (
    <form action={action} noValidate className="space-y-2">
      <input type="hidden" name="paymentId" value={paymentId} />
      <label htmlFor="customer-email" className="block text-sm font-medium text-slate-800">
        {sendsReceipt ? t("label") : t("labelNoReceipt")} <span className="font-normal text-slate-500">{t("optional")}</span>
      </label>
      <div className="flex flex-col gap-2 min-[400px]:flex-row">
        <input
          id="customer-email"
          name="email"
          type="email"
          inputMode="email"
          autoComplete="email"
          placeholder={t("placeholder")}
          dir="ltr"
          aria-invalid={invalid || undefined}
          aria-describedby={invalid ? "customer-email-error" : undefined}
          className={`min-h-10 w-full min-w-0 flex-1 rounded-lg border bg-white px-3 text-sm text-slate-900 placeholder:text-slate-400 focus:outline-2 focus:outline-offset-1 focus:outline-indigo-600 ${
            invalid ? "border-red-400" : "border-slate-300"
          }`}
        />
        <button
          type="submit"
          disabled={pending}
          className="min-h-10 shrink-0 rounded-lg bg-slate-900 px-4 text-sm font-semibold text-white hover:bg-slate-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 disabled:opacity-60"
        >
          {pending ? t("saving") : t("save")}
        </button>
      </div>
      <FormError result={state} id="customer-email-error" />
    </form>
  );
}
