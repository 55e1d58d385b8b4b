import Big from "big.js";
import type { RatesReport } from "@/lib/rates/report";

/** The tables `npm run admin -- chains` and `npm run admin -- rates` print (scripts/admin-cli.ts). */

export type ChainRow = {
  chain: string;
  state: string;
  network: string | null;
  chainId: number | null;
  networkName: string | null;
  endpoint: string | null;
  tip: number | null;
  cursor: number | null;
  lag: number | null;
  lastTickAt: string | null;
  lastError: string | null;
  lastErrorAt: string | null;
  coins: string[];
};

/** `head` and `cells` in columns two spaces apart, each row followed by its notes (indented lines). */
function columns(head: string[], rows: { cells: string[]; notes?: string[] }[]): string[] {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r.cells[i].length)));
  const line = (c: string[]) => c.map((x, i) => x.padEnd(widths[i])).join("  ").trimEnd();
  return [line(head), ...rows.flatMap((r) => [line(r.cells), ...(r.notes ?? []).map((n) => `  ${n}`)])];
}

const agoFrom = (now: Date) => (iso: string | null) =>
  iso ? `${Math.max(0, Math.round((now.getTime() - Date.parse(iso)) / 1000))} s ago` : "never";

/** The node's network, with its chain id where it has one, and TRON's network name (mainnet, Nile, Shasta or private). */
function networkCell(r: ChainRow): string {
  if (r.network === null) return "-";
  // A chain named without an id (a private Solana cluster) still says which it is.
  if (r.chainId === null) return r.networkName ? `${r.network} (${r.networkName})` : r.network;
  const name = r.networkName;
  return `${r.network} (${name ? `${name}, ` : ""}${r.chainId})`;
}

/** The chains' health as a table an operator reads at a glance, with each chain's last error under it. */
export function chainsTable(rows: ChainRow[], now = new Date()): string {
  const ago = agoFrom(now);
  const head = ["CHAIN", "STATE", "NETWORK", "NODE", "TIP", "CURSOR", "LAG", "LAST TICK", "COINS"];
  return columns(
    head,
    rows.map((r) => ({
      cells: [
        r.chain,
        r.state,
        networkCell(r),
        r.endpoint ?? "-",
        String(r.tip ?? "-"),
        String(r.cursor ?? "-"),
        String(r.lag ?? "-"),
        ago(r.lastTickAt),
        r.coins.length ? r.coins.join(",") : "-",
      ],
      notes: r.lastError ? [`last error ${ago(r.lastErrorAt)}: ${r.lastError}`] : [],
    })),
  ).join("\n");
}

/** A decimal to 10 significant digits (whole numbers kept), for reading: the JSON keeps the exact value. */
export function shortDecimal(value: string | null): string {
  if (value === null) return "-";
  const d = new Big(value);
  return d.round(Math.max(0, 9 - d.e), Big.roundHalfUp).toFixed();
}

type Row = RatesReport["coins"][number] | RatesReport["currencies"][number];

/**
 * The rates as an operator reads them: the source, the providers' last success and error, then
 * every coin (USD per coin) and every currency (units per USD) with the providers behind the
 * value, its age, and why it cannot be used; refused provider values under their row.
 */
export function ratesTable(r: RatesReport, now = new Date()): string {
  const ago = agoFrom(now);
  const out: string[] = [];
  if (r.source === "rates-file") out.push(`Source: RATES_FILE ${r.pinnedFile} (${r.asOf ?? "no asOf"}), for every business; never stale.`);
  else if (r.source === "static-table") {
    out.push("Source: the built-in static table (approximate, never updated): test businesses only; live businesses cannot quote.");
    out.push("Set RATE_PROVIDERS (market rates) or RATES_FILE (a pinned table) to quote live payments.");
  } else {
    out.push(`Source: market providers (RATE_PROVIDERS), asked every ${r.refreshSeconds} s; values older than ${r.maxAgeSeconds} s are not used.`);
    out.push("");
    out.push(
      ...columns(
        ["PROVIDER", "LAST SUCCESS", "LAST ERROR"],
        r.providers.map((p) => ({
          cells: [p.configured ? p.provider : `${p.provider} (not configured)`, ago(p.lastSuccessAt), p.lastError ? `${ago(p.lastErrorAt)}: ${p.lastError}` : "-"],
          notes: p.backoffUntil && Date.parse(p.backoffUntil) > now.getTime() ? [`rate-limited: not asked before ${p.backoffUntil}`] : [],
        })),
      ),
    );
  }
  const fixedSource = r.source === "rates-file" ? "RATES_FILE" : "built-in table";
  const section = (title: string, unit: string, rows: Row[], value: (row: Row) => string | null) => {
    out.push("");
    out.push(
      ...columns(
        [title, unit, "PROVIDERS", "AGE", "USABLE"],
        rows.map((row) => ({
          cells: [
            row.key,
            shortDecimal(value(row)),
            r.source !== "providers" ? fixedSource : row.providers.length ? row.providers.map((p) => p.provider + (p.fresh ? "" : "(stale)")).join(",") : "-",
            row.ageSeconds === null ? "-" : `${row.ageSeconds} s`,
            !row.usable ? `no: ${row.why}` : r.source === "static-table" ? "test only" : "yes",
          ],
          notes: row.providers.flatMap((p) => (p.rejected ? [`${p.provider} refused ${p.rejected.value} ${ago(p.rejected.at)}: ${p.rejected.why}`] : [])),
        })),
      ),
    );
  };
  section("COIN", "USD", r.coins, (row) => ("usd" in row ? row.usd : null));
  section("CURRENCY", "PER USD", r.currencies, (row) => ("perUsd" in row ? row.perUsd : null));
  return out.join("\n");
}
