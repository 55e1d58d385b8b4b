import { readFileSync } from "node:fs";
import path from "node:path";
import ipaddr from "ipaddr.js";
import { describe, expect, it } from "vitest";
import { ispOfIp } from "@/lib/geo/ip-isp";

/*
 * Real lookups in the bundled ASN database (@ip-location-db/asn, its asn-ipv4-num.csv and
 * asn-ipv6-num.csv). The well-known addresses are ones whose network has not changed hands in
 * years; the boundary cases are read from the files themselves, so a data update does not break
 * them. If an update moves one of the well-known ones, check the new answer and adjust here.
 */

const g = globalThis as unknown as { __paymentsIpIsp?: Record<string, unknown> };
const DIR = path.join(process.cwd(), "node_modules", "@ip-location-db", "asn");

type Row = { start: bigint; end: bigint; raw: string; name: string };

/** The rows of a num CSV, read here independently of the module: last field unquoted, `""` undoubled, trimmed. */
function rows(file: string): Row[] {
  return readFileSync(path.join(DIR, file), "utf8").split("\n").filter(Boolean).map((line) => {
    const m = /^(\d+),(\d+),\d+,(.*)$/.exec(line);
    if (!m) throw new Error(`unexpected line ${line}`);
    const raw = m[3];
    const name = (raw.startsWith('"') ? raw.slice(1, -1).replaceAll('""', '"') : raw).trim();
    return { start: BigInt(m[1]), end: BigInt(m[2]), raw, name };
  });
}

/** The address with the number `n` in the family. */
function address(n: bigint, family: 4 | 6): string {
  const bytes: number[] = [];
  for (let i = family === 4 ? 3 : 15; i >= 0; i--) bytes.push(Number((n >> BigInt(8 * i)) & 0xffn));
  return ipaddr.fromByteArray(bytes).toString();
}

describe("ispOfIp", () => {
  // First in the file: nothing has been looked up in this worker process yet.
  it("loads each family's file only on its first lookup, once per process", async () => {
    expect(g.__paymentsIpIsp).toBeUndefined();
    expect(await ispOfIp("not-an-ip")).toBeNull();
    expect(g.__paymentsIpIsp).toBeUndefined();
    expect(await ispOfIp("8.8.8.8")).toBe("Google LLC");
    const v4 = g.__paymentsIpIsp?.[4];
    expect(v4).toBeInstanceOf(Promise);
    expect(g.__paymentsIpIsp?.[6]).toBeUndefined();
    expect(await ispOfIp("::ffff:1.1.1.1")).toBe("Cloudflare, Inc."); // IPv4-mapped: the IPv4 table
    expect(g.__paymentsIpIsp?.[4]).toBe(v4);
    expect(g.__paymentsIpIsp?.[6]).toBeUndefined();

    // Two first lookups at once share one load.
    const first = ispOfIp("2001:4860:4860::8888");
    const v6 = g.__paymentsIpIsp?.[6];
    expect(v6).toBeInstanceOf(Promise);
    const second = ispOfIp("2606:4700:4700::1111");
    expect(g.__paymentsIpIsp?.[6]).toBe(v6);
    expect(await Promise.all([first, second])).toEqual(["Google LLC", "Cloudflare, Inc."]);
    expect(g.__paymentsIpIsp?.[4]).toBe(v4);
    expect(g.__paymentsIpIsp?.[6]).toBe(v6);
  });

  it("names the organisation of well-known public addresses", async () => {
    expect(await ispOfIp("8.8.8.8")).toBe("Google LLC");
    expect(await ispOfIp("8.8.4.4")).toBe("Google LLC");
    expect(await ispOfIp("1.1.1.1")).toBe("Cloudflare, Inc."); // a quoted name with a comma
    expect(await ispOfIp("1.0.0.1")).toBe("Cloudflare, Inc.");
    expect(await ispOfIp("193.0.6.139")).toMatch(/RIPE NCC/);
    expect(await ispOfIp("2001:4860:4860::8888")).toBe("Google LLC");
    expect(await ispOfIp("2001:4860:4860::8844")).toBe("Google LLC");
    expect(await ispOfIp("2606:4700:4700::1111")).toBe("Cloudflare, Inc.");
    expect(await ispOfIp("2001:67c:2e8:22::c100:68b")).toMatch(/RIPE NCC/);
    // Any spelling of the same address gives the same answer.
    expect(await ispOfIp("2001:4860:4860:0:0:0:0:8888")).toBe("Google LLC");
    expect(await ispOfIp("2606:4700:4700::1111".toUpperCase())).toBe("Cloudflare, Inc.");
    expect(await ispOfIp("::ffff:8.8.8.8")).toBe("Google LLC");
  });

  it("gives null where no range covers the address: private, loopback, link-local, documentation, the ends of the space", async () => {
    for (const ip of [
      "10.0.0.1", "172.16.5.4", "192.168.1.1", "127.0.0.1", "169.254.1.1", "0.0.0.0", "192.0.2.1", "255.255.255.255",
      "::1", "::", "fe80::1", "fd12:3456::1", "2001:db8::1", "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "::ffff:10.0.0.1",
    ]) {
      expect(await ispOfIp(ip), ip).toBeNull();
    }
  });

  it("gives null for anything that is not an IP address in a standard form", async () => {
    for (const ip of ["", " ", "not-an-ip", "999.1.1.1", "8.8.8", "0x08080808", "134744072", "8.8.8.8/24", "[::1]", "2001:4860:4860::8888::1"]) {
      expect(await ispOfIp(ip), JSON.stringify(ip)).toBeNull();
    }
  });

  for (const [family, file, every] of [[4, "asn-ipv4-num.csv", 997], [6, "asn-ipv6-num.csv", 251]] as const) {
    it(`IPv${family}: a range's first and last addresses are in it, the address after it (in a gap) in none`, async () => {
      const all = rows(file);
      expect(all.length).toBeGreaterThan(family === 4 ? 100_000 : 10_000);
      let gaps = 0;
      let furthest = -1n; // the greatest end of the rows before
      for (let i = 0; i < all.length; i++) {
        const { start, end, name } = all[i];
        const next = all[i + 1];
        const overlapped = start <= furthest || (next !== undefined && next.start <= end);
        if (end > furthest) furthest = end;
        if ((i % every !== 0 && i !== all.length - 1) || overlapped) continue;
        expect(await ispOfIp(address(start, family)), `first of ${address(start, family)}-${address(end, family)}`).toBe(name);
        expect(await ispOfIp(address(end, family)), `last of ${address(start, family)}-${address(end, family)}`).toBe(name);
        if (next && next.start > end + 1n) {
          gaps++;
          expect(await ispOfIp(address(end + 1n, family)), `after ${address(end, family)}`).toBeNull();
          expect(await ispOfIp(address(next.start - 1n, family)), `before ${address(next.start, family)}`).toBeNull();
        }
      }
      expect(gaps).toBeGreaterThan(10);
    });

    it(`IPv${family}: quoted names, with commas and with doubled quotes, are read unquoted`, async () => {
      const all = rows(file);
      const comma = all.find((r) => r.raw.startsWith('"') && r.raw.includes(",") && !r.raw.includes('""'));
      const quotes = all.find((r) => r.raw.includes('""'));
      for (const row of [comma, quotes]) {
        expect(row).toBeDefined();
        const looked = await ispOfIp(address(row!.start, family));
        expect(looked).toBe(row!.name);
        expect(looked?.startsWith('"')).toBe(false);
      }
      expect(quotes!.name).toMatch(/[^"]"[^"]|"$/); // e.g. LLC "SPUTNIK": single quotes left inside
    });
  }
});
