/** Test or live, in words and colour, wherever a business is named. */
export function ModeBadge({ mode }: { mode: "test" | "live" }) {
  return mode === "live" ? (
    <span className="inline-flex items-center rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-semibold text-emerald-900 ring-1 ring-emerald-300">Live</span>
  ) : (
    <span className="inline-flex items-center rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900 ring-1 ring-amber-300">Test mode</span>
  );
}

/** The panel a business section's blocks sit in. */
export const sectionCard = "rounded-xl bg-white p-4 ring-1 ring-slate-200 sm:p-6";

/** A business section's heading (Developers, Settings, Members), its mode beside it. */
export function SectionTitle({ title, mode }: { title: string; mode: "test" | "live" }) {
  return (
    <h2 className="flex flex-wrap items-center gap-2 text-lg font-semibold">
      {title} <ModeBadge mode={mode} />
    </h2>
  );
}
