/**
 * `npm run bench -- --chains ton`: the TON watcher's cost per tick against the fake toncenter
 * (test/chains/nodes/ton-node.ts: the TVM emulator behind toncenter v2, served from this process:
 * no TON node runs here), with 10 000 open TON payments of one live business on one merchant
 * address, each with its comment:
 * 1. idle ticks (nothing new on the wallet): calls and time per tick;
 * 2. a tick after 100 payments reached the wallet (100 of the open payments paid by comment);
 * 3. latency: a payment → COMPLETED, ticking every CHAIN_POLL_MS as the runner does (median of a few).
 * Prints the summary and writes the figures to bench/results/<date>-ton.json.
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

export async function runTonChains(o: Options): Promise<void> {
  const target = await prepareTarget(o.dbs[0], o);
  const { TonNode } = await import("../../test/chains/nodes/ton-node");
  const node = await TonNode.start();
  try {
    pointThisProcessAt(target, o.port);
    const db = await openDb();
    const { createBusiness } = await import("@/lib/businesses/businesses");
    const { followTon } = await import("@/lib/chains/ton/follower");
    const { reconcilePayment } = await import("@/lib/payments/reconcile");
    const { newTonComment } = await import("@/lib/wallets/ton");
    const { findPaymentById } = await import("@/db/queries/payments-read");
    const { CHAIN_POLL_MS } = await import("@/lib/chains/follow");

    const payer = await node.wallet("bench-payer");
    const merchant = (await node.wallet("bench-merchant")).address;
    const friendly = merchant.toString({ bounceable: false });
    const { businessId } = await createBusiness(db, { name: "TON bench", mode: "live", enabledCoins: ["TON"], tonWallet: friendly } as Parameters<typeof createBusiness>[1]);
    await query(db, sql`update ton_wallets set updated_at = now() - interval '1 minute' where business_id = ${businessId}`);
    const N = 10_000;
    const units = 1_234_567_890n;
    await seedWatched(db, { businessId, coin: "TON", addresses: Array.from({ length: N }, () => friendly), units, rate: "5" });
    const comments = Array.from({ length: N }, () => newTonComment());
    await query(db, sql`insert into ton_comments (payment_id, comment, created_at)
      select c.payment_id, r.comment, now() from (select payment_id, row_number() over (order by payment_id) as n from charges join payments on payments.id = charges.payment_id where payments.business_id = ${businessId}) c
      join (select comment, row_number() over () as n from unnest(string_to_array(${comments.join(",")}, ',')) comment) r using (n)`);
    log(`${N} open TON payments of one live business on one merchant address, each with its comment; load ${os.loadavg().map((l) => l.toFixed(2)).join(" ")}`);

    let clock = Date.now();
    const options = { api: { url: node.url, apiKey: undefined }, net: "regtest" as const, owner: "bench", cursor: "TON-bench", lateWindowMs: 7 * 86_400_000, decide: reconcilePayment, jettonWallets: async () => new Map(), now: () => new Date(clock) };
    const calls = () => [...node.calls.values()].reduce((a, b) => a + b, 0);
    async function tick() {
      const before = new Map(node.calls);
      const n0 = calls();
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      const r = await followTon(db, options);
      const ms = performance.now() - t0;
      const cpu = process.cpuUsage(cpu0);
      const byMethod = Object.fromEntries([...node.calls].map(([m, c]) => [m, c - (before.get(m) ?? 0)]).filter(([, c]) => (c as number) > 0));
      return { ms: Math.round(ms), cpuMs: Math.round((cpu.user + cpu.system) / 1000), calls: calls() - n0, byMethod, transfers: r.transfers };
    }
    await tick(); // the cursor's first tick
    const result: Record<string, unknown> = { startedAt: new Date().toISOString(), database: o.dbs[0], machine: machine(), openPayments: N };

    // 1. Idle: nothing new on the wallet.
    const idle = [];
    for (let i = 0; i < 5; i++) {
      clock += CHAIN_POLL_MS;
      node.keep({ transactions: [], events: [], externals: [] } as never); // a new masterchain block
      idle.push(await tick());
    }
    result.idle = idle;
    log(`idle: ${idle.map((t) => `${t.calls} calls ${t.ms} ms`).join("; ")}`);

    // 2. 100 payments arrive between two ticks.
    const paid = await query<{ payment_id: string; comment: string }>(db, sql`select c.payment_id, t.comment from charges c join ton_comments t using (payment_id) join payments p on p.id = c.payment_id where p.business_id = ${businessId} order by random() limit 100`);
    for (const p of paid) await node.pay(payer, merchant, units, p.comment);
    clock += CHAIN_POLL_MS;
    result.hundredPaid = await tick();
    log(`100 payments: ${JSON.stringify(result.hundredPaid)}`);

    // 3. Latency: a payment lands at a random point between ticks.
    const latency = [];
    for (let i = 0; i < 5; i++) {
      const [p] = await query<{ payment_id: string; comment: string }>(db, sql`select c.payment_id, t.comment from charges c join ton_comments t using (payment_id) join payments p on p.id = c.payment_id where p.status = 'AWAITING_PAYMENT' and p.business_id = ${businessId} limit 1`);
      const paidAt = performance.now();
      await node.pay(payer, merchant, units, p.comment);
      await new Promise((r) => setTimeout(r, Math.random() * CHAIN_POLL_MS));
      clock = Date.now();
      const t = await tick();
      latency.push({ ms: Math.round(performance.now() - paidAt), tickMs: t.ms, status: (await findPaymentById(db, p.payment_id))!.status });
    }
    result.latency = latency;
    result.summary = {
      idle: { callsPerTick: median(idle.map((t) => t.calls)), msPerTick: median(idle.map((t) => t.ms)), cpuMsPerTick: median(idle.map((t) => t.cpuMs)) },
      hundredPaid: result.hundredPaid,
      paidToCompletedMs: median(latency.map((l) => l.ms)),
      statuses: latency.map((l) => l.status),
    };
    console.log(JSON.stringify(result.summary, null, 2));
    const dir = new URL("../results/", import.meta.url).pathname;
    mkdirSync(dir, { recursive: true });
    const file = `${dir}${new Date().toISOString().slice(0, 10)}-ton.json`;
    writeFileSync(file, JSON.stringify(result, null, 2));
    console.log(`raw figures: ${file}`);
    await closeDb();
  } finally {
    await closeDb().catch(() => undefined);
    await node.stop();
    target.cleanup();
  }
}
