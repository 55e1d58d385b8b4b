#!/usr/bin/env node
/**
 * Postinstall: one change to Next.js's compiled route-handler runtime, so that a finished request
 * can be freed by the young-generation collector (docs/performance.md, change 29).
 *
 * `createServerParamsForRoute` caches `Promise.resolve(params)` in a module-level WeakMap keyed by
 * the params object. For route handlers the key is a fresh object on every request (never a hit),
 * and the entry is a cycle (the value, a promise, holds its key). V8 11's scavenger (Node 20) does
 * not free such an entry, and the promise carries the request's AsyncLocalStorage stores, which
 * reach the whole request: every API request survived every young-generation collection until the
 * next full one. Dropping the cache changes nothing else (it never hit) and cut the collector's
 * pauses under load by about a third.
 *
 * Hand-written rather than a patch-package diff: the runtime is minified into a few very long
 * lines, so a diff of it is ~100 KB that nobody can review; this replaces one exact function and
 * says so when Next.js's code no longer matches (after an upgrade: check whether the cache is
 * still there, then update or delete this script).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";

export const ORIGINAL = "function rJ(e){let t=rV.get(e);if(t)return t;let r=Promise.resolve(e);return rV.set(e,r),r}";
export const PATCHED = "function rJ(e){/* scripts/patch-next.mjs: no WeakMap cache */return Promise.resolve(e)}";
export const FILES = ["app-route-turbo.runtime.prod.js", "app-route.runtime.prod.js"];

/** Where the installed Next.js keeps its compiled server runtimes (throws when next is not installed). */
export function installedRuntimeDir() {
  const require = createRequire(import.meta.url);
  return path.join(path.dirname(require.resolve("next/package.json")), "dist/compiled/next-server");
}

/** Patches `dir`'s runtimes; returns what happened to each. Throws when a file matches neither form. */
export function patchNextRuntimes(dir) {
  return FILES.map((name) => {
    const file = path.join(dir, name);
    const text = readFileSync(file, "utf8");
    if (text.includes(PATCHED)) return `${name}: already patched`;
    const at = text.indexOf(ORIGINAL);
    if (at < 0 || text.indexOf(ORIGINAL, at + 1) >= 0) {
      throw new Error(
        `scripts/patch-next.mjs: ${name} does not contain the expected createServerParamsForRoute cache exactly once ` +
          "(Next.js was upgraded?). The service still works without the patch, only with longer GC pauses under load; " +
          "update or remove the script.",
      );
    }
    writeFileSync(file, text.slice(0, at) + PATCHED + text.slice(at + ORIGINAL.length));
    return `${name}: patched`;
  });
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  let dir;
  try {
    dir = installedRuntimeDir();
  } catch {
    process.exit(0); // next not installed (e.g. a partial install): nothing to patch
  }
  for (const line of patchNextRuntimes(dir)) console.log(`patch-next: ${line}`);
}
