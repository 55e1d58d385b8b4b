import type { Metadata } from "next";
import "./globals.css";

export const metadata: Metadata = {
  title: "Crypto payments",
  description: "Self-hosted cryptocurrency checkout",
};

// Every page is rendered per request: the proxy gives each response its own script nonce
// (lib/http/page-guard.ts), which a page prerendered at build time could not carry.
export const dynamic = "force-dynamic";

export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-screen bg-slate-50 text-slate-900 antialiased">{children}</body>
    </html>
  );
}
