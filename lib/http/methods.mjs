// What the production server (scripts/server.mjs) and the route modules (lib/http/route.ts) must
// agree on about methods. Plain JavaScript: the server runs unbundled, outside Next.js's build.

/**
 * The methods Next.js dispatches to a route module's exports. A request with any other method
 * never reaches a route handler: TRACE cannot even become a fetch `Request` (Next.js answers a
 * bare 500), CONNECT and tokens Node's parser does not know (FOO, lowercase get) never become
 * requests at all, and the rest (PROPFIND, QUERY…) get an empty 400.
 */
export const ROUTE_METHODS = Object.freeze(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/** Where the API lives: every answer under these is the envelope or a ProblemDetails (D11). */
export const API_PREFIXES = Object.freeze(["/v1", "/admin/v1"]);

/**
 * How the server asks the API about a method the framework cannot dispatch: it sends the request
 * on as OPTIONS with `x-relayed-method: <secret> <METHOD>`, and the route's OPTIONS handler
 * answers for that method instead. The secret is made per server process and kept in this
 * environment variable, so a client cannot forge the header.
 */
export const RELAY_HEADER = "x-relayed-method";
export const RELAY_SECRET_ENV = "METHOD_RELAY_SECRET";

/** Whether a request target (path and query) is under an API prefix. */
export function isApiTarget(target) {
  return API_PREFIXES.some((prefix) => target.startsWith(prefix) && (target.length === prefix.length || "/?".includes(target[prefix.length])));
}
