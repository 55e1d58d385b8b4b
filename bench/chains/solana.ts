/**
 * `npm run bench -- --chains solana`: the Solana watcher's cost per tick against the fake Solana
 * node (LiteSVM behind JSON-RPC, test/chains/nodes/solana-node.ts, served from this process: no
 * validator runs here), with 10 000 open charges of one live business, each with its reference:
 * 1. every charge due (all chosen in the last ten minutes): calls and time per tick;
 * 2. charges of every age up to a day, the backoff in force (the runner's steady state): the same;
 * 3. the first tick after a start (every reference asked, with `all`) and the minute's sweep;
 * 4. latency: a payment to a fresh charge's transfer request → COMPLETED, ticking every
 *    CHAIN_POLL_MS as the runner does (median of a few).
 * The node's own work (HTTP, JSON, the signature index) is part of each call's cost.
 * Prints a table and writes the figures to bench/results/<date>-solana.json.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import { sql } from "drizzle-orm";
import { closeDb, openDb, query } from "../db";
import type { Options } from "../options";
import { machine } from "../report";
import { prepareTarget, pointThisProcessAt } from "../target";
import { seedWatched } from "./watched";

const log = (s: string) => console.log(`[bench ${new Date().toISOString().slice(11, 19)}] ${s}`);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function runSolanaChains(o: Options): Promise<void> {
  const target = await prepareTarget(o.dbs[0], o);
  const { startSolanaNode } = await import("../../test/chains/nodes/solana-node");
  const { SolanaWallet } = await import("../../test/chains/nodes/solana-wallet");
  const node = await startSolanaNode();
  try {
    pointThisProcessAt(target, o.port);
    const db = await openDb();
    const { createBusiness } = await import("@/lib/businesses/businesses");
    const { followSolana } = await import("@/lib/chains/solana/follower");
    const { solanaClient } = await import("@/lib/chains/solana/rpc");
    const { reconcilePayment } = await import("@/lib/payments/reconcile");
    const { newSolanaReference } = await import("@/lib/wallets/solana");
    const { findPaymentById } = await import("@/db/queries/payments-read");
    const { CHAIN_POLL_MS } = await import("@/lib/chains/follow");

    const payer = await SolanaWallet.funded(node.url, 10n ** 12n);
    const merchant = (await SolanaWallet.funded(node.url, 10n ** 9n)).address;
    const { businessId } = await createBusiness(db, { name: "Solana bench", mode: "live", enabledCoins: ["SOLANA"], solanaWallet: merchant } as Parameters<typeof createBusiness>[1]);
    const N = 10_000;
    const units = 123_456_789n;
    await seedWatched(db, { businessId, coin: "SOLANA", addresses: Array.from({ length: N }, () => merchant), units, rate: "150" });
    const refs = Array.from({ length: N }, () => newSolanaReference());
    await query(db, sql`insert into solana_references (payment_id, reference, created_at)
      select c.payment_id, r.reference, now() from (select payment_id, row_number() over (order by payment_id) as n from charges join payments on payments.id = charges.payment_id where payments.business_id = ${businessId}) c
      join (select reference, row_number() over () as n from unnest(string_to_array(${refs.join(",")}, ',')) reference) r using (n)`);
    log(`${N} open SOLANA charges of one live business, each with its reference; load ${os.loadavg().map((l) => l.toFixed(2)).join(" ")}`);

    const rpc = solanaClient(node.url);
    let clock = Date.now();
    const options = { rpc, net: "regtest" as const, owner: "bench", cursor: "SOLANA-bench", lateWindowMs: 7 * 86_400_000, decide: reconcilePayment, mints: new Map(), now: () => new Date(clock) };
    const calls = () => [...node.calls.values()].reduce((a, b) => a + b, 0);
    /** One tick at the bench's clock: wall time, this process's CPU time, and calls to the node by method. */
    async function tick(extra: { all?: boolean; sweep?: boolean } = {}) {
      const before = new Map(node.calls);
      const n0 = calls();
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      const r = await followSolana(db, { ...options, ...extra });
      const ms = performance.now() - t0;
      const cpu = process.cpuUsage(cpu0);
      const byMethod = Object.fromEntries([...node.calls].map(([m, c]) => [m, c - (before.get(m) ?? 0)]).filter(([, c]) => (c as number) > 0));
      return { ms: Math.round(ms), cpuMs: Math.round((cpu.user + cpu.system) / 1000), calls: calls() - n0, byMethod, transfers: r.transfers };
    }
    await tick(); // the cursor's first tick: at the tip, every reference asked

    const result: Record<string, unknown> = { startedAt: new Date().toISOString(), database: o.dbs[0], machine: machine(), openCharges: N };
    // 1. All charges young: each asked every tick.
    const young = [];
    for (let i = 0; i < 3; i++) {
      clock += CHAIN_POLL_MS;
      young.push(await tick());
    }
    result.allDue = young;
    log(`all due: ${young.map((t) => `${t.calls} calls ${t.ms} ms`).join("; ")}`);

    // 2. Ages spread over a day (uniformly), the backoff in force.
    await query(db, sql`update charges set created_at = now() - (random() * interval '24 hours') from payments where payments.id = charges.payment_id and payments.business_id = ${businessId}`);
    clock += CHAIN_POLL_MS;
    result.firstAfterStart = await tick({ all: true });
    const steady = [];
    for (let i = 0; i < 12; i++) {
      clock += CHAIN_POLL_MS;
      steady.push(await tick());
    }
    result.backoff = steady;
    log(`ages over a day, backoff: calls per tick ${steady.map((t) => t.calls).join(",")}; ms ${steady.map((t) => t.ms).join(",")}`);
    clock += CHAIN_POLL_MS;
    result.sweep = await tick({ sweep: true });

    // 4. Latency: pay a fresh charge's reference and tick every CHAIN_POLL_MS until it completes (a payment lands at a random point between ticks).
    const latency = [];
    for (let i = 0; i < 5; i++) {
      const [p] = await query<{ payment_id: string; reference: string }>(db, sql`select c.payment_id, r.reference from charges c join solana_references r using (payment_id) join payments p on p.id = c.payment_id where p.status = 'AWAITING_PAYMENT' and p.business_id = ${businessId} order by c.created_at desc limit 1`);
      await query(db, sql`update charges set created_at = now() where payment_id = ${p.payment_id}::uuid`);
      const paidAt = performance.now();
      const offset = Math.random() * CHAIN_POLL_MS;
      await payer.pay({ recipient: merchant, amount: units, reference: p.reference });
      await new Promise((r) => setTimeout(r, offset));
      clock = Date.now();
      const t = await tick();
      const status = (await findPaymentById(db, p.payment_id))!.status;
      latency.push({ ms: Math.round(performance.now() - paidAt), tickMs: t.ms, status });
    }
    result.latency = latency;
    result.summary = {
      allDue: { callsPerTick: median(young.map((t) => t.calls)), msPerTick: median(young.map((t) => t.ms)), cpuMsPerTick: median(young.map((t) => t.cpuMs)) },
      backoff: { callsPerTick: median(steady.map((t) => t.calls)), msPerTick: median(steady.map((t) => t.ms)), cpuMsPerTick: median(steady.map((t) => t.cpuMs)) },
      firstAfterStart: result.firstAfterStart,
      sweep: result.sweep,
      paidToCompletedMs: median(latency.map((l) => l.ms)),
    };
    console.log(JSON.stringify(result.summary, null, 2));
    const dir = new URL("../results/", import.meta.url).pathname;
    mkdirSync(dir, { recursive: true });
    const file = `${dir}${new Date().toISOString().slice(0, 10)}-solana.json`;
    writeFileSync(file, JSON.stringify(result, null, 2));
    console.log(`raw figures: ${file}`);
    await closeDb();
  } finally {
    await closeDb().catch(() => undefined);
    await node.close();
    target.cleanup();
  }
}
