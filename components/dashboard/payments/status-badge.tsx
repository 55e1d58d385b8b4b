import { statusName } from "../names";

const TONES: Record<string, string> = {
  COMPLETED: "bg-emerald-100 text-emerald-900 ring-emerald-300",
  PENDING: "bg-sky-100 text-sky-900 ring-sky-300",
  PROCESSING: "bg-sky-100 text-sky-900 ring-sky-300",
  AWAITING_PAYMENT: "bg-slate-100 text-slate-800 ring-slate-300",
  UNDERPAID: "bg-amber-100 text-amber-900 ring-amber-300",
  FAILED: "bg-red-100 text-red-900 ring-red-300",
  CANCELLED: "bg-slate-200 text-slate-800 ring-slate-400",
  EXPIRED: "bg-slate-200 text-slate-800 ring-slate-400",
};

/**
 * A payment's status in words (colour only repeats it); the API's value and what the status
 * means are the tooltip, and `data-status` carries the value for scripts and tests.
 */
export function StatusBadge({ status }: { status: string }) {
  const named = statusName(status);
  return (
    <span
      data-status={status}
      title={`${named.api}${named.hint ? `: ${named.hint}` : ""}`}
      className={`inline-flex whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-semibold ring-1 ${TONES[status] ?? TONES.AWAITING_PAYMENT}`}
    >
      {named.label}
    </span>
  );
}
