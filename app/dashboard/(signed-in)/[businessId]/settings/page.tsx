import type { Metadata } from "next";
import { ModeBadge } from "@/components/dashboard/mode-badge";
import { SettingsForm } from "@/components/dashboard/settings/settings-form";
import { getDb } from "@/db/client";
import { requireMember } from "@/lib/accounts/session";
import { ACCOUNT_PATHS } from "@/lib/chains/derive";
import { settingsOf } from "@/lib/dashboard/settings";
import { previewAddressesAction, saveSettingsAction } from "./actions";

export const metadata: Metadata = { title: "Settings · Merchant dashboard" };

/** The business's settings: owners only (anyone else gets the 404 page). */
export default async function SettingsPage({ params }: { params: Promise<{ businessId: string }> }) {
  const { user, business } = await requireMember((await params).businessId, "manage-settings");
  const view = await settingsOf(await getDb(), user.id, business.id);
  return (
    <main className="max-w-3xl space-y-4">
      <h2 className="flex flex-wrap items-center gap-2 text-lg font-semibold">
        Settings <ModeBadge mode={view.mode} />
      </h2>
      <p className="text-sm text-slate-700">
        {view.mode === "live"
          ? "This business is live: changes apply to real payments created from now on."
          : "This business is in test mode: payments are simulated and no real coins move. Switching to live is done by your operator."}
      </p>
      <div className="rounded-xl bg-white p-4 ring-1 ring-slate-200 sm:p-6">
        <SettingsForm view={view} paths={ACCOUNT_PATHS} actions={{ preview: previewAddressesAction, save: saveSettingsAction }} />
      </div>
    </main>
  );
}
