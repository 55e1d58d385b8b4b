import type { SettingsView } from "@/lib/dashboard/settings";

const KINDS = [
  { kind: "receipt", label: "Receipt", hint: "when the payment completes: amount, coins paid, transaction, reference, date" },
  { kind: "detected", label: "Payment detected", hint: "when a transfer is seen, before it is confirmed" },
  { kind: "underpaid", label: "Underpaid", hint: "with the amount still due and the checkout link" },
  { kind: "expired", label: "Expired", hint: "when the payment expires unpaid" },
] as const;

/** The form's `emailNotifications` checkboxes as the settings' object: every kind named, ticked or not. */
export function emailNotificationsOf(data: FormData): SettingsView["emailNotifications"] {
  const on = new Set(data.getAll("emailNotifications").map(String));
  return { receipt: on.has("receipt"), detected: on.has("detected"), underpaid: on.has("underpaid"), expired: on.has("expired") };
}

/** Which e-mails a payment's customer is sent, in the checkout's language, when the payment has a customer e-mail. */
export function EmailFields({ view }: { view: SettingsView }) {
  return (
    <fieldset>
      <legend className="text-sm font-medium text-slate-800">Customer e-mails</legend>
      <p className="text-sm text-slate-600">
        Sent to the payment&apos;s customer e-mail, in the language of their checkout.
        {view.emailsSent ? "" : " No SMTP server is configured (SMTP_URL): e-mails are written and shown on each payment's page, but not sent."}
      </p>
      <div className="mt-2 grid grid-cols-1 gap-1 sm:grid-cols-2">
        {KINDS.map(({ kind, label, hint }) => (
          <label key={kind} className="flex min-h-10 items-start gap-2 text-sm text-slate-900">
            <input type="checkbox" name="emailNotifications" value={kind} defaultChecked={view.emailNotifications[kind]} className="mt-0.5 size-5 shrink-0" />
            <span>
              {label} <span className="text-slate-600">— {hint}</span>
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
