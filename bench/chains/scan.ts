import { parse as parseLosslessJson } from "lossless-json";
import type { Db } from "@/db/client";
import { query } from "../db";
import { evmFollower, litecoinFollower, rpcMs, since, snapshot, type Follower, type RpcTimes } from "./followers";
import type { LitecoinBench } from "./litecoin";
import type { EvmBench } from "./evm";
import type { ChainScan, ScanFigures, SizeFigures } from "./scan-figures";
import { median, quantiles } from "./stats";
import { seedWatched } from "./watched";

/**
 * What a watcher's tick costs against the number of watched addresses, and how fast it catches
 * up. The followers (followBitcoinChain, followEvmChain) are called directly from this process,
 * under cursors of their own, with the runner stopped; the watched addresses are open payments'
 * charges seeded in the database (watched.ts), stamped (`changed_at`) two minutes back, as charges
 * made over time are: a kept watch set (lib/chains/watch-list.ts) reads again only what changed
 * in the last minute. At each size:
 * - the watch set's load alone: the one statement (watchedCharges) and the Set built from it;
 * - idle ticks (no new block, empty mempool): the fixed cost of a tick, with the watch set kept
 *   between ticks (as the service runs) and, interleaved with them, read whole on every tick (as
 *   before it was kept): the change measured in one run;
 * - ticks reading one new block of `txsPerBlock` transactions to random addresses plus
 *   `watchedPerBlock` paying watched charges: the per-block cost is such a tick less an idle one.
 * Between sizes the payments paid are confirmed to the end and then aged past the late-payment
 * window (their updated_at moved 8 days back), so that every size starts with no recently closed
 * payment: each of those is watched for late money, and a tick that reads a new block counts
 * its transfers' confirmations again and reconciles it (the `recent` measurement prices that).
 * Then, at the largest size:
 * - `recent`: ticks of blocks paying no watched charge, without and then with `recentPaid`
 *   payments closed within the window (marked paid in the database at the tip);
 * - `fresh`: idle ticks with 1 000 charges made within the last minute, which a kept watch set
 *   reads again on every tick (its overlap for transactions that commit late);
 * - catch-up: `catchUpBlocks` blocks mined while no tick ran, read by one tick.
 */

async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const t0 = performance.now();
  const r = await fn();
  return [r, performance.now() - t0];
}

/** The newest Litecoin block read as the client reads it, split into its parts. */
async function blockRead(ltc: LitecoinBench) {
  const u = new URL(ltc.url);
  const auth = `Basic ${Buffer.from(`${decodeURIComponent(u.username)}:${decodeURIComponent(u.password)}`).toString("base64")}`;
  const hash = await ltc.rpc.call<string>("getbestblockhash");
  const t0 = performance.now();
  const res = await fetch(ltc.rpc.endpoint, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: auth },
    body: JSON.stringify({ jsonrpc: "1.0", id: 1, method: "getblock", params: [hash, 2] }),
  });
  const text = await res.text();
  const t1 = performance.now();
  parseLosslessJson(text, null, (s: string) => s);
  const t2 = performance.now();
  JSON.parse(text);
  const t3 = performance.now();
  const r = (x: number) => Math.round(x * 10) / 10;
  return { bytes: text.length, fetchMs: r(t1 - t0), losslessParseMs: r(t2 - t1), jsonParseMs: r(t3 - t2) };
}

/** Moves every closed payment's last change 8 days back: past the late-payment window, no longer watched. */
async function ageClosedPayments(db: Db) {
  await query(db, `update payments set updated_at = now() - interval '8 days' where status in ('COMPLETED', 'FAILED', 'CANCELLED', 'EXPIRED')`);
}

/** `n` seeded payments of `addresses` paid in full in the block at the tip and closed now: as the watcher leaves a payment it completed. */
async function markPaid(db: Db, addresses: string[], tip: { height: number; hash: string }) {
  const { sql } = await import("drizzle-orm");
  await query(
    db,
    sql`with picked as (
          select c.payment_id, c.address, c.quoted_units from charges c
          where c.address = any(string_to_array(${addresses.join(",")}, ','))
        ), t as (
          insert into transfers (payment_id, tx_id, amount, confirmations, block_number, block_hash, to_address, seen_at, updated_at)
          select payment_id, md5(payment_id::text) || ':0', quoted_units, 1, ${String(tip.height)}, ${tip.hash}, address, now(), now() from picked
        )
        update payments set status = 'COMPLETED', updated_at = now() where id in (select payment_id from picked)`,
  );
}

export async function measureScan(o: {
  db: Db;
  businessId: number;
  ltc: LitecoinBench | null;
  evm: EvmBench | null;
  sizes: number[];
  blocksPerSize: number;
  txsPerBlock: number;
  watchedPerBlock: number;
  recentPaid: number;
  catchUpBlocks: number;
  catchUpTxsPerBlock: number;
  log: (s: string) => void;
}): Promise<ScanFigures> {
  const followers: Follower[] = [];
  if (o.ltc) followers.push(await litecoinFollower(o.db, o.ltc));
  if (o.evm) followers.push(await evmFollower(o.db, o.evm));
  const out: ChainScan[] = followers.map((f) => ({ chain: f.chain, txsPerBlock: o.txsPerBlock, watchedPerBlock: o.watchedPerBlock, sizes: [] }));
  const unpaid = new Map<string, string[]>(followers.map((f) => [f.chain, []]));
  for (const f of followers) await f.tick(); // the first tick starts at the tip
  await ageClosedPayments(o.db); // the latency part's payments

  /** Confirms every payment paid so far to the end, then ages them out of the late-payment window. */
  async function settle() {
    for (const f of followers) {
      await f.mineEmpty(f.required);
      await f.tick();
    }
    await ageClosedPayments(o.db);
  }

  async function blockTicks(f: Follower, blocks: number, watched: () => string[], tick = f.tick) {
    const ticks: number[] = [];
    const rpcs: RpcTimes[] = [];
    let transfers = 0;
    let reconciled = 0;
    for (let b = 0; b < blocks; b++) {
      await f.block(o.txsPerBlock, watched());
      const before = snapshot(f.times);
      const [r, ms] = await timed(tick);
      if (r.from !== r.to || !r.followed) throw new Error(`${f.chain}: a block tick read ${r.from}-${r.to}`);
      ticks.push(ms);
      rpcs.push(since(before, f.times));
      transfers += r.transfers;
      reconciled += r.reconciled;
    }
    return { ticks, rpcs, transfers, reconciled };
  }

  let seeded = 0;
  for (const size of o.sizes) {
    for (const [i, f] of followers.entries()) {
      const addresses = Array.from({ length: size - seeded }, f.newAddress);
      const [, ms] = await timed(() => seedWatched(o.db, { businessId: o.businessId, coin: f.chain, addresses, units: f.units, rate: f.rate }));
      unpaid.get(f.chain)!.push(...addresses);
      out[i].sizes.push({ watched: size, seedSeconds: Math.round(ms / 100) / 10 } as SizeFigures);
    }
    seeded = size;
    // Made over time, not in the last minute: a kept watch set reads them at its full read only.
    await query(o.db, `update charges set changed_at = least(changed_at, now() - interval '2 minutes')`);
    for (const t of ["payments", "charges", "transfers"]) await query(o.db, `vacuum analyze ${t}`);
    o.log(`scan: ${size.toLocaleString("en")} watched addresses per chain seeded (${out.map((c) => `${c.chain} ${c.sizes.at(-1)!.seedSeconds} s`).join(", ")})`);

    for (const [i, f] of followers.entries()) {
      const fig = out[i].sizes.at(-1)!;
      const loads = [];
      for (let r = 0; r < 5; r++) loads.push(await f.loadWatchSet(o.db));
      // The payments paid at the smaller sizes are closed and out of the window by now.
      if (loads[0].size < size * 0.9) throw new Error(`${f.chain}: the watch set holds ${loads[0].size} addresses, ${size} were seeded`);
      fig.watchSet = loads[0].size;
      fig.loadQueryMs = median(loads.map((l) => l.queryMs));
      fig.loadBuildMs = median(loads.map((l) => l.buildMs));
      // A new kept set, read whole by its first tick (as after a start, or its periodic full read).
      f.resetWatch();
      await f.tick();
      const idle: number[] = [];
      const idleReloading: number[] = [];
      for (let r = 0; r < 5; r++) {
        idle.push((await timed(f.tick))[1]);
        idleReloading.push((await timed(f.tickReloading))[1]);
      }
      // One-block ticks, kept and read whole in turn.
      const scan = { ticks: [] as number[], rpcs: [] as RpcTimes[] };
      const scanReloading: number[] = [];
      for (let r = 0; r < 3; r++) {
        const kept = await blockTicks(f, 1, () => []);
        scan.ticks.push(...kept.ticks);
        scan.rpcs.push(...kept.rpcs);
        scanReloading.push(...(await blockTicks(f, 1, () => [], f.tickReloading)).ticks);
      }
      // Ten blocks read by one tick: the per-block cost with the tick's fixed part paid once.
      for (let b = 0; b < 10; b++) await f.block(o.txsPerBlock, []);
      const before10 = snapshot(f.times);
      const [r10, ms10] = await timed(f.tick);
      if (r10.to! - r10.from! + 1 !== 10) throw new Error(`${f.chain}: the ten-block tick read ${r10.from}-${r10.to}`);
      const rpc10 = since(before10, f.times);
      const paid = await blockTicks(f, o.blocksPerSize, () => unpaid.get(f.chain)!.splice(0, o.watchedPerBlock));
      const r1 = (x: number) => Math.round(x * 10) / 10;
      Object.assign(fig, {
        idleTick: quantiles(idle),
        idleTickReloading: quantiles(idleReloading),
        scanTick: quantiles(scan.ticks),
        scanTickReloading: quantiles(scanReloading),
        tenBlockTickMs: r1(ms10),
        scanPerBlockMs: r1((ms10 - median(idle)) / 10),
        scanRpcMs: r1(rpcMs(rpc10) / 10),
        blockReadMs: r1((rpc10[f.blockReadMethod]?.ms ?? 0) / 10),
        paidTick: quantiles(paid.ticks),
        paidPerBlockMs: r1(median(paid.ticks) - median(scan.ticks)),
        transfersPerPaidBlock: paid.transfers / o.blocksPerSize,
        reconciledPerPaidBlock: paid.reconciled / o.blocksPerSize,
        rpc: { scan: scan.rpcs, tenBlocks: rpc10, paid: paid.rpcs },
      } satisfies Partial<SizeFigures>);
      if (f.watchReads().full !== 1) throw new Error(`${f.chain}: the kept watch set was read whole ${f.watchReads().full} times`);
      o.log(
        `scan ${f.chain} ${size.toLocaleString("en")} watched: load ${fig.loadQueryMs.toFixed(1)} + ${fig.loadBuildMs.toFixed(1)} ms, idle tick ${fig.idleTick.p50} ms (read whole ${fig.idleTickReloading.p50} ms), ` +
          `block tick ${fig.scanTick.p50} ms, 10 blocks ${fig.tenBlockTickMs} ms (per block ${fig.scanPerBlockMs} ms, RPC ${fig.scanRpcMs} ms, block read ${fig.blockReadMs} ms), ` +
          `with ${o.watchedPerBlock} payments ${fig.paidTick.p50} ms`,
      );
      if (f.chain === "LITECOIN" && size === o.sizes[o.sizes.length - 1]) {
        await f.block(o.txsPerBlock, []);
        out[i].blockRead = await blockRead(o.ltc!);
        await f.tick();
      }
    }
    await settle();
  }

  if (o.recentPaid > 0) {
    for (const [i, f] of followers.entries()) {
      const without = await blockTicks(f, 3, () => []);
      const left = unpaid.get(f.chain)!;
      const picked = left.splice(left.length - Math.max(0, Math.min(o.recentPaid, left.length - o.catchUpBlocks)));
      await markPaid(o.db, picked, await f.tip());
      const withPaid = await blockTicks(f, 3, () => []);
      const perPaidPaymentMs = Math.round(((median(withPaid.ticks) - median(without.ticks)) / picked.length) * 1000) / 1000;
      out[i].recent = {
        watched: o.sizes[o.sizes.length - 1],
        paid: picked.length,
        without: quantiles(without.ticks),
        with: quantiles(withPaid.ticks),
        reconciledWith: withPaid.reconciled / 3,
        perPaidPaymentMs,
      };
      o.log(`recent ${f.chain}: a block tick ${median(without.ticks).toFixed(0)} ms, with ${picked.length} payments closed within the window ${median(withPaid.ticks).toFixed(0)} ms (${perPaidPaymentMs} ms each)`);
    }
    await ageClosedPayments(o.db);
  }

  // Charges made within the last minute: a kept watch set reads them again on every tick.
  for (const [i, f] of followers.entries()) {
    const without: number[] = [];
    for (let r = 0; r < 5; r++) without.push((await timed(f.tick))[1]);
    await seedWatched(o.db, { businessId: o.businessId, coin: f.chain, addresses: Array.from({ length: 1000 }, f.newAddress), units: f.units, rate: f.rate });
    await f.tick(); // the new charges' first read
    const withFresh: number[] = [];
    for (let r = 0; r < 5; r++) withFresh.push((await timed(f.tick))[1]);
    out[i].fresh = { watched: o.sizes[o.sizes.length - 1], charges: 1000, without: quantiles(without), with: quantiles(withFresh) };
    o.log(`fresh ${f.chain}: an idle tick ${median(without).toFixed(1)} ms, with 1,000 charges made in the last minute ${median(withFresh).toFixed(1)} ms`);
  }

  if (o.catchUpBlocks > 0) {
    for (const [i, f] of followers.entries()) {
      await f.tick();
      const t0 = performance.now();
      const watched = unpaid.get(f.chain)!;
      for (let b = 0; b < o.catchUpBlocks; b++) await f.block(o.catchUpTxsPerBlock, b % 50 === 0 ? watched.splice(0, 1) : []);
      const mineSeconds = (performance.now() - t0) / 1000;
      o.log(`catch-up ${f.chain}: ${o.catchUpBlocks} blocks mined in ${mineSeconds.toFixed(1)} s while no tick ran; one tick reads them…`);
      const before = snapshot(f.times);
      const [r, ms] = await timed(f.tick);
      if (!r.followed || r.to! - r.from! + 1 !== o.catchUpBlocks) throw new Error(`${f.chain}: the catch-up tick read ${r.from}-${r.to}`);
      out[i].catchUp = {
        blocks: o.catchUpBlocks,
        txsPerBlock: o.catchUpTxsPerBlock,
        watched: o.sizes[o.sizes.length - 1],
        seconds: Math.round(ms) / 1000,
        blocksPerSecond: Math.round((o.catchUpBlocks / ms) * 1000),
        transfers: r.transfers,
        rpc: since(before, f.times),
        mineSeconds: Math.round(mineSeconds * 10) / 10,
      };
      o.log(`catch-up ${f.chain}: ${o.catchUpBlocks} blocks in ${(ms / 1000).toFixed(2)} s = ${out[i].catchUp!.blocksPerSecond} blocks/s (${r.transfers} transfers)`);
    }
  }
  return { chains: out };
}
