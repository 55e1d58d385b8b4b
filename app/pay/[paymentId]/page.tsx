import type { CSSProperties } from "react";
import type { Metadata } from "next";
import { headers } from "next/headers";
import { notFound } from "next/navigation";
import { NextIntlClientProvider } from "next-intl";
import { getLocale, getMessages, getTranslations } from "next-intl/server";
import { CancelPayment } from "@/components/checkout/cancel-payment";
import { CheckoutBody } from "@/components/checkout/checkout-body";
import { CheckoutHeader } from "@/components/checkout/checkout-header";
import { EmailForm } from "@/components/checkout/email-form";
import { LanguageSwitcher } from "@/components/checkout/language-switcher";
import { viewFingerprint } from "@/components/checkout/fingerprint";
import { formatFiat } from "@/components/checkout/format";
import { LiveUpdates } from "@/components/checkout/live-updates";
import { StatusBanner } from "@/components/checkout/status-banner";
import { TestModePanel } from "@/components/checkout/test-mode-panel";
import { getDb } from "@/db/client";
import { recordVisit } from "@/lib/checkout/customer";
import { clientAddress } from "@/lib/http/client-address";
import { isTerminal } from "@/domain/transitions";
import { loadCheckoutView } from "./load";
import { log } from "@/log/logger.mjs";

type Props = { params: Promise<{ paymentId: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const view = await loadCheckoutView((await params).paymentId);
  const t = await getTranslations("checkout.meta");
  // Who is paid comes first: it is what a narrow tab still shows.
  const title = view ? t("title", { merchant: view.merchant.displayName, amount: formatFiat(view.amount, view.currency, await getLocale()) }) : t("notFoundTitle");
  return { title, robots: { index: false, follow: false } };
}

/** D9: the first checkout visit records the customer's IP and user agent. Never breaks the page. */
async function recordFirstVisit(paymentId: string) {
  try {
    const h = await headers();
    const userAgent = h.get("user-agent")?.slice(0, 512) ?? null;
    // The connection's address, or the one a trusted proxy forwards for (TRUSTED_PROXIES); never a header alone.
    await recordVisit(await getDb(), paymentId, clientAddress(h), userAgent);
  } catch (e) {
    log.error({ component: "checkout", paymentId, err: e }, "recording the visit failed");
  }
}

/** The merchant's accent colour for the page's `brand` colour (app/globals.css); a stored colour is always `#rrggbb`. */
function accentStyle(accent: string | null): CSSProperties | undefined {
  return accent ? ({ "--checkout-accent": accent } as CSSProperties) : undefined;
}

/**
 * The hosted checkout page (D8). Renders only the CheckoutView — never description, note,
 * metadata or keys — and hands client components nothing beyond its fields.
 */
export default async function CheckoutPage({ params }: Props) {
  const view = await loadCheckoutView((await params).paymentId);
  if (!view) notFound();
  await recordFirstVisit(view.id);

  const final = isTerminal(view.status);
  const open = view.status === "AWAITING_PAYMENT" || view.status === "UNDERPAID";
  const serverNow = new Date().getTime();
  const c = view.charge;
  const t = await getTranslations("checkout.page");
  // The browser gets the checkout's messages only (not the e-mails').
  const { checkout } = await getMessages();

  return (
    // The client components (countdown, copy buttons, forms) get the locale and the checkout's messages.
    <NextIntlClientProvider messages={{ checkout }}>
    <main className="px-4 py-6 sm:py-12" style={accentStyle(view.merchant.accentColor)}>
      <div className="mx-auto w-full max-w-md space-y-5">
        <article className="overflow-hidden rounded-2xl border-t-4 border-brand bg-white shadow-sm ring-1 ring-slate-200" aria-label={t("label")}>
          <CheckoutHeader view={view} showCountdown={open} serverNow={serverNow} />
          <StatusBanner view={view} />
          <div className="px-6 py-6">
            <CheckoutBody view={view} />
          </div>
          {view.needsEmail || view.canCancel ? (
            <footer className="space-y-5 border-t border-slate-100 bg-slate-50/60 px-6 py-5">
              {view.needsEmail ? <EmailForm paymentId={view.id} sendsReceipt={view.sendsReceipt} /> : null}
              {view.canCancel ? (
                <div className="flex justify-center">
                  <CancelPayment paymentId={view.id} />
                </div>
              ) : null}
            </footer>
          ) : null}
        </article>

        <LiveUpdates paymentId={view.id} fingerprint={viewFingerprint(view)} final={final} />

        {view.testMode ? (
          <TestModePanel
            paymentId={view.id}
            charge={c ? { symbol: c.symbol, due: c.due, requiredConfirmations: c.requiredConfirmations } : null}
            final={final}
          />
        ) : null}

        <p className="text-center text-xs text-slate-500">
          {t("reference")}{" "}
          <span dir="ltr" className="font-mono break-all">
            {view.id}
          </span>
        </p>
        <LanguageSwitcher />
      </div>
    </main>
    </NextIntlClientProvider>
  );
}
