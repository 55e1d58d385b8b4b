import type { Metadata } from "next";
import { sectionCard, SectionTitle } from "@/components/dashboard/mode-badge";
import { LogoForm } from "@/components/dashboard/settings/logo-form";
import { MoneroWalletForm } from "@/components/dashboard/settings/monero-wallet-form";
import { SolanaWalletForm } from "@/components/dashboard/settings/solana-wallet-form";
import { TonWalletForm } from "@/components/dashboard/settings/ton-wallet-form";
import { SettingsForm } from "@/components/dashboard/settings/settings-form";
import { getDb } from "@/db/client";
import { requireMember } from "@/lib/accounts/session";
import { ACCOUNT_PATHS } from "@/lib/wallets/derive";
import { settingsOf } from "@/lib/dashboard/settings";
import { moneroSettingsOf } from "@/lib/dashboard/monero-settings";
import { solanaSettingsOf } from "@/lib/dashboard/solana-settings";
import { tonSettingsOf } from "@/lib/dashboard/ton-settings";
import { previewAddressesAction, saveLogoAction, saveMoneroWalletAction, saveSettingsAction, saveSolanaWalletAction, saveTonWalletAction, resolveTonReviewAction } from "./actions";

export const metadata: Metadata = { title: "Settings · Merchant dashboard" };

/** The business's settings: owners only (anyone else gets the 404 page). */
export default async function SettingsPage({ params }: { params: Promise<{ businessId: string }> }) {
  const { user, business } = await requireMember((await params).businessId, "manage-settings");
  const view = await settingsOf(await getDb(), user.id, business.id);
  const monero = await moneroSettingsOf(await getDb(), user.id, business.id);
  const solana = await solanaSettingsOf(await getDb(), user.id, business.id);
  const ton = await tonSettingsOf(await getDb(), user.id, business.id);
  return (
    <main className="max-w-3xl space-y-4">
      <SectionTitle title="Settings" mode={view.mode} />
      <p className="text-sm text-slate-700">
        {view.mode === "live"
          ? "This business is live: changes apply to real payments created from now on."
          : "This business is in test mode: payments are simulated and no real coins move. Switching to live is done by your operator."}
      </p>
      <div className={sectionCard}>
        <SettingsForm view={view} paths={ACCOUNT_PATHS} actions={{ preview: previewAddressesAction, save: saveSettingsAction }} />
      </div>
      <section className={sectionCard} aria-labelledby="logo-heading">
        <h3 id="logo-heading" className="mb-3 text-base font-semibold">Checkout logo</h3>
        <LogoForm businessId={view.businessId} logoUrl={view.logoUrl} save={saveLogoAction} />
      </section>
      <section className={sectionCard} aria-labelledby="monero-heading">
        <h3 id="monero-heading" className="mb-3 text-base font-semibold">Monero wallet</h3>
        <MoneroWalletForm businessId={view.businessId} view={monero} save={saveMoneroWalletAction} />
      </section>
      <section className={sectionCard} aria-labelledby="solana-heading">
        <h3 id="solana-heading" className="mb-3 text-base font-semibold">Solana wallet</h3>
        <SolanaWalletForm businessId={view.businessId} view={solana} save={saveSolanaWalletAction} />
      </section>
      <section className={sectionCard} aria-labelledby="ton-heading">
        <h3 id="ton-heading" className="mb-3 text-base font-semibold">TON wallet</h3>
        <TonWalletForm businessId={view.businessId} view={ton} save={saveTonWalletAction} resolve={resolveTonReviewAction} />
      </section>
    </main>
  );
}
