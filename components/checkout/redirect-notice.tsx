"use client";

import { useTranslations } from "next-intl";
import { useEffect } from "react";

const DELAY_MS = 3000;

/** Only web addresses are followed: never `javascript:` or other schemes. */
function safeUrl(url: string): string | null {
  try {
    const u = new URL(url);
    return u.protocol === "http:" || u.protocol === "https:" ? u.href : null;
  } catch {
    return null;
  }
}

/** After a completed payment: "Returning you to the merchant…", then the redirect after ~3 s. */
export function RedirectNotice({ redirectUrl }: { redirectUrl: string }) {
  const t = useTranslations("checkout.redirect");
  const target = safeUrl(redirectUrl);

  useEffect(() => {
    if (!target) return;
    const timer = setTimeout(() => window.location.assign(target), DELAY_MS);
    return () => clearTimeout(timer);
  }, [target]);

  if (!target) return null;
  return (
    <div className="mt-6 flex flex-col items-center gap-3" role="status">
      <p className="flex items-center gap-2 text-sm text-slate-600">
        <span aria-hidden="true" className="size-4 animate-spin rounded-full border-2 border-slate-300 border-t-slate-700" />
        {t("returning")}
      </p>
      <a
        href={target}
        className="text-sm font-semibold text-indigo-700 underline underline-offset-4 hover:text-indigo-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
      >
        {t("continue")}
      </a>
    </div>
  );
}
