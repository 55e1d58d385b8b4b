"use client";

import { useState, useTransition } from "react";
import type { ActionResult } from "@/lib/accounts/session";
import type { SettingsView } from "@/lib/dashboard/settings";
import { buttonClass, describedBy, errorsFor, FieldError, inputClass, Outcome } from "../developers/form-controls";
import { BrandFields } from "./brand-fields";
import { EmailFields, emailNotificationsOf } from "./email-fields";
import { WalletKeyField, type KeyState, type PreviewAction } from "./wallet-key-field";
import { coinName } from "../names";

export type SaveAction = (businessId: number, input: unknown, confirmedKeys: string[]) => Promise<ActionResult<unknown>>;

function duration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds <= 0) return "";
  if (seconds % 86400 === 0) return `${seconds / 86400} day${seconds === 86400 ? "" : "s"}`;
  if (seconds % 3600 === 0) return `${seconds / 3600} hour${seconds === 3600 ? "" : "s"}`;
  if (seconds % 60 === 0) return `${seconds / 60} minutes`;
  return `${seconds} seconds`;
}

/**
 * The owner's settings form. Values go to the server as typed; the server validates them with
 * the admin API's schema and its field errors appear beside each field. A changed wallet key is
 * sent as confirmed only once its addresses were shown and ticked as matching the wallet.
 */
export function SettingsForm({ view, paths, actions }: { view: SettingsView; paths: Record<string, string>; actions: { preview: PreviewAction; save: SaveAction } }) {
  const [pending, start] = useTransition();
  const [result, setResult] = useState<ActionResult<unknown> | null>(null);
  const [lifetime, setLifetime] = useState(String(view.paymentLifetimeSeconds));
  const [keys, setKeys] = useState<Record<string, KeyState>>(() =>
    Object.fromEntries(view.families.map((f) => [f, { value: view.extendedPublicKeys[f] ?? "", preview: null, confirmed: false }])),
  );
  const fieldErrors = result && !result.ok ? result.fieldErrors : undefined;
  const err = (field: string) => errorsFor(fieldErrors, field);

  function save(form: HTMLFormElement) {
    const data = new FormData(form);
    const input = {
      name: String(data.get("name") ?? ""),
      displayName: String(data.get("displayName") ?? ""),
      accentColor: String(data.get("accentColor") ?? "").trim() || null,
      paymentLifetimeSeconds: Number(data.get("paymentLifetimeSeconds")),
      underpaymentTolerancePercent: Number(data.get("underpaymentTolerancePercent")),
      enabledCoins: data.getAll("enabledCoins").map(String),
      extendedPublicKeys: Object.fromEntries(view.families.map((f) => [f, keys[f].value.trim()])),
      emailNotifications: emailNotificationsOf(data),
    };
    const confirmed = view.families.filter((f) => keys[f].confirmed && keys[f].preview?.key === keys[f].value.trim());
    start(async () => setResult(await actions.save(view.businessId, input, confirmed)));
  }

  return (
    <form onSubmit={(e) => (e.preventDefault(), save(e.currentTarget))} className="space-y-6" noValidate>
      <div>
        <label htmlFor="name" className="block text-sm font-medium text-slate-800">Business name</label>
        <input id="name" name="name" defaultValue={view.name} maxLength={200} className={inputClass} {...describedBy("name-error", err("name"))} />
        <FieldError id="name-error" messages={err("name")} />
      </div>
      <BrandFields view={view} err={err} />
      <div className="grid gap-4 sm:grid-cols-2">
        <div>
          <label htmlFor="lifetime" className="block text-sm font-medium text-slate-800">Payment lifetime (seconds)</label>
          <input id="lifetime" name="paymentLifetimeSeconds" type="number" inputMode="numeric" min={5} max={604800} step={1} value={lifetime} onChange={(e) => setLifetime(e.target.value)} className={inputClass} {...describedBy("lifetime-error", err("paymentLifetimeSeconds"))} />
          <p className="mt-1 text-sm text-slate-600">{duration(Number(lifetime))} to pay before a payment expires (5 s to 7 days).</p>
          <FieldError id="lifetime-error" messages={err("paymentLifetimeSeconds")} />
        </div>
        <div>
          <label htmlFor="tolerance" className="block text-sm font-medium text-slate-800">Underpayment tolerance (%)</label>
          <input id="tolerance" name="underpaymentTolerancePercent" type="number" inputMode="decimal" min={0} max={100} step="any" defaultValue={view.underpaymentTolerancePercent} className={inputClass} {...describedBy("tolerance-error", err("underpaymentTolerancePercent"))} />
          <p className="mt-1 text-sm text-slate-600">A payment short by at most this share counts as paid in full.</p>
          <FieldError id="tolerance-error" messages={err("underpaymentTolerancePercent")} />
        </div>
      </div>
      <fieldset {...describedBy("coins-error", err("enabledCoins"))}>
        <legend className="text-sm font-medium text-slate-800">Enabled coins</legend>
        {view.mode === "live" ? <p className="text-sm text-slate-600">Live mode offers only coins of chains the service watches; the others are for test mode.</p> : null}
        <div className="mt-2 grid grid-cols-1 gap-1 sm:grid-cols-2 lg:grid-cols-3">
          {view.allCoins.map((coin) => {
            const servable = view.servableCoins.includes(coin);
            return (
              <label key={coin} className={`flex min-h-10 items-center gap-2 text-sm ${servable ? "text-slate-900" : "text-slate-500"}`}>
                <input type="checkbox" name="enabledCoins" value={coin} defaultChecked={view.enabledCoins.includes(coin)} disabled={!servable} className="size-5" />
                <span>
                  {coinName(coin).label} <code className="font-mono text-xs text-slate-600">{coin}</code>
                </span>
              </label>
            );
          })}
        </div>
        <FieldError id="coins-error" messages={err("enabledCoins")} />
      </fieldset>
      <EmailFields view={view} />
      <fieldset className="space-y-3">
        <legend className="text-sm font-medium text-slate-800">Wallets: account extended public keys</legend>
        <p className="text-sm text-slate-600">
          {view.mode === "live"
            ? "Deposit addresses are derived from these keys; the service never holds a private key."
            : "Test mode pays to fixed test keys; these keys are used once the business is live. Addresses are shown in mainnet encoding."}
        </p>
        {view.families.map((f) => (
          <WalletKeyField
            key={f}
            businessId={view.businessId}
            family={f}
            path={paths[f]}
            saved={view.extendedPublicKeys[f] ?? ""}
            state={keys[f]}
            onChange={(next) => setKeys((k) => ({ ...k, [f]: next }))}
            errors={err(`extendedPublicKeys.${f}`)}
            preview={actions.preview}
          />
        ))}
      </fieldset>
      <div>
        <button type="submit" disabled={pending} className={buttonClass.primary}>{pending ? "Saving…" : "Save settings"}</button>
        <Outcome result={result} success="Settings saved." fields={["name", "displayName", "accentColor", "paymentLifetimeSeconds", "underpaymentTolerancePercent", "enabledCoins", "extendedPublicKeys", "emailNotifications"]} />
      </div>
    </form>
  );
}
