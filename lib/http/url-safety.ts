import { lookup } from "node:dns/promises";
import ipaddr from "ipaddr.js";
import { config, type Config } from "@/lib/config";

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

/** Why a URL's host is a literal non-public address or `localhost`, or null (host names are judged when connected to). */
function nonPublicHostProblem(url: URL): string | null {
  const host = url.hostname.replace(/^\[|\]$/g, "").replace(/\.+$/, "").toLowerCase();
  const local = host === "localhost" || host.endsWith(".localhost");
  return local || (ipaddr.isValid(host) && !isPublicAddress(host)) ? "must not point to a loopback, private or link-local address" : null;
}

/**
 * D7 at input time, for live businesses: why a URL given for a customer redirect or a webhook is
 * not acceptable, or null. Only literal addresses and `localhost` can be judged here; host names
 * are checked again where they are connected to (`resolvePublic`), since DNS can change.
 */
export function liveUrlProblem(value: string): string | null {
  const url = new URL(value);
  if (url.protocol !== "https:") return "must be an https:// URL for a live business";
  const problem = nonPublicHostProblem(url);
  return problem && `${problem} for a live business`;
}

/**
 * How a business's webhooks are guarded (D7). Live businesses send over https to public
 * addresses only. In production test businesses reach public addresses only too: a test
 * business is open to anyone with an account, and its delivery log shows each reply, so a
 * private target would make the service a probe of the operator's network. Outside production
 * test businesses may use http and any address (a receiver on the developer's machine). The
 * operator's WEBHOOK_ALLOW_PRIVATE_TARGETS lifts both rules in both modes: its merchants'
 * servers are on its own network.
 */
export function webhookGuard(
  mode: "test" | "live",
  c: Pick<Config, "webhookPrivateTargets" | "production"> = config(),
): { httpsOnly: boolean; publicOnly: boolean } {
  if (c.webhookPrivateTargets) return { httpsOnly: false, publicOnly: false };
  return { httpsOnly: mode === "live", publicOnly: mode === "live" || c.production };
}

/**
 * The guard at input time for a webhook address (a business's `webhookUrl`, a payment's
 * `notifyUrl`): why `value` is refused for a business of `mode`, or null. Delivery checks the
 * resolved address again (`resolvePublic`).
 */
export function webhookUrlProblem(value: string, mode: "test" | "live"): string | null {
  const guard = webhookGuard(mode);
  if (guard.httpsOnly) return liveUrlProblem(value);
  if (!guard.publicOnly) return null;
  const problem = nonPublicHostProblem(new URL(value));
  return problem && `${problem} in production (the operator's WEBHOOK_ALLOW_PRIVATE_TARGETS allows it)`;
}
