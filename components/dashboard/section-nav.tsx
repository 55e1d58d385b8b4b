"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

export type Section = { href: string; label: string };

/**
 * A business's sections, the one being looked at marked: `aria-current="page"` for assistive
 * technology, and for the eye a filled tab with a bar under it (not colour alone). A section is
 * current on its own pages too (a payment's page is under Payments); the overview, whose path is
 * every section's prefix, only on itself.
 */
export function SectionNav({ sections, home }: { sections: Section[]; home: string }) {
  const pathname = usePathname();
  const isCurrent = (href: string) => (href === home ? pathname === home : pathname === href || pathname.startsWith(`${href}/`));
  return (
    <nav aria-label="Business sections" className="mb-6 flex flex-wrap gap-1 border-b border-slate-200">
      {sections.map((s) => {
        const current = isCurrent(s.href);
        return (
          <Link
            key={s.href}
            href={s.href}
            aria-current={current ? "page" : undefined}
            className={`-mb-px rounded-t-md border-b-2 px-3 py-2 text-sm font-medium underline-offset-2 hover:bg-slate-100 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-700 ${
              current ? "border-indigo-700 bg-indigo-50 font-semibold text-indigo-900" : "border-transparent text-slate-800"
            }`}
          >
            {s.label}
          </Link>
        );
      })}
    </nav>
  );
}

/** A link of the account's navigation (Security), marked as the current page when it is. */
export function AccountLink({ href, children }: { href: string; children: React.ReactNode }) {
  const current = usePathname() === href;
  return (
    <Link
      href={href}
      aria-current={current ? "page" : undefined}
      className={`font-medium underline underline-offset-2 ${current ? "text-indigo-900 decoration-2" : "text-slate-700"}`}
    >
      {children}
    </Link>
  );
}
