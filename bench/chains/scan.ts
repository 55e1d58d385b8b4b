import type { Db } from "@/db/client";
import { query } from "../db";
import { evmFollower, litecoinFollower, rpcMs, since, snapshot, tronFollower, type Follower, type RpcTimes } from "./followers";
import type { LitecoinBench } from "./litecoin";
import type { EvmBench } from "./evm";
import type { ChainScan, ScanFigures, SizeFigures } from "./scan-figures";
import { litecoinBlockRead, tronBlockRead } from "./scan-reads";
import { median, quantiles } from "./stats";
import type { TronBench } from "./tron";

/**
 * What a watcher's tick costs against the number of watched addresses, and how fast it catches
 * up. The followers (followBitcoinChain, followEvmChain, followTronChain) are called directly
 * from this process, under cursors of their own, with the runner stopped; the watched addresses
 * are open payments' charges seeded in the database (watched.ts), stamped (`changed_at`) two
 * minutes back, as charges made over time are: a kept watch set (lib/chains/watch-list.ts) reads
 * again only what changed in the last minute. At each size:
 * - the watch set's load alone: the one statement (watchedCharges) and the Set built from it;
 * - idle ticks (no new block, empty mempool): the fixed cost of a tick, with the watch set kept
 *   between ticks (as the service runs) and, interleaved with them, read whole on every tick (as
 *   before it was kept): the change measured in one run;
 * - ticks reading one new block of `txsPerBlock` transactions to random addresses (TRON: the
 *   follower's own traffic, 20 TRX and 20 USDT transfers) plus `watchedPerBlock` paying watched
 *   charges; the per-block cost is a tick reading ten such blocks (the median of three) less an
 *   idle one, ÷ 10, in wall-clock time and in this process's CPU time (timedCpu).
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

/**
 * As `timed`, with this process's CPU time over the call in ms (user + system, every thread):
 * PGlite and the fake TRON node run in this process, so for TRON it is the whole work, and on a
 * shared machine it moves far less with the other processes' load than the wall clock does.
 */
async function timedCpu<T>(fn: () => Promise<T>): Promise<[T, number, number]> {
  const c0 = process.cpuUsage();
  const [r, ms] = await timed(fn);
  const c = process.cpuUsage(c0);
  return [r, ms, (c.user + c.system) / 1000];
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
  tron: TronBench | null;
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
  if (o.tron) followers.push(await tronFollower(o.db, o.tron));
  const out: ChainScan[] = followers.map((f) => ({
    chain: f.chain,
    txsPerBlock: f.txsPerBlock ?? o.txsPerBlock,
    ...(f.traffic ? { traffic: f.traffic } : {}),
    watchedPerBlock: o.watchedPerBlock,
    sizes: [],
  }));
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
      await f.block(f.txsPerBlock ?? o.txsPerBlock, watched());
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
      const [addresses, ms] = await timed(() => f.seed(o.db, o.businessId, size - seeded));
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
      const idleCpu: number[] = [];
      const idleReloading: number[] = [];
      for (let r = 0; r < 5; r++) {
        const [, ms, cpu] = await timedCpu(f.tick);
        idle.push(ms);
        idleCpu.push(cpu);
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
      // Ten blocks read by one tick, three times: the per-block cost with the tick's fixed part paid once (the median tick's).
      const tens: { ms: number; cpu: number; rpc: RpcTimes }[] = [];
      for (let k = 0; k < 3; k++) {
        for (let b = 0; b < 10; b++) await f.block(f.txsPerBlock ?? o.txsPerBlock, []);
        const before10 = snapshot(f.times);
        const [r10, ms, cpu] = await timedCpu(f.tick);
        if (r10.to! - r10.from! + 1 !== 10) throw new Error(`${f.chain}: the ten-block tick read ${r10.from}-${r10.to}`);
        tens.push({ ms, cpu, rpc: since(before10, f.times) });
      }
      const { ms: ms10, rpc: rpc10 } = [...tens].sort((a, b) => a.ms - b.ms)[1];
      const paid = await blockTicks(f, o.blocksPerSize, () => unpaid.get(f.chain)!.splice(0, o.watchedPerBlock));
      const r1 = (x: number) => Math.round(x * 10) / 10;
      Object.assign(fig, {
        idleTick: quantiles(idle),
        idleTickReloading: quantiles(idleReloading),
        scanTick: quantiles(scan.ticks),
        scanTickReloading: quantiles(scanReloading),
        idleTickCpuMs: r1(median(idleCpu)),
        tenBlockTickMs: r1(ms10),
        tenBlockTicksMs: tens.map((t) => r1(t.ms)),
        scanPerBlockMs: r1((ms10 - median(idle)) / 10),
        scanPerBlockCpuMs: r1((median(tens.map((t) => t.cpu)) - median(idleCpu)) / 10),
        scanRpcMs: r1(rpcMs(rpc10) / 10),
        blockReadMs: r1(f.blockReadMethods.reduce((sum, m) => sum + (rpc10[m]?.ms ?? 0), 0) / 10),
        paidTick: quantiles(paid.ticks),
        paidPerBlockMs: r1(median(paid.ticks) - median(scan.ticks)),
        transfersPerPaidBlock: paid.transfers / o.blocksPerSize,
        reconciledPerPaidBlock: paid.reconciled / o.blocksPerSize,
        rpc: { scan: scan.rpcs, tenBlocks: rpc10, paid: paid.rpcs },
      } satisfies Partial<SizeFigures>);
      if (f.watchReads().full !== 1) throw new Error(`${f.chain}: the kept watch set was read whole ${f.watchReads().full} times`);
      o.log(
        `scan ${f.chain} ${size.toLocaleString("en")} watched: load ${fig.loadQueryMs.toFixed(1)} + ${fig.loadBuildMs.toFixed(1)} ms, idle tick ${fig.idleTick.p50} ms (read whole ${fig.idleTickReloading.p50} ms), ` +
          `block tick ${fig.scanTick.p50} ms, 10 blocks ${fig.tenBlockTickMs} ms (per block ${fig.scanPerBlockMs} ms, CPU ${fig.scanPerBlockCpuMs} ms, RPC ${fig.scanRpcMs} ms, block read ${fig.blockReadMs} ms), ` +
          `with ${o.watchedPerBlock} payments ${fig.paidTick.p50} ms`,
      );
      if (size === o.sizes[o.sizes.length - 1] && f.chain !== "ETHEREUM") {
        await f.block(f.txsPerBlock ?? o.txsPerBlock, []);
        if (f.chain === "LITECOIN") out[i].blockRead = await litecoinBlockRead(o.ltc!);
        else out[i].tronRead = await tronBlockRead(o.tron!);
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
    await f.seed(o.db, o.businessId, 1000);
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
      const txs = f.txsPerBlock ?? o.catchUpTxsPerBlock;
      for (let b = 0; b < o.catchUpBlocks; b++) await f.block(txs, b % 50 === 0 ? watched.splice(0, 1) : []);
      const mineSeconds = (performance.now() - t0) / 1000;
      o.log(`catch-up ${f.chain}: ${o.catchUpBlocks} blocks mined in ${mineSeconds.toFixed(1)} s while no tick ran; one tick reads them…`);
      const before = snapshot(f.times);
      const [r, ms, cpu] = await timedCpu(f.tick);
      if (!r.followed || r.to! - r.from! + 1 !== o.catchUpBlocks) throw new Error(`${f.chain}: the catch-up tick read ${r.from}-${r.to}`);
      out[i].catchUp = {
        blocks: o.catchUpBlocks,
        txsPerBlock: txs,
        watched: o.sizes[o.sizes.length - 1],
        seconds: Math.round(ms) / 1000,
        cpuSeconds: Math.round(cpu) / 1000,
        blocksPerSecond: Math.round((o.catchUpBlocks / ms) * 1000),
        transfers: r.transfers,
        rpc: since(before, f.times),
        mineSeconds: Math.round(mineSeconds * 10) / 10,
      };
      o.log(`catch-up ${f.chain}: ${o.catchUpBlocks} blocks in ${(ms / 1000).toFixed(2)} s = ${out[i].catchUp!.blocksPerSecond} blocks/s (${r.transfers} transfers; CPU ${(cpu / 1000).toFixed(2)} s)`);
    }
  }
  return { chains: out };
}
