import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  poweredByHeader: false,
  // `npm run bench` builds into its own folder (NEXT_DIST_DIR=node_modules/.cache/next-bench) so it never replaces
  // the build another `next start` is serving from.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  // NEXT_SERVER_MINIFY=0 keeps function names in the server bundle, for readable CPU profiles.
  experimental: { serverMinification: process.env.NEXT_SERVER_MINIFY !== "0" },
};

export default nextConfig;
