import type { Db } from "@/db/client";
import { startTimestampingReceiver } from "../receiver";
import type { EvmBench } from "./evm";
import type { LitecoinBench } from "./litecoin";
import { quantiles, type Quantiles } from "./stats";
import type { TronBench } from "./tron";

/**
 * Latency of the real pipeline: the embedded runner's jobs (lib/background/runner.ts JOBS:
 * follow-chains every CHAIN_POLL_MS, deliver-webhooks, expire-payments) run in this process on
 * the runner's 250 ms interval, against litecoind and anvil, for a live business whose webhook
 * URL is a local receiver that timestamps each arrival (TRON: the fake java-tron node, serving from
 * this process, mines only when the bench asks). Each sample is split at two instants
 * the service records: the start of the follow-chains tick that changed the status (the
 * runner's `now`, which the orchestrator keeps as the chain's lastTickAt) and the status
 * change itself (its timeline entry's time, written in the change's transaction):
 *   wait       = tick start − the block (or broadcast): the poll interval's share, ~uniform 0-5 s;
 *   processing = status change − tick start: the tick's own work up to that payment's change;
 *   delivery   = arrival − status change: the outbox row found by deliver-webhooks (250 ms) and the POST.
 */

export type Arrival = { at: number; type: string; paymentId: string; statusTimes: Record<string, number> };

/** The bench's receiver, each arrival with its payment and the time of each status in its timeline. */
export async function startReceiver() {
  const r = await startTimestampingReceiver();
  return {
    ...r,
    get arrivals(): Arrival[] {
      return r.arrivals.map(({ at, body }) => {
        const statusTimes: Record<string, number> = {};
        for (const t of body.ForPaymentEvents.Timeline) statusTimes[t.PaymentStatus] = Date.parse(t.Time);
        return { at, type: body.EventType, paymentId: body.ForPaymentEvents.Id, statusTimes };
      });
    },
  };
}
export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

export type Tick = { start: number; end: number; chains: string[] };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The embedded runner itself, timing each follow-chains run that followed a chain. */
export async function startTimedRunner(getDb: () => Promise<Db>, intervalMs = 250) {
  const { startEmbeddedRunner } = await import("@/lib/background/runner");
  const ticks: Tick[] = [];
  const stop = startEmbeddedRunner(getDb, intervalMs, ({ job, startedAt, endedAt, result }) => {
    if (job !== "follow-chains") return;
    const followed = (result as { chain: string; lastTickAt: Date | null }[]).filter((s) => s.lastTickAt?.getTime() === startedAt.getTime());
    if (followed.length) ticks.push({ start: startedAt.getTime(), end: endedAt.getTime(), chains: followed.map((s) => s.chain) });
  });
  return { ticks, stop };
}

export type LatencySample = { chain: string; event: "PENDING" | "COMPLETED"; paymentId: string; totalMs: number; waitMs: number; processingMs: number; deliveryMs: number };

export type LatencyFigures = {
  samplesPerChain: number;
  stepMs: [number, number];
  pollMs: number;
  runnerMs: number;
  rows: { chain: string; event: string; from: string; count: number; total: Quantiles; wait: Quantiles; processing: Quantiles; delivery: Quantiles }[];
  /** follow-chains runs that followed the chains: their whole duration (every chain, concurrently). */
  ticks: Quantiles & { count: number };
  missing: string[];
  samples: LatencySample[];
};

export type Paid = { id: string; address: string; units: bigint; required: number };

type Pending = Paid & { sentAt?: number };

/**
 * `samples` payments on one chain, one per step, steps at random intervals of 3-8 s (so the
 * events fall at any phase of the 5 s poll): each step first mines `perStep` blocks, then pays
 * the next payment. A payment is confirmed `required` times by the step `steps` later: the
 * confirmations needed come from those steps' blocks; the step's blocks are the reference of
 * its COMPLETED sample, its own step's broadcast (Bitcoin family: seen in the mempool) or block
 * (EVM: anvil mines the transaction at once; TRON: the bench mines it at once) the reference of
 * its PENDING one. Its PENDING and
 * COMPLETED changes are at least two steps (6 s) apart: never in one tick.
 */
async function sampleChain(o: {
  samples: number;
  steps: number;
  newPayment: () => Promise<Paid>;
  mine: () => Promise<unknown>;
  pay: (p: Paid) => Promise<unknown>;
  /** In the last steps, where no payment is made: what stands for its block (EVM: one more block). */
  filler?: () => Promise<unknown>;
  stepMs: [number, number];
}) {
  const paid: Pending[] = [];
  const minedAt: number[] = [];
  for (let step = 0; step < o.samples + o.steps; step++) {
    const next = step < o.samples ? await o.newPayment() : null;
    await sleep(o.stepMs[0] + Math.random() * (o.stepMs[1] - o.stepMs[0]));
    if (step > 0) {
      await o.mine();
      minedAt[step] = Date.now();
    }
    if (next) {
      await o.pay(next);
      paid.push({ ...next, sentAt: Date.now() });
    } else await o.filler?.();
  }
  return paid.map((p, k) => ({ ...p, pendingRef: p.sentAt!, completedRef: minedAt[k + o.steps] }));
}

export async function measureLatency(o: {
  db: Db;
  getDb: () => Promise<Db>;
  receiver: Receiver;
  ltc: LitecoinBench | null;
  evm: EvmBench | null;
  tron: TronBench | null;
  newPayment: (coin: "LITECOIN" | "ETHEREUM" | "TRON") => Promise<Paid>;
  samples: number;
  log: (s: string) => void;
}): Promise<LatencyFigures> {
  const { CHAIN_POLL_MS } = await import("@/lib/chains/follow");
  const stepMs: [number, number] = [3_000, 8_000];
  const runner = await startTimedRunner(o.getDb);
  try {
    // The first ticks start each chain's cursor at its tip and mark the chains healthy: their coins are offered from then on.
    const deadline = Date.now() + 30_000;
    const wanted = [o.ltc && "LITECOIN", o.evm && "ETHEREUM", o.tron && "TRON"].filter(Boolean) as string[];
    while (!wanted.every((c) => runner.ticks.some((t) => t.chains.includes(c)))) {
      if (Date.now() > deadline) throw new Error(`the runner did not follow ${wanted.join(", ")} within 30 s`);
      await sleep(100);
    }
    const loops: Promise<{ chain: string; paid: (Paid & { pendingRef: number; completedRef: number })[] }>[] = [];
    if (o.ltc) {
      const ltc = o.ltc;
      const first = await o.newPayment("LITECOIN");
      o.log(`latency: ${o.samples} Litecoin payments (${first.required} confirmations), a step every ${stepMs[0] / 1000}-${stepMs[1] / 1000} s`);
      let pending: Paid | null = first;
      loops.push(
        sampleChain({
          samples: o.samples,
          steps: first.required,
          newPayment: async () => {
            const p = pending ?? (await o.newPayment("LITECOIN"));
            pending = null;
            return p;
          },
          mine: () => ltc.mine(1),
          pay: (p) => ltc.pay([{ address: p.address, units: p.units }]),
          stepMs,
        }).then((paid) => ({ chain: "LITECOIN", paid })),
      );
    }
    if (o.evm) {
      const evm = o.evm;
      const first = await o.newPayment("ETHEREUM");
      // Each step mines `m` blocks, then the payment's own: after j steps a payment has j(m+1) confirmations.
      const j = 2;
      const m = first.required / j - 1;
      if (!Number.isInteger(m) || m < 0) throw new Error(`${first.required} confirmations are not ${j} steps of whole blocks`);
      o.log(`latency: ${o.samples} Ether payments (${first.required} confirmations: ${m} blocks and the next payment's per step), a step every ${stepMs[0] / 1000}-${stepMs[1] / 1000} s`);
      let pending: Paid | null = first;
      loops.push(
        sampleChain({
          samples: o.samples,
          steps: j,
          newPayment: async () => {
            const p = pending ?? (await o.newPayment("ETHEREUM"));
            pending = null;
            return p;
          },
          mine: () => evm.mine(m),
          pay: (p) => evm.pay([{ to: p.address, wei: p.units }]),
          filler: () => evm.mine(1),
          stepMs,
        }).then((paid) => ({ chain: "ETHEREUM", paid })),
      );
    }
    if (o.tron) {
      const tron = o.tron;
      const first = await o.newPayment("TRON");
      // Complete once its block is solidified, `required` deep: 1 + 9 after one step (and the next payment's block), 20 after two.
      const m = 9;
      if (!(1 + m + 1 < first.required && first.required <= 2 * m + 2)) throw new Error(`${first.required} confirmations are not reached in the second step of ${m} blocks`);
      o.log(`latency: ${o.samples} TRX payments (solidified at ${first.required} confirmations: ${m} blocks and the next payment's per step), a step every ${stepMs[0] / 1000}-${stepMs[1] / 1000} s`);
      let pending: Paid | null = first;
      loops.push(
        sampleChain({
          samples: o.samples,
          steps: 2,
          newPayment: async () => {
            const p = pending ?? (await o.newPayment("TRON"));
            pending = null;
            return p;
          },
          mine: () => tron.mine(m),
          pay: async (p) => {
            await tron.pay([{ to: p.address, coin: "TRON", units: p.units }]);
            await tron.mine(1);
          },
          filler: () => tron.mine(1),
          stepMs,
        }).then((paid) => ({ chain: "TRON", paid })),
      );
    }
    const chains = await Promise.all(loops);
    const expected = chains.flatMap((c) => c.paid.flatMap((p) => [`${p.id} PAYMENT_PENDING`, `${p.id} PAYMENT_COMPLETED`]));
    const arrived = () => new Set(o.receiver.arrivals.map((a) => `${a.paymentId} ${a.type}`));
    const until = Date.now() + 3 * CHAIN_POLL_MS + 5_000;
    while (expected.some((e) => !arrived().has(e)) && Date.now() < until) await sleep(100);
    await runner.stop();

    const samples: LatencySample[] = [];
    const missing: string[] = [];
    for (const { chain, paid } of chains) {
      for (const p of paid) {
        for (const [event, ref] of [
          ["PENDING", p.pendingRef],
          ["COMPLETED", p.completedRef],
        ] as const) {
          const a = o.receiver.arrivals.find((x) => x.paymentId === p.id && x.type === `PAYMENT_${event}`);
          if (!a) {
            missing.push(`${chain} ${p.id} ${event}`);
            continue;
          }
          const changed = a.statusTimes[event];
          const tick = runner.ticks.find((t) => t.start <= changed && changed <= t.end);
          const start = tick?.start ?? NaN;
          samples.push({ chain, event, paymentId: p.id, totalMs: a.at - ref, waitMs: start - ref, processingMs: changed - start, deliveryMs: a.at - changed });
        }
      }
    }
    const FROM: Record<string, string> = {
      "LITECOIN PENDING": "broadcast → PENDING",
      "LITECOIN COMPLETED": "2nd confirmation's block → COMPLETED",
      "ETHEREUM PENDING": "transfer's block → PENDING",
      "ETHEREUM COMPLETED": "12th confirmation's block → COMPLETED",
      "TRON PENDING": "transfer's block → PENDING",
      "TRON COMPLETED": "block solidifying it → COMPLETED",
    };
    const rows = chains.flatMap(({ chain }) =>
      (["PENDING", "COMPLETED"] as const).map((event) => {
        const s = samples.filter((x) => x.chain === chain && x.event === event);
        return {
          chain,
          event,
          from: FROM[`${chain} ${event}`],
          count: s.length,
          total: quantiles(s.map((x) => x.totalMs)),
          wait: quantiles(s.map((x) => x.waitMs)),
          processing: quantiles(s.map((x) => x.processingMs)),
          delivery: quantiles(s.map((x) => x.deliveryMs)),
        };
      }),
    );
    const durations = runner.ticks.map((t) => t.end - t.start);
    return { samplesPerChain: o.samples, stepMs, pollMs: CHAIN_POLL_MS, runnerMs: 250, rows, ticks: { ...quantiles(durations), count: durations.length }, missing, samples };
  } finally {
    await runner.stop();
  }
}
