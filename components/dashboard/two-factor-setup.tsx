"use client";

import { useRouter } from "next/navigation";
import QRCode from "qrcode";
import { useState, type ReactNode } from "react";
import { authClient } from "@/lib/accounts/client";

const field = "mt-1 block w-full max-w-xs rounded-lg border border-slate-300 bg-white px-3 py-2 text-slate-900 focus:border-indigo-600 focus:outline-2 focus:outline-indigo-600";
const button = "rounded-lg bg-indigo-700 px-4 py-2 font-semibold text-white hover:bg-indigo-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-700 disabled:opacity-60";

type Enrolment = { qr: string; secret: string; backupCodes: string[] };

/**
 * Two-factor sign-in with an authenticator app (TOTP): the password confirms it is you, the QR
 * code (or the secret typed in) adds the account to the app, and the first code from the app
 * turns it on. Backup codes are shown once, for a lost phone.
 */
export function TwoFactorSetup({ enabled }: { enabled: boolean }) {
  const router = useRouter();
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function start(form: FormData) {
    setBusy(true);
    setError(null);
    const { data, error } = await authClient.twoFactor.enable({ password: String(form.get("password") ?? "") });
    setBusy(false);
    if (error?.status === 429) return setError(error.message ?? "Too many attempts. Try again later.");
    if (error || !data) return setError(error?.status === 400 || error?.status === 401 ? "That password is not correct." : (error?.message ?? "Could not start the set-up."));
    if (data.method !== "totp") return setError("Could not start the set-up.");
    const secret = new URL(data.totpURI).searchParams.get("secret") ?? "";
    setEnrolment({ qr: await QRCode.toDataURL(data.totpURI, { margin: 2, errorCorrectionLevel: "M" }), secret, backupCodes: data.backupCodes });
  }

  async function confirm(form: FormData) {
    setBusy(true);
    setError(null);
    const { error } = await authClient.twoFactor.verifyTotp({ code: String(form.get("code") ?? "").replace(/\s+/g, "") });
    setBusy(false);
    if (error) return setError("That code is not valid. Check the time on your phone and try the current code.");
    setEnrolment(null);
    router.refresh();
  }

  async function disable(form: FormData) {
    setBusy(true);
    setError(null);
    const { error } = await authClient.twoFactor.disable({ password: String(form.get("password") ?? "") });
    setBusy(false);
    // A locked address (too many wrong passwords) gets the server's words.
    if (error) return setError(error.status === 429 ? (error.message ?? "Too many attempts. Try again later.") : "That password is not correct.");
    router.refresh();
  }

  const alert = error ? <p role="alert" className="text-sm text-red-800">{error}</p> : null;
  if (enabled) {
    return (
      <PasswordStep action={disable} state="on" id="disable-password" label="Password, to turn it off" submit="Turn off two-factor sign-in" busy={busy} alert={alert} />
    );
  }
  if (enrolment) {
    return (
      <form action={confirm} className="space-y-4">
        <p className="text-slate-800">Scan this code with your authenticator app, or enter the secret by hand.</p>
        {/* eslint-disable-next-line @next/next/no-img-element -- a data: URL drawn in the browser */}
        <img src={enrolment.qr} alt="QR code to add this account to an authenticator app" width={192} height={192} className="size-48 rounded-lg bg-white ring-1 ring-slate-200" />
        <p className="text-sm text-slate-700">
          Secret: <code className="rounded bg-slate-100 px-1.5 py-0.5 font-mono" data-testid="totp-secret">{enrolment.secret}</code>
        </p>
        <div>
          <h2 className="text-sm font-semibold text-slate-900">Backup codes (shown once; keep them somewhere safe)</h2>
          <ul className="mt-1 grid max-w-sm grid-cols-2 gap-1 font-mono text-sm" data-testid="backup-codes">
            {enrolment.backupCodes.map((c) => (
              <li key={c}>{c}</li>
            ))}
          </ul>
        </div>
        <label htmlFor="totp-code" className="block text-sm font-medium text-slate-800">The 6-digit code from the app</label>
        <input id="totp-code" name="code" inputMode="numeric" autoComplete="one-time-code" required className={field} />
        {alert}
        <button type="submit" disabled={busy} className={button}>Turn on</button>
      </form>
    );
  }
  return <PasswordStep action={start} state="off" id="enable-password" label="Password, to set it up" submit="Set up two-factor sign-in" busy={busy} alert={alert} />;
}

/** Where two-factor sign-in stands, and the password that confirms turning it on or off. */
function PasswordStep(p: { action: (form: FormData) => Promise<void>; state: "on" | "off"; id: string; label: string; submit: string; busy: boolean; alert: ReactNode }) {
  return (
    <form action={p.action} className="space-y-3">
      <p className="text-slate-800" data-testid="two-factor-status">Two-factor sign-in is <strong>{p.state}</strong>.</p>
      <label htmlFor={p.id} className="block text-sm font-medium text-slate-800">{p.label}</label>
      <input id={p.id} name="password" type="password" autoComplete="current-password" required className={field} />
      {p.alert}
      <button type="submit" disabled={p.busy} className={button}>{p.submit}</button>
    </form>
  );
}
