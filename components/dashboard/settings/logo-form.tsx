"use client";

import { useRef, useState, useTransition } from "react";
import { MAX_LOGO_BYTES } from "@/domain/brand";
import type { ActionResult } from "@/lib/accounts/session";
import { buttonClass, describedBy, errorsFor, FieldError, Outcome } from "../developers/form-controls";

export type SaveLogoAction = (businessId: number, form: FormData) => Promise<ActionResult<unknown>>;

/**
 * The checkout logo: upload a new one or remove it. The server decides what the file is from its
 * content (lib/businesses/logo.ts); the size is also checked here first, so an oversized file is
 * explained before it is sent.
 */
export function LogoForm({ businessId, logoUrl, save }: { businessId: number; logoUrl: string | null; save: SaveLogoAction }) {
  const [pending, start] = useTransition();
  const [result, setResult] = useState<ActionResult<unknown> | null>(null);
  const [tooBig, setTooBig] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const errors = [...(tooBig ? [tooBig] : []), ...errorsFor(result && !result.ok ? result.fieldErrors : undefined, "logo")];

  function send(form: FormData) {
    setTooBig(null);
    start(async () => {
      const r = await save(businessId, form);
      setResult(r);
      if (r.ok && fileInput.current) fileInput.current.value = "";
    });
  }

  function upload(formElement: HTMLFormElement) {
    const file = fileInput.current?.files?.[0];
    if (file && file.size > MAX_LOGO_BYTES) {
      setResult(null);
      setTooBig(`This file is ${file.size} bytes; a logo may be at most 256 KB (${MAX_LOGO_BYTES} bytes).`);
      return;
    }
    send(new FormData(formElement));
  }

  function remove() {
    const form = new FormData();
    form.set("remove", "1");
    send(form);
  }

  return (
    <form onSubmit={(e) => (e.preventDefault(), upload(e.currentTarget))} className="space-y-3" noValidate>
      <div className="flex min-h-14 items-center gap-3">
        {logoUrl ? (
          // A plain <img>: the logo is served as stored, never through Next's image optimiser (docs/decisions.md).
          // eslint-disable-next-line @next/next/no-img-element
          <img src={logoUrl} alt="Current checkout logo" height={40} className="h-10 w-auto max-w-40 rounded object-contain ring-1 ring-slate-200" data-testid="current-logo" />
        ) : (
          <p className="text-sm text-slate-600">No logo: the checkout shows the first letter of the display name on the accent colour.</p>
        )}
      </div>
      <div>
        <label htmlFor="logo" className="block text-sm font-medium text-slate-800">Logo image</label>
        <input id="logo" name="logo" type="file" accept="image/png,image/jpeg,image/webp" ref={fileInput} className="mt-1 block w-full text-sm text-slate-700 file:mr-3 file:min-h-10 file:rounded-lg file:border-0 file:bg-slate-100 file:px-4 file:text-sm file:font-semibold file:text-slate-800 hover:file:bg-slate-200" {...describedBy("logo-error", errors)} />
        <p className="mt-1 text-sm text-slate-600">PNG, JPEG or WebP, at most 256 KB; shown 40 px high. SVG is not accepted.</p>
        <FieldError id="logo-error" messages={errors} />
      </div>
      <div className="flex flex-wrap gap-2">
        <button type="submit" disabled={pending} className={buttonClass.primary}>{pending ? "Saving…" : "Upload logo"}</button>
        {logoUrl ? (
          <button type="button" disabled={pending} onClick={remove} className={buttonClass.secondary}>Remove logo</button>
        ) : null}
      </div>
      <Outcome result={tooBig ? null : result} success="Logo saved." fields={["logo"]} />
    </form>
  );
}
