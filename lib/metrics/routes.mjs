// The route label of the request metrics (scripts/server.mjs). The server sees paths, not the
// route Next.js will match, and a label value per path would grow without bound (every payment id
// a new series). So ids become `:id` and the result must be one of the app's route patterns;
// anything else is named by its area ("/dashboard", "/v1/*", "other"). test/metrics.test.ts
// keeps ROUTE_PATTERNS equal to the app's API route modules.

/** A path segment that is an id: a number (businesses, keys, endpoints, deliveries) or a UUID (payments). */
const ID = /^(?:\d{1,19}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

/** The API's routes and the service's own endpoints, with `:id` for each dynamic segment. */
export const ROUTE_PATTERNS = Object.freeze([
  "/v1/businesses/:id/payments",
  "/v1/businesses/:id/payments/:id",
  "/v1/businesses/:id/payments/:id/note",
  "/v1/businesses/:id/payments/:id/simulate",
  "/v1/openapi.json",
  "/admin/v1/businesses",
  "/admin/v1/businesses/:id",
  "/admin/v1/businesses/:id/api-keys",
  "/admin/v1/businesses/:id/api-keys/:id",
  "/admin/v1/businesses/:id/webhook-secret/rotate",
  "/admin/v1/businesses/:id/webhook-deliveries",
  "/admin/v1/businesses/:id/webhook-deliveries/:id/redeliver",
  "/admin/v1/businesses/:id/monero-wallet",
  "/admin/v1/businesses/:id/webhook-endpoints",
  "/admin/v1/businesses/:id/webhook-endpoints/:id",
  "/admin/v1/businesses/:id/webhook-endpoints/:id/secret",
  "/admin/v1/businesses/:id/webhook-endpoints/:id/secret/rotate",
  "/admin/v1/businesses/:id/webhook-endpoints/:id/recover",
  "/admin/v1/chains",
  "/admin/v1/rates",
  "/admin/v1/users",
  "/admin/v1/users/password",
  "/admin/v1/users/unlock",
  "/pay/:id",
  "/pay/:id/state",
  "/metrics",
  "/healthz",
  "/readyz",
  "/docs",
  "/",
]);

const PATTERNS = new Set(ROUTE_PATTERNS);

/** Areas, first match wins, for paths that are no pattern above. */
const AREAS = [
  ["/admin/v1/", "/admin/v1/*"],
  ["/v1/", "/v1/*"],
  ["/api/auth/", "/api/auth"],
  ["/api/inngest", "/api/inngest"],
  ["/dashboard", "/dashboard"],
  ["/_next/", "/_next"],
  ["/logos/", "/logos"],
  ["/docs/", "/docs"],
];

/** The route label of a request path (without its query): a pattern, an area, or "other". */
export function routeOf(pathname) {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
  const shaped = path
    .split("/")
    .map((s) => (ID.test(s) ? ":id" : s))
    .join("/");
  if (PATTERNS.has(shaped)) return shaped;
  for (const [prefix, label] of AREAS) if (path.startsWith(prefix) || path === prefix.replace(/\/$/, "")) return label;
  return "other";
}

/** The method label: one of the methods the app dispatches, else OTHER (a relayed TRACE, PROPFIND…). */
export function methodOf(method) {
  return /^(?:GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS)$/.test(method) ? method : "OTHER";
}
