/**
 * What locating a customer's IP address costs (lib/geo/ip-location.ts: the DB-IP city mmdb and
 * the ASN table of lib/geo/ip-isp.ts): `npx tsx bench/ip-lookup.ts`. One process, no HTTP. Prints,
 * per address family, the first lookup (which opens the city file and loads the ASN table), the
 * resident memory that adds, and the time of a lookup once both are loaded.
 */
import { locateIp } from "../lib/geo/ip-location";

const LOOKUPS = 20_000;
const rssMb = () => process.memoryUsage().rss / 2 ** 20;

/** Public addresses spread over the space, a different one each time (no answer is cached). */
const addressOf = {
  4: (i: number) => `${81 + (i % 100)}.${(i >> 8) & 255}.${i & 255}.${(i * 7) & 255}`,
  6: (i: number) => `2a00:${(i * 31 % 0xffff).toString(16)}::${i.toString(16)}`,
};

for (const family of [4, 6] as const) {
  const rss0 = rssMb();
  const t0 = performance.now();
  const first = await locateIp(family === 4 ? "8.8.8.8" : "2001:4860:4860::8888");
  const load = performance.now() - t0;
  const added = rssMb() - rss0;
  let placed = 0;
  const t1 = performance.now();
  for (let i = 0; i < LOOKUPS; i++) if (await locateIp(addressOf[family](i))) placed++;
  const perLookup = ((performance.now() - t1) * 1000) / LOOKUPS;
  console.log(
    `IPv${family}: first lookup ${load.toFixed(0)} ms (opens the city file, loads the ASN table; RSS +${added.toFixed(0)} MB) → ${JSON.stringify(first)}; ` +
      `then ${perLookup.toFixed(1)} µs a lookup (${LOOKUPS.toLocaleString("en")} addresses, ${placed.toLocaleString("en")} placed)`,
  );
}
