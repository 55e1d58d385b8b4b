import type { Db } from "@/db/client";
import type { Server } from "./server";

/*
 * The merchant dashboard in the bench: a user of the bench business (made while the server is
 * stopped, as PGlite is one process's database), a session signed in through the server's own
 * sign-in endpoint for the page scenarios, and the CSV export of the whole store read once,
 * with the server's resident memory sampled while it streams: the export is streamed, so memory
 * should stay flat however many payments it holds.
 */

const EMAIL = "bench-owner@bench.example";
/** A fixed password, so a reused store's user signs in on every run. */
const PASSWORD = "bench dashboard password";

export async function ensureDashboardUser(db: Db, businessId: number): Promise<void> {
  const { createUser } = await import("@/lib/accounts/users");
  await createUser(db, { email: EMAIL, password: PASSWORD, businessId, role: "owner" });
}

/** The session cookie of the bench user, signed in through `POST /api/auth/sign-in/email`. */
export async function dashboardCookie(url: string): Promise<string> {
  const res = await fetch(`${url}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { origin: url, "content-type": "application/json" },
    body: JSON.stringify({ email: EMAIL, password: PASSWORD }),
  });
  if (!res.ok) throw new Error(`dashboard sign-in: HTTP ${res.status} ${await res.text()}`);
  return res.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
}

export type ExportFigures = { rows: number; megabytes: number; seconds: number; rowsPerSecond: number; rssBeforeMb: number; rssPeakMb: number };

/** Reads the unfiltered CSV export to its end, counting rows and sampling the server's RSS every 50 ms. */
export async function measureExport(server: Server, cookie: string, businessId: number): Promise<ExportFigures> {
  const rssBeforeMb = server.rssMb();
  let rssPeakMb = rssBeforeMb;
  const sampler = setInterval(() => (rssPeakMb = Math.max(rssPeakMb, server.rssMb())), 50);
  const t0 = performance.now();
  try {
    const res = await fetch(`${server.url}/dashboard/${businessId}/payments/export`, { headers: { cookie } });
    if (!res.ok || !res.body) throw new Error(`export: HTTP ${res.status}`);
    let bytes = 0;
    let newlines = 0;
    const reader = res.body.getReader();
    for (let r = await reader.read(); !r.done; r = await reader.read()) {
      bytes += r.value.length;
      for (let i = 0; i < r.value.length; i++) if (r.value[i] === 0x0a) newlines++;
    }
    const seconds = (performance.now() - t0) / 1000;
    const rows = newlines - 1; // the header line
    return { rows, megabytes: bytes / 2 ** 20, seconds, rowsPerSecond: rows / seconds, rssBeforeMb, rssPeakMb };
  } finally {
    clearInterval(sampler);
  }
}

export function exportLine(f: ExportFigures): string {
  return (
    `dashboard CSV export: ${f.rows.toLocaleString("en")} payments, ${f.megabytes.toFixed(1)} MB in ${f.seconds.toFixed(1)} s ` +
    `(${Math.round(f.rowsPerSecond).toLocaleString("en")} rows/s); server RSS ${f.rssBeforeMb.toFixed(0)} MB before, ${f.rssPeakMb.toFixed(0)} MB at most while streaming`
  );
}
