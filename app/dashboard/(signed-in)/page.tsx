import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { getDb } from "@/db/client";
import { businessesOfUser } from "@/db/queries/members";
import { ModeBadge } from "@/components/dashboard/mode-badge";
import { requireUser } from "@/lib/accounts/session";

export const metadata: Metadata = { title: "Businesses · Merchant dashboard" };

/** The user's businesses; with one, straight to it. */
export default async function DashboardHome() {
  const user = await requireUser();
  const list = await businessesOfUser(await getDb(), user.id);
  if (list.length === 1) redirect(`/dashboard/${list[0].id}`);
  return (
    <main>
      <h1 className="mb-4 text-xl font-semibold">Your businesses</h1>
      {list.length === 0 ? (
        <p className="text-slate-700">You do not belong to any business yet. Ask its owner for an invitation.</p>
      ) : (
        <ul className="divide-y divide-slate-200 rounded-xl bg-white ring-1 ring-slate-200">
          {list.map((b) => (
            <li key={b.id} className="flex items-center justify-between gap-3 px-4 py-3">
              <Link href={`/dashboard/${b.id}`} className="font-medium text-indigo-800 underline underline-offset-2">
                {b.name}
              </Link>
              <span className="flex items-center gap-2 text-sm text-slate-600">
                {b.role}
                <ModeBadge mode={b.mode} />
              </span>
            </li>
          ))}
        </ul>
      )}
    </main>
  );
}
