import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { log } from "@/log/logger.mjs";

/*
 * lib/geo/ip-isp.ts on files written here (it reads node_modules/@ip-location-db/asn under the
 * working directory when it is first imported): what the parser does with each kind of line the
 * published files have, and with lines they should not have; and a file that is missing. No
 * location database is written, so lib/geo/ip-location.ts here shows an address only the ASN
 * database places. Runs in its own worker process (one per test file), so the modules'
 * per-process tables are this file's alone.
 */

const IPV4 = [
  '16777216,16777471,13335,"Cloudflare, Inc."\r', // 1.0.0.0-1.0.0.255, CRLF line end
  '16777472,16777727,13335,"Cloudflare, Inc."', //   1.0.1.0-1.0.1.255: adjacent, same organisation
  "16778240,16779263,38803,Gtelecom Pty Ltd ", //    1.0.4.0-1.0.7.255, a trailing space
  '16779264,16779519,201907,"LLC ""SPUTNIK"""', //   1.0.8.0-1.0.8.255, doubled quotes
  '16779520,16779775,1,"broken "quote"', //          skipped: a lone quote inside quotes
  '16779776,16780031,2,"unclosed', //                skipped
  "16780032,16780287,Missing Asn", //                skipped: three numbers expected
  "16780288,16780543,x,Bad Number", //               skipped
  '16780544,16780799,4,Unquoted "quote"', //         skipped: a quote in an unquoted field
  '16781056,16781311,5,"Multi', //                   skipped: no line breaks inside quotes
  'line, continuation"', //                          skipped
  "", //                                             an empty line: ignored
  "16781312,16781567,2519,ARTERIA Networks Corporation", // 1.0.16.0-1.0.16.255
  "16781000,16781100,6,Out Of Order", //             skipped: starts before the previous row
  "16781400,16781999,7,Overlapping Ltd", //          1.0.16.88-1.0.18.175, overlaps the previous row
  "16782000,16782000,8,", //                         skipped: no name
  '16782001,16782001,8,"  "', //                     skipped: a blank name
  "16782002,16782001,9,End Before Start", //         skipped
  "4294967040,4294967296,10,Too Big", //             skipped: past 255.255.255.255
  "4294967040,4294967295,11,Last Block", //          255.255.255.0-255.255.255.255, no final line break
].join("\n");

let cwd: string;
let dir: string;
let ispOfIp: (ip: string) => Promise<string | null>;
let locateIp: (ip: string) => Promise<unknown>;
// The logs are what is checked; kept out of the test output.
const errors = vi.spyOn(log, "error").mockImplementation(() => {});
const warnings = vi.spyOn(log, "warn").mockImplementation(() => {});

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "asn-"));
  const pkg = path.join(dir, "node_modules", "@ip-location-db", "asn");
  mkdirSync(pkg, { recursive: true });
  writeFileSync(path.join(pkg, "asn-ipv4-num.csv"), IPV4); // and no asn-ipv6-num.csv
  cwd = process.cwd();
  process.chdir(dir);
  try {
    ({ ispOfIp } = await import("@/lib/geo/ip-isp"));
    ({ locateIp } = await import("@/lib/geo/ip-location"));
  } finally {
    process.chdir(cwd);
  }
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  errors.mockRestore();
  warnings.mockRestore();
});

describe("ispOfIp on a file with every kind of line", () => {
  it("reads quoted and unquoted names, merged and overlapping ranges, CRLF and a missing final line break", async () => {
    const cases: [string, string | null][] = [
      ["1.0.0.0", "Cloudflare, Inc."], ["1.0.0.255", "Cloudflare, Inc."], ["1.0.1.0", "Cloudflare, Inc."], ["1.0.1.255", "Cloudflare, Inc."],
      ["0.255.255.255", null], ["1.0.2.0", null], ["1.0.3.255", null],
      ["1.0.4.0", "Gtelecom Pty Ltd"], ["1.0.7.255", "Gtelecom Pty Ltd"],
      ["1.0.8.0", 'LLC "SPUTNIK"'], ["1.0.8.255", 'LLC "SPUTNIK"'],
      ["1.0.9.0", null], ["1.0.10.0", null], ["1.0.11.0", null], ["1.0.12.0", null], ["1.0.13.0", null], ["1.0.15.0", null],
      ["1.0.14.200", null],
      ["1.0.16.0", "ARTERIA Networks Corporation"], ["1.0.16.87", "ARTERIA Networks Corporation"],
      ["1.0.16.88", "Overlapping Ltd"], ["1.0.18.175", "Overlapping Ltd"], ["1.0.18.176", null],
      ["1.0.18.177", null], ["1.0.18.178", null],
      ["255.255.254.255", null], ["255.255.255.0", "Last Block"], ["255.255.255.255", "Last Block"],
      ["::ffff:1.0.8.1", 'LLC "SPUTNIK"'],
    ];
    for (const [ip, isp] of cases) expect(await ispOfIp(ip), ip).toBe(isp);
    expect(warnings.mock.calls.map((c) => String(c[1]))).toEqual([expect.stringMatching(/asn-ipv4-num\.csv: 12 line\(s\) .* skipped/)]);
  });

  it("a family whose file cannot be read gives null, logged once", async () => {
    const asnErrors = () => errors.mock.calls.map((c) => String(c[1])).filter((m) => m.includes("ASN database"));
    expect(asnErrors()).toEqual([]);
    expect(await ispOfIp("2001:4860:4860::8888")).toBeNull();
    expect(await ispOfIp("2606:4700:4700::1111")).toBeNull();
    expect(asnErrors()).toEqual([expect.stringMatching(/asn-ipv6-num\.csv could not be read/)]);
    expect(await ispOfIp("1.0.0.1")).toBe("Cloudflare, Inc."); // the other family is unaffected
  });

  it("locateIp: an address only the ASN database places gets its ISP, with a null city and country", async () => {
    expect(await locateIp("1.0.8.1")).toEqual({ city: null, country: null, isp: 'LLC "SPUTNIK"' });
    expect(await locateIp("::ffff:1.0.0.7")).toEqual({ city: null, country: null, isp: "Cloudflare, Inc." });
    expect(await locateIp("1.0.9.1")).toBeNull(); // placed by neither
    expect(await locateIp("2001:4860:4860::8888")).toBeNull(); // neither file of the family can be read
  });
});
