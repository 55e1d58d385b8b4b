import type { Db } from "@/db/client";
import { expireDuePayments } from "@/lib/payments/expiry";
import { deliverDue } from "@/lib/webhooks/deliver";
import { sendConfiguredEmails } from "@/lib/emails/send";
import { followConfiguredChains } from "@/lib/chains/follow";
import { reconcilePayment } from "@/lib/payments/reconcile";
import { config } from "@/lib/config";
import { DUE_CHECK_MS, refreshRates } from "@/lib/rates/refresh";
import { log } from "@/log/logger.mjs";

/**
 * One pass of background work: idempotent service functions that claim what is due. `stopping`
 * aborts when the runner stops: a job that loops ends at its next safe point (between passes).
 */
export type Job = { name: string; run: (db: Db, now: Date, stopping: AbortSignal) => Promise<unknown> };

export const JOBS: Job[] = [
  { name: "expire-payments", run: (db, now) => expireDuePayments(db, now) },
  {
    name: "deliver-webhooks",
    // Drain what is due now; each pass claims at most 100, so loop while passes come back full
    // (and the runner is not stopping: what is left stays due for the next start).
    run: async (db, _now, stopping) => {
      while (!stopping.aborted && (await deliverDue(db)) === 100);
    },
  },
  {
    name: "send-customer-emails",
    // As the webhooks: loop while passes come back full (20 e-mails each).
    run: async (db, _now, stopping) => {
      while (!stopping.aborted && (await sendConfiguredEmails(db, 20)) === 20);
    },
  },
  // The configured chains' nodes (BITCOIN_RPC_URL, LITECOIN_RPC_URL, …), each every few seconds.
  { name: "follow-chains", run: (db, now) => followConfiguredChains(db, config().chains, reconcilePayment, now) },
  // The market rates (RATE_PROVIDERS): this instance asks once a second whether a refresh is due;
  // the shared schedule lets one instance per RATE_REFRESH_SECONDS fetch.
  { name: "refresh-rates", run: async (db, now) => (now.getTime() >= nextRateCheck ? checkRates(db, now) : null) },
];

let nextRateCheck = 0;
function checkRates(db: Db, now: Date) {
  nextRateCheck = now.getTime() + DUE_CHECK_MS;
  return refreshRates(db, config().rates);
}

const g = globalThis as unknown as { __paymentsRunner?: NodeJS.Timeout };

/**
 * The embedded background runner (design §2): in the server process, every `intervalMs` (a
 * quarter second, so a webhook leaves within ~250 ms of its status change), each
 * job runs once; a job still running from the last tick is not started again. All state is in
 * the database, so a restart resumes where the last process stopped.
 */
export function startEmbeddedRunner(
  getDb: () => Promise<Db>,
  intervalMs = 250,
  /** Told of each job run that returned (the chain bench times the follow-chains runs with it). */
  observe?: (run: { job: string; startedAt: Date; endedAt: Date; result: unknown }) => void,
): () => Promise<void> {
  if (g.__paymentsRunner) return async () => {};
  const running = new Set<string>();
  const ticks = new Set<Promise<void>>();
  const stopping = new AbortController();
  const tick = async () => {
    const db = await getDb();
    // Stopped while the database was asked for: the jobs do not start.
    if (stopping.signal.aborted) return;
    await Promise.all(
      JOBS.filter((j) => !running.has(j.name)).map(async (job) => {
        running.add(job.name);
        const startedAt = new Date();
        try {
          const result = await job.run(db, startedAt, stopping.signal);
          observe?.({ job: job.name, startedAt, endedAt: new Date(), result });
        } catch (e) {
          log.error({ component: "runner", job: job.name, err: e }, `${job.name} failed`);
        } finally {
          running.delete(job.name);
        }
      }),
    );
  };
  g.__paymentsRunner = setInterval(() => {
    const t = tick()
      .catch((e) => log.error({ component: "runner", err: e }, "the database could not be opened"))
      .finally(() => ticks.delete(t));
    ticks.add(t);
  }, intervalMs);
  g.__paymentsRunner.unref();
  /**
   * Stops the timer and tells the jobs running now to end at their next safe point; resolves
   * once they have returned (every tick under way, including one still waiting for the
   * database), so nothing of the runner touches the database after it.
   */
  return async () => {
    clearInterval(g.__paymentsRunner);
    g.__paymentsRunner = undefined;
    stopping.abort();
    while (ticks.size) await Promise.all(ticks);
  };
}
