import type { PaymentStatus } from "@/domain/statuses";
import type { Tone } from "./status-message";

const CIRCLE: Record<Tone, string> = {
  neutral: "bg-slate-100 text-slate-600",
  info: "bg-sky-100 text-sky-700",
  warning: "bg-amber-100 text-amber-700",
  success: "bg-emerald-100 text-emerald-700",
  danger: "bg-red-100 text-red-700",
};

const PATHS: Partial<Record<PaymentStatus, string>> = {
  COMPLETED: "M5 12.5l4.5 4.5L19 7.5",
  CANCELLED: "M7 7l10 10M17 7L7 17",
  FAILED: "M12 7v6m0 4h.01",
  EXPIRED: "M12 7v5l3 3",
  UNDERPAID: "M12 7v6m0 4h.01",
};

/** A round status glyph; decorative (the text next to it says the same). */
export function StatusIcon({ tone, status, small }: { tone: Tone; status: PaymentStatus; small?: boolean }) {
  const size = small ? "size-7" : "size-16";
  const pending = status === "PENDING" || status === "PROCESSING" || (status === "AWAITING_PAYMENT" && tone === "info");
  return (
    <span aria-hidden="true" className={`inline-flex shrink-0 items-center justify-center rounded-full ${size} ${CIRCLE[tone]}`}>
      {pending ? (
        <span className={`${small ? "size-3.5" : "size-8"} animate-spin rounded-full border-2 border-current border-t-transparent`} />
      ) : (
        <svg viewBox="0 0 24 24" className={small ? "size-4" : "size-9"} fill="none" stroke="currentColor" strokeWidth={2.5} strokeLinecap="round" strokeLinejoin="round">
          {status === "EXPIRED" ? <circle cx="12" cy="12" r="8" /> : null}
          <path d={PATHS[status] ?? "M8 12h8"} />
        </svg>
      )}
    </span>
  );
}
