import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { getDb, getListDb } from "@/db/client";
import { AutoRefresh } from "@/components/dashboard/auto-refresh";
import { FiltersForm, type FilterValues } from "@/components/dashboard/payments/filters-form";
import { Pagination } from "@/components/dashboard/payments/pagination";
import { PaymentsTable } from "@/components/dashboard/payments/payments-table";
import { coinName, statusName } from "@/components/dashboard/names";
import { VolumeChart } from "@/components/dashboard/payments/volume-chart";
import { requireUser } from "@/lib/accounts/session";
import { COIN_NAMES } from "@/domain/coins";
import { changeMark } from "@/lib/dashboard/changes";
import { searchParamsOf } from "@/lib/dashboard/list-filter";
import { listDashboardPayments, type PaymentsPage } from "@/lib/dashboard/payments";
import { paymentVolume, type PaymentVolume } from "@/lib/dashboard/payments-chart";
import { ApiError } from "@/lib/http/errors";
import { PAYMENT_STATUSES } from "@/domain/statuses";

export const metadata: Metadata = { title: "Payments · Merchant dashboard" };

const PAGE_SIZES = [20, 50, 100];
const STATUS_OPTIONS = PAYMENT_STATUSES.map((s) => ({ value: s, label: statusName(s).label }));
const COIN_OPTIONS = COIN_NAMES.map((c) => ({ value: c, label: coinName(c).label }));

/** The raw values of the URL, as the form shows them back (an invalid one too, beside its error). */
function filterValues(search: URLSearchParams): FilterValues {
  // Names as the API reads them: case-insensitive, lists also as `name[]` or comma-separated.
  const raw = (name: string) => [...search].filter(([n]) => n.toLowerCase().replace(/\[\]$/, "") === name.toLowerCase()).map(([, v]) => v);
  const all = (name: string) => raw(name).flatMap((v) => v.split(",").filter(Boolean));
  const one = (name: string) => raw(name)[0];
  return {
    statuses: all("statuses"),
    cryptoCoins: all("cryptoCoins"),
    fromTime: one("fromTime"),
    toTime: one("toTime"),
    fromAmount: one("fromAmount"),
    toAmount: one("toAmount"),
    searchString: one("searchString"),
    PageSize: one("PageSize"),
  };
}

/**
 * The business's payments: the list API's filters and pages as URL parameters (read with the
 * API's own schema, so a view is a shareable link and a wrong parameter shows the API's field
 * error), the payments chart of the same filters, and the CSV export of every match. It
 * refreshes itself when one of the business's payments is created or changes status.
 */
export default async function PaymentsPage({
  params,
  searchParams,
}: {
  params: Promise<{ businessId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const [{ businessId }, raw, user] = await Promise.all([params, searchParams, requireUser()]);
  const search = searchParamsOf(raw);
  const db = await getListDb();
  let list: PaymentsPage | null = null;
  let volume: PaymentVolume | null = null;
  let errors: Record<string, string[]> | null = null;
  let missing = false;
  let mark = "";
  try {
    // The mark first: a change while the list is read shows at the next poll, never goes unseen.
    mark = await changeMark(await getDb(), user.id, businessId);
    [list, volume] = await Promise.all([listDashboardPayments(db, user.id, businessId, search), paymentVolume(db, user.id, businessId, search)]);
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    // A plain object: the field errors map has no prototype, which React cannot hand to a client component.
    if (e.status === 400) errors = Object.fromEntries(Object.entries(e.fieldErrors ?? { query: [e.detail] }));
    else missing = true;
  }
  if (missing) notFound();

  const basePath = `/dashboard/${businessId}/payments`;
  // The export takes the same filters; page number and size mean nothing to it.
  const exportQuery = new URLSearchParams([...search].filter(([n]) => !["pagenumber", "pagesize"].includes(n.toLowerCase())));
  return (
    <main className="space-y-5">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex flex-wrap items-center gap-3">
          <h2 className="text-lg font-semibold">Payments</h2>
          {mark ? <AutoRefresh url={`/dashboard/${businessId}/changes`} mark={mark} /> : null}
        </div>
        {list ? (
          <a href={`${basePath}/export${exportQuery.size ? `?${exportQuery}` : ""}`} download className="rounded-lg bg-white px-3 py-1.5 text-sm font-semibold text-indigo-800 ring-1 ring-slate-300 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-700">
            Export CSV
          </a>
        ) : null}
      </div>
      <FiltersForm key={search.toString()} basePath={basePath} values={filterValues(search)} errors={errors} statusOptions={STATUS_OPTIONS} coinOptions={COIN_OPTIONS} pageSizes={PAGE_SIZES} />
      {volume ? <VolumeChart volume={volume} /> : null}
      {list ? (
        <section aria-labelledby="results" className="space-y-3">
          <h3 id="results" className="text-base font-semibold" data-testid="results-count">
            {list.totalIsEstimate ? "About " : ""}
            {list.totalCount} payment{list.totalCount === 1 ? "" : "s"}
            {list.totalCount > 0 ? ` · page ${list.pageNumber} of ${Math.max(list.totalPages, 1)}` : ""}
          </h3>
          {list.items.length ? (
            <PaymentsTable items={list.items} basePath={basePath} />
          ) : (
            <p className="rounded-xl bg-white px-4 py-6 text-slate-700 ring-1 ring-slate-200">
              {list.totalCount > 0 ? "This page is past the last payment." : "No payments match these filters."}
            </p>
          )}
          <Pagination basePath={basePath} search={search} pageNumber={list.pageNumber} totalPages={list.totalPages} />
        </section>
      ) : null}
    </main>
  );
}
