/** "N of M confirmations" with a progress bar. */
export function ConfirmationProgress({ confirmations, required }: { confirmations: number; required: number }) {
  const n = Math.min(confirmations, required);
  const pct = required > 0 ? Math.round((n / required) * 100) : 100;
  return (
    <div className="space-y-2">
      <div className="flex items-baseline justify-between text-sm">
        <span className="font-medium text-slate-800">Network confirmations</span>
        <span className="font-mono text-slate-700 tabular-nums" data-testid="confirmations">
          {n} of {required}
        </span>
      </div>
      <div
        role="progressbar"
        aria-label="Network confirmations"
        aria-valuemin={0}
        aria-valuemax={required}
        aria-valuenow={n}
        aria-valuetext={`${n} of ${required} confirmations`}
        className="h-2 overflow-hidden rounded-full bg-slate-200"
      >
        <div className="h-full rounded-full bg-sky-500 transition-[width] duration-500" style={{ width: `${pct}%` }} />
      </div>
      <p className="text-xs text-slate-500">You can close this page; the merchant is notified when the payment completes.</p>
    </div>
  );
}
