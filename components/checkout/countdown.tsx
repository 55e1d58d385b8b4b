"use client";

import { useLocale, useTranslations } from "next-intl";
import { useEffect, useState } from "react";
import { formatRemaining } from "./format";

/**
 * Time left to pay, ticking every second. Measured against the server's clock (`serverNow`,
 * taken when the page rendered) so a wrong clock on the customer's device does not mislead.
 */
export function Countdown({ expiresAt, serverNow }: { expiresAt: string; serverNow: number }) {
  const t = useTranslations("checkout.countdown");
  const locale = useLocale();
  const deadline = Date.parse(expiresAt);
  const [now, setNow] = useState(serverNow);

  useEffect(() => {
    const offset = serverNow - Date.now();
    const timer = setInterval(() => setNow(Date.now() + offset), 1000);
    return () => clearInterval(timer);
  }, [serverNow]);

  const left = deadline - now;
  const over = left <= 0;
  const urgent = left < 2 * 60_000;
  const tone = over
    ? "bg-slate-100 text-slate-700"
    : urgent
      ? "bg-red-50 text-red-800 ring-red-200"
      : "bg-slate-100 text-slate-700 ring-slate-200";

  return (
    <p className={`inline-flex items-center gap-2 rounded-full px-3 py-1 text-sm ring-1 ring-inset ${tone}`} data-testid="countdown">
      <svg aria-hidden="true" viewBox="0 0 24 24" className="size-4" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round">
        <circle cx="12" cy="12" r="9" />
        <path d="M12 7v5l3 2" />
      </svg>
      {over ? (
        <span>{t("timeUp")}</span>
      ) : (
        <span>
          {t.rich("expiresIn", {
            remaining: formatRemaining(left, locale),
            time: (chunks) => (
              <time role="timer" dateTime={expiresAt} className="font-mono font-semibold tabular-nums">
                {chunks}
              </time>
            ),
          })}
        </span>
      )}
    </p>
  );
}
