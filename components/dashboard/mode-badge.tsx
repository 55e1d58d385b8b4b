/** Test or live, in words and colour, wherever a business is named. */
export function ModeBadge({ mode }: { mode: "test" | "live" }) {
  return mode === "live" ? (
    <span className="inline-flex items-center rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-semibold text-emerald-900 ring-1 ring-emerald-300">Live</span>
  ) : (
    <span className="inline-flex items-center rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900 ring-1 ring-amber-300">Test mode</span>
  );
}
