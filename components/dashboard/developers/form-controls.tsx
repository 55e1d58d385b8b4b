import type { ActionResult } from "@/lib/accounts/session";

/*
 * The dashboard forms' shared pieces (Developers, Settings, Members): one look for inputs and
 * buttons, field errors tied to their input (aria-describedby), and an action's outcome announced
 * to screen readers. Targets are at least 40 px high for touch.
 */

export const inputClass =
  "mt-1 block w-full min-h-10 rounded-lg border border-slate-300 bg-white px-3 py-2 text-slate-900 shadow-sm focus:border-indigo-600 focus:outline-2 focus:outline-indigo-600 aria-[invalid=true]:border-red-600";

const base =
  "inline-flex min-h-10 items-center justify-center rounded-lg px-4 py-2 text-sm font-semibold focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-700 disabled:cursor-not-allowed disabled:opacity-60";
export const buttonClass = {
  primary: `${base} bg-indigo-700 text-white hover:bg-indigo-800`,
  secondary: `${base} bg-white text-slate-800 ring-1 ring-inset ring-slate-300 hover:bg-slate-50`,
  danger: `${base} bg-red-700 text-white hover:bg-red-800`,
};

export type FieldErrorMap = Record<string, string[]> | undefined;

/** Whether the error key `key` is about `field` or a part of it (`enabledCoins[2]` of `enabledCoins`). */
const belongsTo = (key: string, field: string) => key === field || key.startsWith(`${field}.`) || key.startsWith(`${field}[`);

/** The messages for `field` and anything under it. */
export function errorsFor(errors: FieldErrorMap, field: string): string[] {
  if (!errors) return [];
  return Object.entries(errors)
    .filter(([k]) => belongsTo(k, field))
    .flatMap(([, msgs]) => msgs);
}

/** A field's errors, with the id its input names in aria-describedby. */
export function FieldError({ id, messages }: { id: string; messages: string[] }) {
  if (messages.length === 0) return null;
  return (
    <p id={id} className="mt-1 text-sm font-medium text-red-800">
      {messages.join(" · ")}
    </p>
  );
}

/** The props that tie an input to its error message. */
export function describedBy(id: string, messages: string[]) {
  return messages.length ? { "aria-invalid": true as const, "aria-describedby": id } : {};
}

/**
 * An action's outcome: the error (alert) or a success message (status). When every field error
 * belongs to a field the form shows (`fields`), the alert only points to them, rather than
 * repeating each message; anything else is shown in full.
 */
export function Outcome({ result, success, fields }: { result: ActionResult<unknown> | null; success?: string; fields?: string[] }) {
  if (!result) return <p role="status" className="sr-only" />;
  if (!result.ok) {
    const keys = Object.keys(result.fieldErrors ?? {});
    const shown = fields !== undefined && keys.length > 0 && keys.every((k) => fields.some((f) => belongsTo(k, f)));
    return (
      <p role="alert" className="mt-2 text-sm font-medium text-red-800">
        {shown ? "Not saved: see the messages beside the fields." : result.error}
      </p>
    );
  }
  return success ? (
    <p role="status" className="mt-2 text-sm font-medium text-emerald-800">
      {success}
    </p>
  ) : null;
}

/** A time as the dashboard shows it: to the minute, in UTC, the same on server and browser. */
export function formatTime(iso: string | null | undefined, none = "—"): string {
  if (!iso) return none;
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}
