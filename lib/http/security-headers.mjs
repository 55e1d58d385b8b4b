// The security headers of every response, in one place for the three that send them: next.config.ts
// (the static ones, on every path), the proxy (each page's Content-Security-Policy with its nonce)
// and the production server (HSTS, which depends on the runtime PUBLIC_BASE_URL). Plain
// JavaScript: the server runs unbundled, outside Next.js's build.

/**
 * Sent on every response. `Referrer-Policy: same-origin` keeps the checkout's address (which holds
 * the payment id) from the explorers and merchant sites it links to, while same-origin POSTs keep
 * the `Origin` server actions and sign-in are checked by. The Permissions-Policy turns off the
 * powerful features no page uses; clipboard stays (the checkout copies addresses).
 */
export const STATIC_SECURITY_HEADERS = Object.freeze([
  ["X-Content-Type-Options", "nosniff"],
  ["Referrer-Policy", "same-origin"],
  [
    "Permissions-Policy",
    "camera=(), microphone=(), geolocation=(), payment=(), usb=(), serial=(), hid=(), midi=(), display-capture=(), browsing-topics=()",
  ],
]);

/** The policy of responses that are not pages (the API's JSON): nothing may load, nothing may frame them. */
export const NON_PAGE_CSP = "default-src 'none'; frame-ancestors 'none'";

/**
 * Path patterns (next.config.ts `headers()` syntax) of the responses that are not pages, which the
 * proxy does not see (NOT_PAGES in lib/http/page-guard.ts): they get NON_PAGE_CSP from
 * next.config.ts. Under /_next that is Next.js's scripts and styles, where a policy means nothing,
 * and the not-found page for any other path there.
 */
export const NON_PAGE_SOURCES = Object.freeze(["/v1/:path*", "/admin/v1/:path*", "/api/:path*", "/pay/:paymentId/state", "/logos/:path*", "/bench/:path*", "/_next/:path*", "/metrics", "/healthz", "/readyz"]);

/**
 * A page's Content-Security-Policy. Scripts run only with this response's nonce (Next.js puts it
 * on its own scripts) or when loaded by one of them ('strict-dynamic'); `<style>` elements need
 * the nonce too. Style attributes are allowed: React writes them into server-rendered HTML and a
 * nonce cannot be put on an attribute, and they can neither run script nor load anything that
 * img-src and font-src do not allow. `next dev` needs eval and its injected styles.
 *
 * @param {{ nonce: string, dev?: boolean, https?: boolean, frameAncestors?: readonly string[] }} o
 */
export function pageCsp({ nonce, dev = false, https = false, frameAncestors = [] }) {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ""}`,
    `style-src 'self' ${dev ? "'unsafe-inline'" : `'nonce-${nonce}'`}`,
    "style-src-attr 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    `frame-ancestors ${frameAncestors.length ? frameAncestors.join(" ") : "'none'"}`,
    ...(https ? ["upgrade-insecure-requests"] : []),
  ].join("; ");
}

/**
 * Strict-Transport-Security for a service reached over https (a year; subdomains are left to the
 * operator, who may serve others over http), else nothing: over http a browser ignores it.
 *
 * @param {string | undefined} publicBaseUrl
 * @returns {string | undefined}
 */
export function hstsHeader(publicBaseUrl) {
  return /^https:/i.test(publicBaseUrl ?? "") ? "max-age=31536000" : undefined;
}
