"use client";

import { useState } from "react";
import { ACCENT_COLOR_PATTERN, contrastWithWhite, MIN_ACCENT_CONTRAST } from "@/domain/brand";
import type { SettingsView } from "@/lib/dashboard/settings";
import { describedBy, FieldError, inputClass } from "../developers/form-controls";

/** The checkout's default accent (Tailwind's indigo-600, app/globals.css), shown in the colour picker while none is set. */
const DEFAULT_ACCENT = "#4f39f6";

/**
 * The checkout brand's text settings: the name customers see and the accent colour. The colour's
 * contrast with white text is shown as it is typed (domain/brand.ts, the rule saving applies),
 * and a sample button shows it only when it passes, so the form itself never shows illegible text.
 */
export function BrandFields({ view, err }: { view: SettingsView; err: (field: string) => string[] }) {
  const [accent, setAccent] = useState(view.accentColor ?? "");
  const valid = ACCENT_COLOR_PATTERN.test(accent);
  const ratio = valid ? Math.floor(contrastWithWhite(accent) * 100) / 100 : null;
  const passes = ratio !== null && ratio >= MIN_ACCENT_CONTRAST;

  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <div>
        <label htmlFor="displayName" className="block text-sm font-medium text-slate-800">Checkout display name</label>
        <input id="displayName" name="displayName" defaultValue={view.displayName ?? ""} placeholder={view.name} maxLength={200} className={inputClass} {...describedBy("displayName-error", err("displayName"))} />
        <p className="mt-1 text-sm text-slate-600">The name customers see on the checkout and in its tab title. Empty: the business name.</p>
        <FieldError id="displayName-error" messages={err("displayName")} />
      </div>
      <div>
        <label htmlFor="accentColor" className="block text-sm font-medium text-slate-800">Accent colour</label>
        <div className="flex items-end gap-2">
          <input id="accentColor" name="accentColor" value={accent} onChange={(e) => setAccent(e.target.value.trim())} placeholder="#RRGGBB" maxLength={7} spellCheck={false} autoComplete="off" className={`${inputClass} font-mono`} {...describedBy("accentColor-error accentColor-contrast", err("accentColor"))} />
          <input type="color" aria-label="Pick the accent colour" value={valid ? accent.toLowerCase() : DEFAULT_ACCENT} onChange={(e) => setAccent(e.target.value)} className="h-10 w-12 shrink-0 cursor-pointer rounded-lg border border-slate-300 bg-white p-1" />
        </div>
        <p id="accentColor-contrast" className="mt-1 text-sm text-slate-600">
          {ratio === null
            ? "For the checkout's main button and highlights, which carry white text. Empty: the default."
            : `Contrast with white text: ${ratio.toFixed(2)}:1 (${passes ? "meets" : "below"} the 4.5:1 WCAG AA minimum).`}
        </p>
        {passes ? (
          <span className="mt-2 inline-flex min-h-9 items-center rounded-lg px-3 text-sm font-semibold text-white" style={{ backgroundColor: accent }} data-testid="accent-sample">
            Open in wallet
          </span>
        ) : null}
        <FieldError id="accentColor-error" messages={err("accentColor")} />
      </div>
    </div>
  );
}
