import { statusLabel } from "./format";

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

/** A payment's status in words (colour only repeats it). */
export function StatusBadge({ status }: { status: string }) {
  return (
    <span data-status={status} className={`inline-flex whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-semibold ring-1 ${TONES[status] ?? TONES.AWAITING_PAYMENT}`}>
      {statusLabel(status)}
    </span>
  );
}
