import type { ReactNode } from "react";

/** The focus ring of a container that scrolls sideways: visible, and clear of its content. */
export const scrollFocus = "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700";

/**
 * A container that scrolls sideways (a wide table), reachable by keyboard: a named region in the
 * tab order, so Tab stops on it and the arrow keys scroll it, with a visible focus ring.
 */
export function ScrollRegion({ label, className = "", children }: { label: string; className?: string; children: ReactNode }) {
  return (
    <div role="region" aria-label={label} tabIndex={0} className={`overflow-x-auto rounded ${scrollFocus} ${className}`}>
      {children}
    </div>
  );
}
