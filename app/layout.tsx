import type { Metadata } from "next";
import { getLocale } from "next-intl/server";
import { directionOf } from "@/domain/locales";
import "./globals.css";

export const metadata: Metadata = {
  title: "Crypto payments",
  description: "Self-hosted cryptocurrency checkout",
};

// Every page is rendered per request: the proxy gives each response its own script nonce
// (lib/http/page-guard.ts), which a page prerendered at build time could not carry.
export const dynamic = "force-dynamic";

/** The page's language and direction: the checkout's chosen locale (i18n/request.ts), English elsewhere. */
export default async function RootLayout({ children }: { children: React.ReactNode }) {
  const locale = await getLocale();
  return (
    <html lang={locale} dir={directionOf(locale)}>
      <body className="min-h-screen bg-slate-50 text-slate-900 antialiased">{children}</body>
    </html>
  );
}
