import type { Metadata } from "next";
import Link from "next/link";
import { AutoRefresh } from "@/components/dashboard/auto-refresh";
import { Attention } from "@/components/dashboard/overview/attention";
import { Health } from "@/components/dashboard/overview/health";
import { VolumeTiles } from "@/components/dashboard/overview/volume";
import { PaymentsTable } from "@/components/dashboard/payments/payments-table";
import { getDb } from "@/db/client";
import { requireMember } from "@/lib/accounts/session";
import { changeMark } from "@/lib/dashboard/changes";
import { businessOverview } from "@/lib/dashboard/overview";

export const metadata: Metadata = { title: "Overview · Merchant dashboard" };

/**
 * A business's home: completed volume today and this month, what needs attention, the newest
 * payments, and the health of the chains and rates its coins depend on. It refreshes itself when
 * a payment is created or changes status.
 */
export default async function BusinessOverview({ params }: { params: Promise<{ businessId: string }> }) {
  const { user, business } = await requireMember((await params).businessId);
  const db = await getDb();
  const mark = await changeMark(db, user.id, business.id);
  const overview = await businessOverview(db, user.id, business.id);
  const base = `/dashboard/${business.id}`;
  return (
    <main className="space-y-8">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 className="text-lg font-semibold">Overview</h2>
        <AutoRefresh url={`${base}/changes`} mark={mark} />
      </div>
      <VolumeTiles overview={overview} base={base} />
      <Attention overview={overview} base={base} />
      <section aria-labelledby="recent-heading" className="space-y-3">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h3 id="recent-heading" className="text-base font-semibold text-slate-900">Recent payments</h3>
          <Link href={`${base}/payments`} className="text-sm font-medium text-indigo-800 underline underline-offset-2 focus-visible:outline-2 focus-visible:outline-indigo-700">
            All payments
          </Link>
        </div>
        {overview.recent.length ? (
          <PaymentsTable items={overview.recent} basePath={`${base}/payments`} label="Recent payments" />
        ) : (
          <p className="rounded-xl bg-white px-4 py-6 text-slate-700 ring-1 ring-slate-200">No payments yet. Create one with the API: see Developers for your keys.</p>
        )}
      </section>
      <Health overview={overview} />
    </main>
  );
}
