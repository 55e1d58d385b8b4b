import { useTranslations } from "next-intl";

/** "N of M confirmations" with a progress bar. */
export function ConfirmationProgress({ confirmations, required }: { confirmations: number; required: number }) {
  const n = Math.min(confirmations, required);
  const pct = required > 0 ? Math.round((n / required) * 100) : 100;
  const t = useTranslations("checkout.confirmations");
  return (
    <div className="space-y-2">
      <div className="flex items-baseline justify-between text-sm">
        <span className="font-medium text-slate-800">{t("label")}</span>
        <span className="font-mono text-slate-700 tabular-nums" data-testid="confirmations">
          {t("count", { count: n, required })}
        </span>
      </div>
      <div
        role="progressbar"
        aria-label={t("label")}
        aria-valuemin={0}
        aria-valuemax={required}
        aria-valuenow={n}
        aria-valuetext={t("valueText", { count: n, required })}
        className="h-2 overflow-hidden rounded-full bg-slate-200"
      >
        <div className="h-full rounded-full bg-sky-500 transition-[width] duration-500" style={{ width: `${pct}%` }} />
      </div>
      <p className="text-xs text-slate-500">{t("canClose")}</p>
    </div>
  );
}
