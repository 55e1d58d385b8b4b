import { readFile } from "node:fs/promises";
import { isIP } from "node:net";
import path from "node:path";
import { setImmediate as nextTurn } from "node:timers/promises";
import ipaddr from "ipaddr.js";
import { log } from "@/log/logger.mjs";

/*
 * The ISP of an IP address: the organisation of the autonomous system that announces it (e.g.
 * "Google LLC", "Cloudflare, Inc."), from the bundled @ip-location-db/asn package (CC BY 4.0 by
 * RouteViews, DB-IP and NRO; organisation names mostly from DB-IP's IP to ASN Lite). Used by
 * lib/geo/ip-location.ts, once, when an address is captured.
 *
 * Why hand-written: no ASN database in mmdb form is on the npm registry (@ip-location-db/asn-mmdb,
 * geolite2-asn-mmdb, dbip-asn-mmdb: not published), so `maxmind` cannot read one; the form
 * published is CSV (`asn-ipv4-num.csv`, `asn-ipv6-num.csv`: `start,end,asn,organisation`, inclusive
 * numeric ranges sorted by start). A binary search over sorted ranges is what an mmdb reader would
 * answer, so this loads each family's rows into compact sorted arrays and searches them.
 *
 * Parsing: every line is three unquoted numbers and the organisation as its last field, which is
 * RFC 4180 quoted when it holds a comma or a quote ("Cloudflare, Inc.", "LLC ""SPUTNIK"""), with
 * no line breaks inside quotes in the published files. So a line-split parse that reads the last
 * field as "the rest of the line", unquoting it and undoubling `""`, is exact and no CSV library is
 * needed; a line that does not have that shape (an unclosed or stray quote, a missing number) is
 * skipped, counted and logged once. Names are trimmed (some rows end in a space). Rows that start
 * before the previous row's start are skipped the same way. The search takes the range with the
 * greatest start ≤ the address, so where rows overlap (one pair in the current IPv4 file) the later
 * one wins from its start on (and a part of the earlier one past the later one's end would give
 * null). Adjacent rows of the same organisation are merged (same answers, fewer entries).
 *
 * Time and memory, measured with Node 24 on the 2.3.2026061719 data (2-core AMD EPYC), one
 * process, figures after GC:
 *   IPv4: 411,961 rows (374,879 ranges once merged), 75,098 names: loaded in ~220-310 ms;
 *         +4.3 MB heap (names) and +4.3 MB typed arrays; RSS +22-27 MB (V8 keeps heap pages the
 *         parse's garbage used), +57-60 MB at the peak of the load (the 21 MB file is read whole).
 *   IPv6: 103,197 rows (93,345 ranges), 49,002 names: loaded in ~140-170 ms; +3.0 MB heap and
 *         +3.2 MB typed arrays; RSS +17-22 MB, +31 MB at the peak.
 *   A lookup: ~1 µs (IPv4), ~3 µs (IPv6), address parsing included. `npx tsx bench/ip-lookup.ts`
 *   measures the whole location lookup (city file and ASN table) per family.
 * The parse yields to the event loop every 10,000 lines (the longest stall measured: ~20-50 ms),
 * so the first lookup of a family does not hold other requests up for its whole load. Each family
 * is loaded lazily, on its first lookup, once per process (globalThis: Next dev reloads modules),
 * never at start.
 *
 * Never throws: a file that cannot be read is logged once and every lookup of its family gives null.
 */

type Family = 4 | 6;

/** One family's ranges, sorted by start; `org[i]` indexes `names`. IPv6 values are 128-bit, as two 64-bit halves. */
type Table =
  | { family: 4; start: Uint32Array; end: Uint32Array; org: Uint32Array; names: string[] }
  | { family: 6; startHi: BigUint64Array; startLo: BigUint64Array; endHi: BigUint64Array; endLo: BigUint64Array; org: Uint32Array; names: string[] };

const FILES: Record<Family, string> = { 4: "asn-ipv4-num.csv", 6: "asn-ipv6-num.csv" };
const DB_DIR = path.join(process.cwd(), "node_modules", "@ip-location-db", "asn");
const ROWS_PER_TURN = 10_000;

const g = globalThis as unknown as { __paymentsIpIsp?: Partial<Record<Family, Promise<Table | null>>> };

const NL = 0x0a, CR = 0x0d, COMMA = 0x2c, ZERO = 0x30, NINE = 0x39;
const MASK64 = (1n << 64n) - 1n;
const MAX128 = (1n << 128n) - 1n;

/** Growable typed columns while loading; trimmed to the row count at the end. */
class Column<T extends Uint32Array | BigUint64Array> {
  constructor(private make: (n: number) => T, public data: T = make(1 << 16)) {}
  set(i: number, v: T[number]): void {
    if (i === this.data.length) {
      const bigger = this.make(this.data.length * 2);
      bigger.set(this.data as never);
      this.data = bigger;
    }
    this.data[i] = v;
  }
  done(n: number): T {
    return this.data.slice(0, n) as T;
  }
}
const u32 = () => new Column((n) => new Uint32Array(n));
const u64 = () => new Column((n) => new BigUint64Array(n));

/** Where the decimal digits at buf[from] end (at a comma, before `to`); -1 when not digits then a comma. */
function digitsEnd(buf: Buffer, from: number, to: number): number {
  let i = from;
  while (i < to && buf[i] >= ZERO && buf[i] <= NINE) i++;
  return i > from && i < to && buf[i] === COMMA ? i : -1;
}

/** The organisation field buf[from, to): unquoted and trimmed; null when it is malformed or empty. */
function organisation(buf: Buffer, from: number, to: number): string | null {
  let name = buf.toString("utf8", from, to);
  if (name.startsWith('"')) {
    if (name.length < 2 || !name.endsWith('"')) return null;
    const inner = name.slice(1, -1);
    if (inner.replaceAll('""', "").includes('"')) return null;
    name = inner.replaceAll('""', '"');
  } else if (name.includes('"')) return null;
  name = name.trim();
  return name === "" ? null : name;
}

/** The ranges of one family as they are read: appends a row, or refuses it (out of order, end < start, out of range). */
interface Ranges {
  add(buf: Buffer, start: [number, number], end: [number, number], org: number): boolean;
  table(names: string[]): Table;
}

function ipv4Ranges(): Ranges {
  const start = u32(), end = u32(), org = u32();
  let n = 0, lastStart = -1, lastEnd = -1, lastOrg = -1;
  const num = (buf: Buffer, [from, to]: [number, number]) => {
    let v = 0;
    for (let i = from; i < to; i++) v = v * 10 + buf[i] - ZERO;
    return to - from > 10 ? Infinity : v;
  };
  return {
    add(buf, s, e, o) {
      const first = num(buf, s), last = num(buf, e);
      if (last > 0xffffffff || last < first || first < lastStart) return false;
      if (o === lastOrg && first === lastEnd + 1) end.set(n - 1, last); // adjacent, same organisation: one range
      else { start.set(n, first); end.set(n, last); org.set(n++, o); }
      [lastStart, lastEnd, lastOrg] = [first, last, o];
      return true;
    },
    table: (names) => ({ family: 4, start: start.done(n), end: end.done(n), org: org.done(n), names }),
  };
}

function ipv6Ranges(): Ranges {
  const startHi = u64(), startLo = u64(), endHi = u64(), endLo = u64(), org = u32();
  let n = 0, lastStart = -1n, lastEnd = -1n, lastOrg = -1;
  const num = (buf: Buffer, [from, to]: [number, number]) => BigInt(buf.toString("latin1", from, to));
  return {
    add(buf, s, e, o) {
      const first = num(buf, s), last = num(buf, e);
      if (last > MAX128 || last < first || first < lastStart) return false;
      if (o === lastOrg && first === lastEnd + 1n) { endHi.set(n - 1, last >> 64n); endLo.set(n - 1, last & MASK64); }
      else {
        startHi.set(n, first >> 64n); startLo.set(n, first & MASK64);
        endHi.set(n, last >> 64n); endLo.set(n, last & MASK64);
        org.set(n++, o);
      }
      [lastStart, lastEnd, lastOrg] = [first, last, o];
      return true;
    },
    table: (names) => ({
      family: 6, startHi: startHi.done(n), startLo: startLo.done(n), endHi: endHi.done(n), endLo: endLo.done(n), org: org.done(n), names,
    }),
  };
}

/** Parses a num CSV into its table; lines this file does not read (see above) are skipped and counted. */
async function parse(family: Family, buf: Buffer): Promise<{ table: Table; skipped: number }> {
  const names: string[] = [];
  const nameIndex = new Map<string, number>();
  const ranges = family === 4 ? ipv4Ranges() : ipv6Ranges();
  let skipped = 0, lines = 0;
  for (let lineStart = 0; lineStart < buf.length; ) {
    let lineEnd = buf.indexOf(NL, lineStart);
    if (lineEnd === -1) lineEnd = buf.length;
    const from = lineStart;
    lineStart = lineEnd + 1;
    if (lineEnd > from && buf[lineEnd - 1] === CR) lineEnd--;
    if (++lines % ROWS_PER_TURN === 0) await nextTurn();
    if (lineEnd === from) continue;

    const a = digitsEnd(buf, from, lineEnd);
    const b = a < 0 ? -1 : digitsEnd(buf, a + 1, lineEnd);
    const c = b < 0 ? -1 : digitsEnd(buf, b + 1, lineEnd); // after the AS number, which is not kept
    const name = c < 0 ? null : organisation(buf, c + 1, lineEnd);
    if (name === null) { skipped++; continue; }
    let id = nameIndex.get(name);
    if (id === undefined) nameIndex.set(name, (id = names.push(name) - 1));
    if (!ranges.add(buf, [from, a], [a + 1, b], id)) skipped++;
  }
  return { table: ranges.table(names), skipped };
}

/** The family's table, loaded on first use; null (logged once) when its file cannot be read. */
function table(family: Family): Promise<Table | null> {
  const tables = (g.__paymentsIpIsp ??= {});
  return (tables[family] ??= (async () => {
    const file = path.join(DB_DIR, FILES[family]);
    try {
      const { table, skipped } = await parse(family, await readFile(file));
      if (skipped > 0) log.warn({ component: "geo", file: FILES[family], skipped }, `ASN database ${FILES[family]}: ${skipped} line(s) not in the expected form were skipped`);
      return table;
    } catch (e: unknown) {
      log.error({ component: "geo", file: FILES[family], err: e }, `ASN database ${FILES[family]} could not be read; ISPs stay null`);
      return null;
    }
  })());
}

/** The index of the range with the greatest start ≤ the address, -1 if none; `startsAfter(i)`: row i starts after the address. */
function greatestStartAtMost(n: number, startsAfter: (i: number) => boolean): number {
  let lo = 0, hi = n; // the answer is lo - 1 once lo === hi
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (startsAfter(mid)) hi = mid;
    else lo = mid + 1;
  }
  return lo - 1;
}

function find(t: Table, address: ipaddr.IPv4 | ipaddr.IPv6): string | null {
  const bytes = address.toByteArray();
  if (t.family === 4) {
    const ip = ((bytes[0] << 24) >>> 0) + (bytes[1] << 16) + (bytes[2] << 8) + bytes[3];
    const i = greatestStartAtMost(t.start.length, (k) => t.start[k] > ip);
    return i >= 0 && ip <= t.end[i] ? t.names[t.org[i]] : null;
  }
  const view = new DataView(Uint8Array.from(bytes).buffer);
  const hi = view.getBigUint64(0), lo = view.getBigUint64(8);
  const i = greatestStartAtMost(t.startHi.length, (k) => t.startHi[k] > hi || (t.startHi[k] === hi && t.startLo[k] > lo));
  if (i < 0) return null;
  const inside = hi < t.endHi[i] || (hi === t.endHi[i] && lo <= t.endLo[i]);
  return inside ? t.names[t.org[i]] : null;
}

/**
 * The organisation of the autonomous system announcing `ip` (its ISP), from the bundled ASN
 * database; null for an address no range covers, and for anything that is not an IP address in a
 * standard form. IPv4-mapped IPv6 addresses are looked up as IPv4. Whether an address is public is
 * the caller's question (lib/geo/ip-location.ts asks it first). Never throws.
 */
export async function ispOfIp(ip: string): Promise<string | null> {
  if (!isIP(ip)) return null;
  const address = ipaddr.process(ip);
  const t = await table(address.kind() === "ipv4" ? 4 : 6);
  return t ? find(t, address) : null;
}
