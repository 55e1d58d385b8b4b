import { isIP } from "node:net";
import ipaddr from "ipaddr.js";
import { z } from "zod";

/** An address range a trusted reverse proxy connects from: a network and its prefix length. */
export type TrustedProxy = [ipaddr.IPv4 | ipaddr.IPv6, number];

/**
 * An address or `address/prefix`, strictly written (net.isIP: no `10` or `0x0a.1` shorthands),
 * IPv4-mapped IPv6 addresses as the IPv4 address they are; null when it is not one.
 */
export function parseRange(entry: string): TrustedProxy | null {
  const slash = entry.indexOf("/");
  const address = slash < 0 ? entry : entry.slice(0, slash);
  if (!isIP(address)) return null;
  if (slash < 0) {
    const ip = ipaddr.process(address);
    return [ip, ip.kind() === "ipv4" ? 32 : 128];
  }
  if (!/^\d{1,3}$/.test(entry.slice(slash + 1))) return null;
  try {
    return ipaddr.parseCIDR(entry);
  } catch {
    return null; // a prefix longer than the address
  }
}

/**
 * TRUSTED_PROXIES: the reverse proxies in front of the service, as addresses or CIDR ranges
 * separated by commas or spaces. Only a request whose connection comes from one of them has its
 * X-Forwarded-For read (lib/http/client-address.ts); unset, no forwarded header is believed.
 */
export const TRUSTED_PROXIES_ENV = {
  TRUSTED_PROXIES: z
    .string()
    .optional()
    .transform((text, ctx): TrustedProxy[] => {
      const entries = (text ?? "").split(/[\s,]+/).filter(Boolean);
      const bad = entries.filter((e) => !parseRange(e));
      if (bad.length) {
        ctx.addIssue({ code: "custom", message: `${bad.join(", ")}: not an IP address or CIDR range (e.g. 10.0.0.5, 10.0.0.0/24, fd00::/64)` });
        return z.NEVER;
      }
      return entries.map((e) => parseRange(e)!);
    }),
};
