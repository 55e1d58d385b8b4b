// Whether a production build is there and newer than every source it is made of: `npm start`
// (scripts/start.mjs) and the page fuzzer (scripts/fuzz.mjs) build when it is not. Plain Node.
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

/** What the build is made of: a change to any of these makes the build stale. */
const SOURCES = [
  "app", "lib", "log", "db", "domain", "components", "inngest", "i18n", "messages",
  "proxy.ts", "instrumentation.ts", "next.config.ts", "package-lock.json", "tsconfig.json", "postcss.config.mjs",
];
const SKIP_DIRS = new Set(["node_modules", ".next", ".git"]);
const isTestFile = (name) => /\.(test|spec)\.[cm]?[jt]sx?$/.test(name);

/** The first source file modified after `since` (ms), or undefined. */
function newerFile(entry, since) {
  let stat;
  try {
    stat = statSync(entry);
  } catch {
    return undefined; // listed but absent (e.g. no components/ yet)
  }
  if (!stat.isDirectory()) return stat.mtimeMs > since ? entry : undefined;
  for (const d of readdirSync(entry, { withFileTypes: true })) {
    if (d.isDirectory() && SKIP_DIRS.has(d.name)) continue;
    if (d.isFile() && isTestFile(d.name)) continue;
    const hit = newerFile(path.join(entry, d.name), since);
    if (hit) return hit;
  }
  return undefined;
}

/** Why the build in `distDir` (relative to `root`) must be made first, or undefined when it is fresh. */
export function buildReason(root, distDir = ".next") {
  const buildId = path.join(root, distDir, "BUILD_ID");
  if (!existsSync(buildId)) return `no build found in ${distDir}`;
  const since = statSync(buildId).mtimeMs;
  for (const source of SOURCES) {
    const hit = newerFile(path.join(root, source), since);
    if (hit) return `${path.relative(root, hit)} changed since the last build`;
  }
  return undefined;
}
