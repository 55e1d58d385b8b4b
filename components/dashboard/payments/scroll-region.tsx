import type { ReactNode } from "react";

/**
 * A wide table on a narrow screen: it scrolls sideways inside a named region that is in the tab
 * order, so a keyboard user can reach it and scroll it with the arrow keys (focus ring visible).
 */
export function ScrollRegion({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div role="region" aria-label={label} tabIndex={0} className="overflow-x-auto rounded-xl bg-white ring-1 ring-slate-200 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-700">
      {children}
    </div>
  );
}
