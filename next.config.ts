import type { NextConfig } from "next";
import createNextIntlPlugin from "next-intl/plugin";
import { NON_PAGE_CSP, NON_PAGE_SOURCES, STATIC_SECURITY_HEADERS } from "./lib/http/security-headers.mjs";

const nextConfig: NextConfig = {
  poweredByHeader: false,
  // `npm run bench` builds into its own folder (NEXT_DIST_DIR=node_modules/.cache/next-bench) so it never replaces
  // the build another `next start` is serving from.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  // NEXT_SERVER_MINIFY=0 keeps function names in the server bundle, for readable CPU profiles.
  experimental: { serverMinification: process.env.NEXT_SERVER_MINIFY !== "0" },
  // Every response's static security headers; pages get their Content-Security-Policy (with a
  // nonce) from the proxy, the paths it leaves out get one that allows nothing. HSTS depends on
  // the runtime PUBLIC_BASE_URL, so the production server adds it (scripts/server.mjs).
  async headers() {
    return [
      { source: "/:path*", headers: STATIC_SECURITY_HEADERS.map(([key, value]) => ({ key, value })) },
      ...NON_PAGE_SOURCES.map((source) => ({ source, headers: [{ key: "Content-Security-Policy", value: NON_PAGE_CSP }] })),
    ];
  },
};

// next-intl finds the checkout's request configuration (locale and messages) in i18n/request.ts.
export default createNextIntlPlugin("./i18n/request.ts")(nextConfig);
