import { poolMaxConnections, type Db } from "@/db/client";
import { connectionsByState, customerEmailBacklog, webhookBacklog, type Backlog } from "@/db/queries/operations";
import { chainsHealth } from "@/lib/chains/health";
import { ratesReport } from "@/lib/rates/report";
import { metrics } from "@/lib/metrics/registry.mjs";
import { countPaymentEvents } from "./payment-counters";
import { readinessChecks } from "./readiness";

/*
 * One scrape of /metrics: the gauges that describe the database's state (outbox backlogs, the
 * chains' cursors, the stored rates, readiness, connections) are read now, one cheap statement
 * each, then the registry is written out with the counters every bundle of the process moved.
 * A part that cannot be read is left out of this scrape (its series vanish) rather than failing
 * the rest: `cryptopay_ready` says when the database is the cause.
 */

const seconds = (d: Date) => d.getTime() / 1000;
const ageOf = (b: Backlog, now: Date) => (b.oldestCreatedAt ? Math.max(0, (now.getTime() - b.oldestCreatedAt.getTime()) / 1000) : 0);

type Part = (db: Db, now: Date) => Promise<() => void>;

/** Each part reads first and returns what sets its gauges, so a scrape's values change at once. */
const PARTS: Part[] = [
  async (db, now) => {
    const [hooks, emails] = await Promise.all([webhookBacklog(db), customerEmailBacklog(db)]);
    return () => {
      const m = metrics();
      m.webhookBacklog.set(hooks.pending);
      m.webhookOldestAge.set(ageOf(hooks, now));
      m.emailBacklog.set(emails.pending);
      m.emailOldestAge.set(ageOf(emails, now));
    };
  },
  async (db, now) => {
    const chains = (await chainsHealth(db, now)).filter((h) => h.configured);
    return () => {
      const m = metrics();
      for (const g of [m.chainUp, m.chainTip, m.chainCursor, m.chainLag, m.chainLastTick, m.chainTipChanged]) g.reset();
      for (const h of chains) {
        const chain = h.chain;
        m.chainUp.set({ chain }, h.state === "healthy" ? 1 : 0);
        if (h.tip !== null) m.chainTip.set({ chain }, h.tip);
        if (h.cursor !== null) m.chainCursor.set({ chain }, h.cursor);
        if (h.lag !== null) m.chainLag.set({ chain }, h.lag);
        if (h.lastTickAt) m.chainLastTick.set({ chain }, seconds(h.lastTickAt));
        if (h.tipChangedAt) m.chainTipChanged.set({ chain }, seconds(h.tipChangedAt));
      }
    };
  },
  async (db, now) => {
    const report = await ratesReport(db, now);
    const oldest = new Map<string, number>();
    for (const row of [...report.coins, ...report.currencies]) {
      for (const q of row.providers) oldest.set(q.provider, Math.max(oldest.get(q.provider) ?? 0, q.ageSeconds));
    }
    return () => {
      const m = metrics();
      m.rateLastSuccess.reset();
      m.rateOldestAge.reset();
      for (const p of report.providers) if (p.lastSuccessAt) m.rateLastSuccess.set({ provider: p.provider }, Date.parse(p.lastSuccessAt) / 1000);
      for (const [provider, age] of oldest) m.rateOldestAge.set({ provider }, age);
      m.ratesUnusable.set({ kind: "coin" }, report.coins.filter((c) => !c.usable).length);
      m.ratesUnusable.set({ kind: "currency" }, report.currencies.filter((c) => !c.usable).length);
    };
  },
  async (db) => {
    const rows = await connectionsByState(db);
    return () => {
      const m = metrics();
      m.dbConnections.reset();
      for (const r of rows) m.dbConnections.set({ state: r.state }, r.connections);
    };
  },
];

/** The exposition text of the process's metrics, with the database's gauges read now. */
export async function scrape(getDb: () => Promise<Db>, now = new Date()): Promise<{ body: string; contentType: string }> {
  countPaymentEvents();
  const m = metrics();
  const { db, checks } = await readinessChecks(getDb);
  m.ready.set(checks.database.ok && checks.migrations.ok ? 1 : 0);
  m.dbPoolMax.set(poolMaxConnections());
  if (db) {
    const settled = await Promise.allSettled(PARTS.map((part) => part(db, now)));
    for (const s of settled) if (s.status === "fulfilled") s.value();
  }
  return { body: await m.registry.metrics(), contentType: m.registry.contentType };
}
