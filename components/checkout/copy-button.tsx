"use client";

import { useEffect, useState } from "react";

async function copyText(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // fall through to the legacy path (permissions, older browsers)
  }
  const area = document.createElement("textarea");
  area.value = text;
  area.setAttribute("readonly", "");
  area.style.position = "fixed";
  area.style.opacity = "0";
  document.body.appendChild(area);
  area.select();
  try {
    return document.execCommand("copy");
  } catch {
    return false;
  } finally {
    area.remove();
  }
}

/** What a copy button says: its label, its two outcomes, and their announcements. */
export type CopyText = { copy: string; copied: string; failed: string; copiedNotice: string; failedNotice: string };

/** The dashboard's English, made from the name of the thing copied. */
function englishText(what: string): CopyText {
  return {
    copy: "Copy",
    copied: "Copied",
    failed: "Copy failed",
    copiedNotice: `The ${what} is copied to the clipboard.`,
    failedNotice: `Could not copy the ${what}.`,
  };
}

/**
 * Copies `value` to the clipboard and says so ("Copied") for a moment, visibly and to screen
 * readers. `what` names the thing copied ("address", "amount") for assistive technology; `text`
 * gives the words in another language (the checkout's), English by default.
 */
export function CopyButton({ value, what, text = englishText(what) }: { value: string; what: string; text?: CopyText }) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");

  useEffect(() => {
    if (state === "idle") return;
    const timer = setTimeout(() => setState("idle"), 2000);
    return () => clearTimeout(timer);
  }, [state]);

  return (
    <>
      <button
        type="button"
        onClick={async () => setState((await copyText(value)) ? "copied" : "failed")}
        className={`inline-flex min-h-9 shrink-0 items-center gap-1.5 rounded-lg px-3 text-sm font-medium ring-1 ring-inset transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 ${
          state === "copied"
            ? "bg-emerald-50 text-emerald-800 ring-emerald-300"
            : state === "failed"
              ? "bg-red-50 text-red-800 ring-red-300"
              : "bg-white text-slate-700 ring-slate-300 hover:bg-slate-50"
        }`}
      >
        <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4 fill-current">
          {state === "copied" ? (
            <path d="M16.7 5.3a1 1 0 0 1 0 1.4l-8 8a1 1 0 0 1-1.4 0l-4-4a1 1 0 1 1 1.4-1.4L8 12.58l7.3-7.3a1 1 0 0 1 1.4 0Z" />
          ) : (
            <path d="M7 3a2 2 0 0 0-2 2v1H4a2 2 0 0 0-2 2v8a2 2 0 0 0 2 2h8a2 2 0 0 0 2-2v-1h1a2 2 0 0 0 2-2V5a2 2 0 0 0-2-2H7Zm7 11v-6a2 2 0 0 0-2-2H7V5h8v9h-1ZM4 8h8v8H4V8Z" />
          )}
        </svg>
        {state === "copied" ? text.copied : state === "failed" ? text.failed : text.copy}
        <span className="sr-only"> {what}</span>
      </button>
      <span aria-live="polite" className="sr-only">
        {state === "copied" ? text.copiedNotice : state === "failed" ? text.failedNotice : ""}
      </span>
    </>
  );
}
