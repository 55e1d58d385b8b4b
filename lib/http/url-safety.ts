import { lookup } from "node:dns/promises";
import ipaddr from "ipaddr.js";

const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR("2000::/3");

/**
 * D7 SSRF guard: only globally routable unicast addresses are public. An allow-list, so every
 * special range (loopback, private, link-local, CGNAT, unique-local, multicast, reserved, …)
 * is refused, including IPv4-mapped IPv6 forms of them.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const ip = ipaddr.process(address);
  if (ip.range() !== "unicast") return false;
  // ipaddr.js calls every IPv6 address outside its special ranges "unicast", including the
  // deprecated IPv4-compatible ::a.b.c.d in hex form (::7f00:1 is 127.0.0.1) and unallocated
  // space; global unicast is 2000::/3 only.
  return ip instanceof ipaddr.IPv4 || ip.match(GLOBAL_UNICAST_V6);
}

export class UnsafeUrlError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UnsafeUrlError";
  }
}

/** Scheme rule of D7: live businesses deliver to https only; test businesses may use http. */
export function checkScheme(url: URL, mode: "test" | "live"): void {
  if (url.protocol === "https:") return;
  if (url.protocol === "http:" && mode === "test") return;
  throw new UnsafeUrlError(`${url.protocol} URLs are not allowed for a ${mode} business`);
}

/**
 * Resolves a host for a live business's delivery and refuses it when any address it resolves to
 * is private, loopback or link-local. Used as the socket's `lookup`, so the address checked is
 * the address connected to (no DNS-rebinding gap between check and use).
 */
export async function resolvePublic(hostname: string): Promise<{ address: string; family: number }> {
  const host = hostname.replace(/^\[|\]$/g, "");
  const addresses = ipaddr.isValid(host)
    ? [{ address: host, family: ipaddr.parse(host).kind() === "ipv6" ? 6 : 4 }]
    : await lookup(host, { all: true, verbatim: true });
  if (addresses.length === 0) throw new UnsafeUrlError(`${hostname} does not resolve`);
  const bad = addresses.find((a) => !isPublicAddress(a.address));
  if (bad) throw new UnsafeUrlError(`${hostname} resolves to ${bad.address}, a non-public address`);
  return addresses[0];
}

/**
 * D7 at input time, for live businesses: why a URL given for a customer redirect or a webhook is
 * not acceptable, or null. Only literal addresses and `localhost` can be judged here; host names
 * are checked again where they are connected to (`resolvePublic`), since DNS can change.
 */
export function liveUrlProblem(value: string): string | null {
  const url = new URL(value);
  if (url.protocol !== "https:") return "must be an https:// URL for a live business";
  const host = url.hostname.replace(/^\[|\]$/g, "").replace(/\.+$/, "").toLowerCase();
  const local = host === "localhost" || host.endsWith(".localhost");
  if (local || (ipaddr.isValid(host) && !isPublicAddress(host))) {
    return "must not point to a loopback, private or link-local address for a live business";
  }
  return null;
}
