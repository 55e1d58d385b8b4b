"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useTransition, type FormEvent } from "react";

export type FilterValues = {
  statuses: string[];
  cryptoCoins: string[];
  fromTime?: string;
  toTime?: string;
  fromAmount?: string;
  toAmount?: string;
  searchString?: string;
  PageSize?: string;
};

/** A choice: its words, and the API's value (`value`) shown beside them. */
type Option = { value: string; label: string };

const input = "mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-slate-900 focus:border-indigo-600 focus:outline-2 focus:outline-indigo-600 aria-invalid:border-red-700";
const label = "block text-sm font-medium text-slate-800";

/** A list filter's choices, one checkbox each, sent as the parameter repeated. */
function Checkboxes({ name, options, checked, className }: { name: string; options: Option[]; checked: string[]; className: string }) {
  return (
    <div className={className}>
      {options.map((o) => (
        <label key={o.value} className="inline-flex items-center gap-1.5 text-sm text-slate-800">
          <input type="checkbox" name={name} value={o.value} defaultChecked={checked.includes(o.value)} className="size-4 accent-indigo-700" />
          {o.label}
          {o.label !== o.value ? <code className="font-mono text-xs text-slate-600">{o.value}</code> : null}
        </label>
      ))}
    </div>
  );
}

/** The UTC day of an instant in the URL, for a date input ("" when it is not a valid instant). */
function dayOf(value: string | undefined): string {
  const t = value ? Date.parse(value) : NaN;
  return Number.isNaN(t) ? "" : new Date(t).toISOString().slice(0, 10);
}

/**
 * The list API's filters as a form. It writes the API's own query parameters into the URL
 * (a shareable view: `statuses` repeating, `fromTime`/`toTime` as RFC 3339 UTC instants of whole
 * days), and the page reads them back with the API's schema; the schema's field errors come
 * back in `errors`, keyed as the API names them, and are shown beside their fields.
 */
export function FiltersForm({
  basePath,
  values,
  errors,
  statusOptions,
  coinOptions,
  pageSizes,
}: {
  basePath: string;
  values: FilterValues;
  errors: Record<string, string[]> | null;
  statusOptions: Option[];
  coinOptions: Option[];
  pageSizes: number[];
}) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const errorsOf = (name: string) =>
    Object.entries(errors ?? {})
      .filter(([field]) => field === name || field.startsWith(`${name}[`) || field.startsWith(`${name}.`))
      .flatMap(([, messages]) => messages);
  /** An input's error state: invalid, and described by its messages (and by `hint`, if any). */
  const invalid = (name: string, hint?: string) => {
    const bad = errorsOf(name).length > 0;
    const describedBy = [hint, bad ? `${name}-error` : undefined].filter(Boolean).join(" ");
    return { ...(bad ? { "aria-invalid": true as const } : {}), ...(describedBy ? { "aria-describedby": describedBy } : {}) };
  };
  /** A group's: only described by its messages (aria-invalid does not apply to a group). */
  const groupInvalid = (name: string) => (errorsOf(name).length ? { "aria-describedby": `${name}-error` } : {});
  const fieldError = (name: string) => {
    const messages = errorsOf(name);
    return messages.length ? (
      <p id={`${name}-error`} className="mt-1 text-sm text-red-800">
        {messages.join("; ")}
      </p>
    ) : null;
  };

  function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const q = new URLSearchParams();
    for (const name of ["statuses", "cryptoCoins"]) for (const v of form.getAll(name)) q.append(name, String(v));
    const text = (name: string) => String(form.get(name) ?? "").trim();
    // Whole UTC days: the first and the last millisecond of the chosen days.
    if (text("fromTime")) q.set("fromTime", `${text("fromTime")}T00:00:00Z`);
    if (text("toTime")) q.set("toTime", `${text("toTime")}T23:59:59.999Z`);
    for (const name of ["fromAmount", "toAmount"]) if (text(name)) q.set(name, text(name));
    // Free text is sent as typed (the API matches it as a substring); only an empty one is left out.
    const search = String(form.get("searchString") ?? "");
    if (search) q.set("searchString", search);
    if (text("PageSize") && text("PageSize") !== String(pageSizes[0])) q.set("PageSize", text("PageSize"));
    startTransition(() => router.push(q.size ? `${basePath}?${q}` : basePath));
  }

  const known = new Set(["statuses", "cryptoCoins", "fromTime", "toTime", "fromAmount", "toAmount", "searchString", "PageSize"]);
  const entries = Object.entries(errors ?? {});
  return (
    <form onSubmit={onSubmit} aria-label="Filter payments" className="space-y-4 rounded-xl bg-white p-4 ring-1 ring-slate-200">
      {entries.length ? (
        <div role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-900 ring-1 ring-red-200">
          <p className="font-semibold">These filters cannot be applied:</p>
          <ul className="mt-1 list-disc pl-5">
            {entries.map(([field, messages]) => (
              <li key={field}>
                <code>{field}</code>: {messages.join("; ")}
                {known.has(field.replace(/[[.].*$/, "")) ? null : " (remove it from the address, or clear the filters)"}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <div className="sm:col-span-2">
          <label htmlFor="searchString" className={label}>Search</label>
          <input id="searchString" name="searchString" type="search" defaultValue={values.searchString ?? ""} placeholder="Name, description, note or customer email" className={input} {...invalid("searchString")} />
          {fieldError("searchString")}
        </div>
        <div>
          <label htmlFor="fromTime" className={label}>Created from (UTC day)</label>
          <input id="fromTime" name="fromTime" type="date" defaultValue={dayOf(values.fromTime)} className={input} {...invalid("fromTime")} />
          {fieldError("fromTime")}
        </div>
        <div>
          <label htmlFor="toTime" className={label}>Created until (UTC day, inclusive)</label>
          <input id="toTime" name="toTime" type="date" defaultValue={dayOf(values.toTime)} className={input} {...invalid("toTime")} />
          {fieldError("toTime")}
        </div>
        <div>
          <label htmlFor="fromAmount" className={label}>Amount at least</label>
          <input id="fromAmount" name="fromAmount" inputMode="decimal" defaultValue={values.fromAmount ?? ""} className={input} {...invalid("fromAmount", "amount-hint")} />
          {fieldError("fromAmount")}
        </div>
        <div>
          <label htmlFor="toAmount" className={label}>Amount at most</label>
          <input id="toAmount" name="toAmount" inputMode="decimal" defaultValue={values.toAmount ?? ""} className={input} {...invalid("toAmount", "amount-hint")} />
          {fieldError("toAmount")}
        </div>
        <p id="amount-hint" className="text-sm text-slate-600 sm:col-span-2 sm:self-end">
          Amounts are the requested amount in each payment&apos;s own currency, e.g. 10 or 12.50.
        </p>
      </div>
      <fieldset {...groupInvalid("statuses")}>
        <legend className={label}>Status</legend>
        <Checkboxes name="statuses" options={statusOptions} checked={values.statuses} className="mt-1 flex flex-wrap gap-x-4 gap-y-2" />
        {fieldError("statuses")}
      </fieldset>
      <details open={values.cryptoCoins.length > 0 || errorsOf("cryptoCoins").length > 0}>
        <summary className="cursor-pointer text-sm font-medium text-slate-800">
          Coins{values.cryptoCoins.length ? ` (${values.cryptoCoins.length} chosen)` : ""}
        </summary>
        <fieldset className="mt-2" {...groupInvalid("cryptoCoins")}>
          <legend className="sr-only">Coin the customer selected</legend>
          <Checkboxes name="cryptoCoins" options={coinOptions} checked={values.cryptoCoins} className="grid gap-x-4 gap-y-2 sm:grid-cols-2 lg:grid-cols-4" />
          {fieldError("cryptoCoins")}
        </fieldset>
      </details>
      <div className="flex flex-wrap items-end gap-3">
        <div>
          <label htmlFor="PageSize" className={label}>Per page</label>
          <select id="PageSize" name="PageSize" defaultValue={values.PageSize ?? String(pageSizes[0])} className={input} {...invalid("PageSize")}>
            {pageSizes.map((n) => (
              <option key={n} value={n}>{n}</option>
            ))}
            {values.PageSize && !pageSizes.map(String).includes(values.PageSize) ? <option value={values.PageSize}>{values.PageSize}</option> : null}
          </select>
          {fieldError("PageSize")}
        </div>
        <button type="submit" disabled={pending} className="rounded-lg bg-indigo-700 px-4 py-2 font-semibold text-white hover:bg-indigo-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-700 disabled:opacity-60">
          {pending ? "Applying…" : "Apply filters"}
        </button>
        <Link href={basePath} className="rounded-lg px-3 py-2 font-medium text-slate-700 underline underline-offset-2 focus-visible:outline-2 focus-visible:outline-indigo-700">
          Clear filters
        </Link>
      </div>
    </form>
  );
}
