import { timingSafeEqual } from "node:crypto";
import { isIP } from "node:net";
import ipaddr from "ipaddr.js";
import { config, type TrustedProxy } from "@/lib/config";
import { PEER_HEADER, PEER_SECRET_ENV } from "./peer.mjs";

/*
 * Whom a request comes from, for the sign-in rate limit and the customer IP a checkout records.
 * A header is anyone's to write, so the answer starts from the connection: the production server
 * reports its peer (lib/http/peer.mjs). Only when that peer is a configured reverse proxy
 * (TRUSTED_PROXIES) is X-Forwarded-For read, right to left, past every trusted proxy, to the first
 * address that is not one. Under `next dev` (no server of ours) the peer is unknown: no address.
 */

/** A canonical address (IPv4-mapped IPv6 as IPv4, IPv6 compressed, RFC 5952), or null when `text` is not one. */
function canonical(text: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  // Some proxies append the port: `203.0.113.5:41234`, `[2001:db8::1]:443`.
  const bare = /^\[(.+)\](?::\d+)?$/.exec(text)?.[1] ?? /^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/.exec(text)?.[1] ?? text;
  return isIP(bare) ? ipaddr.process(bare) : null;
}

/** The connection's peer as the production server reported it; null without the server's secret (or with a forged header). */
export function peerAddress(headers: Headers): string | null {
  const secret = process.env[PEER_SECRET_ENV];
  const value = secret ? headers.get(PEER_HEADER) : null;
  if (!secret || !value) return null;
  const space = value.indexOf(" ");
  const given = Buffer.from(value.slice(0, space < 0 ? 0 : space));
  const expected = Buffer.from(secret);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  return canonical(value.slice(space + 1))?.toString() ?? null;
}

const trustedBy = (ip: ipaddr.IPv4 | ipaddr.IPv6, trusted: readonly TrustedProxy[]) =>
  trusted.some(([range, bits]) => range.kind() === ip.kind() && ip.match(range, bits));

/**
 * The client's address: the connection's peer, or, while that is a trusted proxy, the address it
 * forwards for (the X-Forwarded-For entry to its left). Null when the peer is unknown.
 */
export function clientAddress(headers: Headers, trusted: readonly TrustedProxy[] = config().trustedProxies): string | null {
  const peer = peerAddress(headers);
  if (!peer) return null;
  let ip = canonical(peer)!;
  if (!trusted.length) return ip.toString();
  const hops = (headers.get("x-forwarded-for") ?? "").split(",").map((h) => h.trim()).filter(Boolean);
  while (trustedBy(ip, trusted)) {
    const hop = hops.pop();
    const next = hop === undefined ? null : canonical(hop);
    // The chain ends, or a hop is not an address: the last one known is as far as it can be followed.
    if (!next) break;
    ip = next;
  }
  return ip.toString();
}
