import Link from "next/link";

const link = "rounded-lg px-3 py-1.5 font-medium text-indigo-800 underline underline-offset-2 ring-1 ring-slate-300 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-700";

/**
 * Previous and next page, as links to the same filters with another `PageNumber`: every page
 * is a URL of its own.
 */
export function Pagination({ basePath, search, pageNumber, totalPages }: { basePath: string; search: URLSearchParams; pageNumber: number; totalPages: number }) {
  const hrefOf = (n: number) => {
    // The API reads names case-insensitively: drop the page number however it was spelled.
    const q = new URLSearchParams([...search].filter(([name]) => name.toLowerCase() !== "pagenumber"));
    if (n > 1) q.set("PageNumber", String(n));
    return q.size ? `${basePath}?${q}` : basePath;
  };
  if (totalPages <= 1 && pageNumber <= 1) return null;
  return (
    <nav aria-label="Pages" className="flex flex-wrap items-center gap-3 text-sm">
      {pageNumber > 1 ? (
        <Link href={hrefOf(Math.min(pageNumber - 1, Math.max(totalPages, 1)))} rel="prev" className={link}>
          ← Previous page
        </Link>
      ) : null}
      <span className="text-slate-700">
        Page {pageNumber} of {Math.max(totalPages, 1)}
      </span>
      {pageNumber < totalPages ? (
        <Link href={hrefOf(pageNumber + 1)} rel="next" className={link}>
          Next page →
        </Link>
      ) : null}
    </nav>
  );
}
