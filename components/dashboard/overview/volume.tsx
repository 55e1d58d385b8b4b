import Link from "next/link";
import type { Overview, Volume } from "@/lib/dashboard/overview";
import { formatCount, formatUsd } from "../format";

const MONTHS = new Intl.DateTimeFormat("en-US", { month: "long", year: "numeric", timeZone: "UTC" });

function Tile({ id, title, period, volume, href }: { id: string; title: string; period: string; volume: Volume; href: string }) {
  return (
    <div className="rounded-xl bg-white p-4 ring-1 ring-slate-200" data-testid={`volume-${id}`}>
      <h4 className="text-sm font-medium text-slate-700">
        {title} <span className="font-normal text-slate-600">({period})</span>
      </h4>
      <p className="mt-1 text-2xl font-semibold tabular-nums text-slate-900" data-testid={`volume-${id}-usd`}>{formatUsd(volume.completedNetUsd)}</p>
      <p className="mt-1 text-sm text-slate-700">
        {formatCount(volume.completed)} completed of {formatCount(volume.created)} created ·{" "}
        <Link href={href} className="font-medium text-indigo-800 underline underline-offset-2 focus-visible:outline-2 focus-visible:outline-indigo-700">
          See them
        </Link>
      </p>
    </div>
  );
}

/**
 * Completed volume today and this month, in USD after the fee (what the payments' `netAmountUsd`
 * adds up to), counted by the UTC day the payments were created, as the payments chart counts.
 * Each tile links to the payments list of its range.
 */
export function VolumeTiles({ overview: o, base }: { overview: Overview; base: string }) {
  const month = new Date(`${o.month}-01T00:00:00Z`);
  const list = (from: string) => `${base}/payments?${new URLSearchParams({ fromTime: `${from}T00:00:00Z`, toTime: `${o.today}T23:59:59.999Z` })}`;
  return (
    <section aria-labelledby="volume-heading" className="space-y-3">
      <h3 id="volume-heading" className="text-base font-semibold text-slate-900">Completed volume</h3>
      <div className="grid gap-4 sm:grid-cols-2">
        <Tile id="today" title="Today" period={`${o.today}, UTC`} volume={o.volume.today} href={list(o.today)} />
        <Tile id="month" title="This month" period={MONTHS.format(month)} volume={o.volume.month} href={list(`${o.month}-01`)} />
      </div>
      <p className="text-xs text-slate-600">Net of the platform fee, in USD at each payment&apos;s locked rate; payments count on the UTC day they were created.</p>
    </section>
  );
}
