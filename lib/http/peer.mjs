// What the production server (scripts/server.mjs) tells the app about each request's connection.
// Plain JavaScript: the server runs unbundled, outside Next.js's build.

/**
 * The address a request's TCP connection comes from, which the app cannot see (route handlers,
 * server components and server actions get the request's headers, not its socket). The server
 * sets `x-peer-address: <secret> <address>` on every request, replacing whatever a client sent;
 * the secret is made per server process and kept in this environment variable, so the app tells
 * the server's header from a forged one (lib/http/client-address.ts).
 */
export const PEER_HEADER = "x-peer-address";
export const PEER_SECRET_ENV = "PEER_ADDRESS_SECRET";

/** Sets the peer header on a Node request, from its socket. */
export function stampPeer(req, secret) {
  req.headers[PEER_HEADER] = `${secret} ${req.socket.remoteAddress ?? ""}`;
}
