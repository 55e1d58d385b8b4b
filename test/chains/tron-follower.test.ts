import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb, type Db } from "@/db/client";
import { paymentEvents } from "@/db/schema";
import type { CoinName } from "@/domain/coins";
import { RECENT_BLOCKS } from "@/lib/chains/cursor-walk";
import { locateTronTx, readTronBlock, readTxInfos, trxTransfersOf, type TronClient } from "@/lib/chains/tron/rpc";
import { matchTrc20Transfers, matchTrxTransfers } from "@/lib/chains/tron/scan";
import { oneChainFileAtATime } from "../serial";
import { startTronNode, type TronAccount, type TronNode } from "./nodes/tron-node";
import { tronLivePayment, tronWatcher } from "./tron-live-payment";

/**
 * The TRON watcher (followTronChain) against the fake java-tron node over HTTP: following the
 * chain through reorganisations above the solidified block, a node that was down, a lagging
 * solidity view and a second instance. The tests share one node and run in order; each follows
 * it under a cursor of its own.
 */

const chainFile = oneChainFileAtATime();

describe("TRON chain watcher: following the chain (fake java-tron node)", () => {
  let node: TronNode;
  let db: Db;
  let usdt: { address: string; hex: string };
  let payer: TronAccount;
  let w: ReturnType<typeof tronWatcher>;

  const livePayment = (coin: CoinName) => tronLivePayment(db, coin, (id) => chainFile.retire(id));
  const eventsOf = async (id: string) =>
    (await db.select().from(paymentEvents).where(eq(paymentEvents.paymentId, id)).orderBy(asc(paymentEvents.id))).map((e) => [e.type, e.fromStatus, e.toStatus]);
  const blockId = async (height: number) => (await readTronBlock(w.client, height)).blockID;

  beforeAll(async () => {
    db = await getDb();
    node = await startTronNode();
    usdt = node.deployToken({ symbol: "USDT", decimals: 6, name: "Tether USD" });
    payer = node.newAccount();
    node.mint(usdt.address, payer.address, 10n ** 12n);
    w = tronWatcher(db, node, () => new Map([[usdt.hex, ["TRX_TETHER"]]]));
  });
  afterAll(async () => node?.stop());

  it("after a reorganisation above the solidified block, finds a transfer again in its new block, and drops one the new chain lost once dropAfterMs has passed: its payment fails", async () => {
    const o = await w.started({ dropAfterMs: 60_000 });
    const kept = await livePayment("TRON");
    const lost = await livePayment("TRX_TETHER");
    const a = await node.sendTrx(payer, kept.address, kept.units);
    const b = await node.sendToken(payer, usdt.address, lost.address, lost.units);
    const [block] = await node.mine(5);
    expect(await w.tick(o)).toMatchObject({ transfers: 2 });
    expect(await w.transfersOf(kept.id)).toMatchObject([{ txId: a, blockNumber: String(block.number), blockHash: block.blockID, confirmations: 5 }]);
    expect([await w.status(kept.id), await w.status(lost.id)]).toEqual(["PENDING", "PENDING"]);

    // The five blocks are replaced by six others; the TRX transfer goes back to the pool, the token one is gone.
    await node.reorg(5, { extra: 1, drop: [b] });
    expect(await locateTronTx(w.client, a)).toBe("pool");
    expect(await locateTronTx(w.client, b)).toBe("unknown");
    const [again] = await node.mine();
    expect(again.number).toBe(block.number + 6);
    expect(await w.tick(o)).toMatchObject({ reorgedAt: block.number - 1, transfers: 1 });
    expect(await w.transfersOf(kept.id)).toMatchObject([{ txId: a, blockNumber: String(again.number), blockHash: again.blockID, confirmations: 1, dropped: false }]);
    const [unconfirmed] = await w.transfersOf(lost.id);
    expect(unconfirmed).toMatchObject({ txId: `${b}:0`, blockNumber: null, blockHash: null, confirmations: 0, dropped: false });
    expect((await w.cursorOf(o)).recent.find((r) => r.height === block.number)).toMatchObject({ hash: await blockId(block.number) });

    // Within dropAfterMs of becoming unconfirmed it is kept; after, dropped, and its payment (nothing else standing) fails.
    const at = (ms: number) => ({ now: () => new Date(unconfirmed.updatedAt.getTime() + ms) });
    await w.tick(o, at(59_999));
    expect((await w.transfersOf(lost.id))[0].dropped).toBe(false);
    expect(await w.status(lost.id)).toBe("PENDING");
    await w.tick(o, at(60_000));
    expect(await w.transfersOf(lost.id)).toMatchObject([{ txId: `${b}:0`, amount: String(lost.units), dropped: true, confirmations: 0 }]);
    expect(await w.status(lost.id)).toBe("FAILED");
    expect((await eventsOf(lost.id)).slice(-2)).toEqual([
      ["PAYMENT_PENDING", "AWAITING_PAYMENT", "PENDING"],
      ["PAYMENT_FAILED", "PENDING", "FAILED"],
    ]);

    // The re-mined transfer completes once its new block is solidified.
    await node.mine(18);
    await w.tick(o);
    expect(await w.transfersOf(kept.id)).toMatchObject([{ blockNumber: String(again.number), confirmations: 19 }]);
    expect(await w.status(kept.id)).toBe("COMPLETED");
    expect(await w.status(lost.id)).toBe("FAILED");
  });

  it("fails its ticks while the node is down, then reads the 300 blocks mined meanwhile in one tick, the payments in them seen", async () => {
    const o = await w.started();
    const start = node.head();
    const trx = await livePayment("TRON");
    const tether = await livePayment("TRX_TETHER");
    const a = await node.sendTrx(payer, trx.address, trx.units);
    const b = await node.sendToken(payer, usdt.address, tether.address, tether.units);
    node.setDown(true);
    await expect(w.tick(o)).rejects.toThrow(/HTTP 503/);
    const [first] = await node.mine(300);
    await expect(w.tick(o)).rejects.toThrow(/HTTP 503/);
    expect((await w.cursorOf(o)).height).toBe(start);
    node.setDown(false);

    const to = node.head();
    expect(await w.tick(o)).toMatchObject({ followed: true, from: start + 1, to, transfers: 2 });
    expect(await w.transfersOf(trx.id)).toMatchObject([{ txId: a, blockNumber: String(first.number), confirmations: to - first.number + 1 }]);
    expect(await w.transfersOf(tether.id)).toMatchObject([{ txId: `${b}:0`, blockNumber: String(first.number) }]);
    expect([await w.status(trx.id), await w.status(tether.id)]).toEqual(["COMPLETED", "COMPLETED"]);
    const cursor = await w.cursorOf(o);
    expect(cursor).toMatchObject({ height: to, blockHash: await blockId(to), network: "regtest" });
    expect(cursor.recent).toHaveLength(RECENT_BLOCKS);
  });

  it("stops a tick when the chain changes while a block's transaction infos are read, and records the transfer in its new block on the next", async () => {
    const o = await w.started();
    const start = node.head();
    const p = await livePayment("TRX_TETHER");
    const b = await node.sendToken(payer, usdt.address, p.address, p.units);
    await node.mine();
    // The block is read from one chain; its infos (which name no block id) from another, where the transfer is a block later.
    let moved = false;
    const moving: TronClient = {
      async post(path, body) {
        if (path === "/wallet/gettransactioninfobyblocknum" && !moved) {
          moved = true;
          await node.reorg(1);
          await node.mine();
        }
        return w.client.post(path, body);
      },
    };
    expect(await w.tick(o, { client: moving })).toMatchObject({ followed: true, to: start, transfers: 0 });
    expect(moved).toBe(true);
    expect((await w.cursorOf(o)).height).toBe(start);
    expect(await w.tick(o)).toMatchObject({ from: start + 1, to: start + 2, transfers: 1 });
    expect(await w.transfersOf(p.id)).toMatchObject([{ txId: `${b}:0`, blockNumber: String(start + 2), blockHash: await blockId(start + 2) }]);
  });

  it("lets one instance follow the chain; the other takes over once the lease lapses, from the cursor, and a transfer is recorded once", async () => {
    const t0 = new Date();
    const clock = (ms: number) => ({ now: () => new Date(t0.getTime() + ms) });
    const a = await w.started({ owner: "a", leaseMs: 1_000, ...clock(0) });
    const b = { ...a, owner: "b" };
    await node.mine(2);
    expect(await w.tick(b, clock(500))).toMatchObject({ followed: false });
    const first = await w.tick(a, clock(500));
    expect(first).toMatchObject({ followed: true, to: node.head() });

    const p = await livePayment("TRON");
    const txid = await node.sendTrx(payer, p.address, p.units);
    await node.mine();
    // Instance a stopped: b waits out a's lease (1 s from its last tick), then goes on from a's cursor.
    expect(await w.tick(b, clock(1_400))).toMatchObject({ followed: false });
    expect(await w.tick(b, clock(1_600))).toMatchObject({ followed: true, from: first.to! + 1, to: node.head(), transfers: 1 });
    expect(await w.tick(a, clock(1_700))).toMatchObject({ followed: false });
    expect(await w.cursorOf(a)).toMatchObject({ leaseOwner: "b", height: node.head() });
    // Both again at once, after b's lease: one follows, and the transfer is still recorded once.
    await node.mine(18);
    const both = await Promise.all([w.tick(a, clock(3_000)), w.tick(b, clock(3_000))]);
    expect(both.map((r) => r.followed).sort()).toEqual([false, true]);
    expect(await w.transfersOf(p.id)).toMatchObject([{ txId: txid, confirmations: 19 }]);
    expect(await w.status(p.id)).toBe("COMPLETED");
  });

  it("with the solidity view lagging, a transfer 40 blocks deep shows 18 confirmations and does not complete; once it solidifies, it does", async () => {
    const o = await w.started();
    const p = await livePayment("TRX_TETHER");
    node.holdSolidified(node.solidified());
    try {
      await node.sendToken(payer, usdt.address, p.address, p.units);
      const [block] = await node.mine(40);
      await w.tick(o);
      expect(node.head() - block.number + 1).toBe(40);
      expect(await w.transfersOf(p.id)).toMatchObject([{ blockNumber: String(block.number), confirmations: 18 }]);
      expect(await w.status(p.id)).toBe("PENDING");
      await node.mine();
      await w.tick(o);
      expect(await w.transfersOf(p.id)).toMatchObject([{ confirmations: 18 }]);
      expect(await w.status(p.id)).toBe("PENDING");
    } finally {
      node.holdSolidified(null);
    }
    await w.tick(o);
    expect(node.solidified()).toBeGreaterThanOrEqual(Number((await w.transfersOf(p.id))[0].blockNumber));
    expect(await w.transfersOf(p.id)).toMatchObject([{ confirmations: 41 }]);
    expect(await w.status(p.id)).toBe("COMPLETED");
  });

  it("matches a block's transfers with one lookup each, whatever the number of watched addresses; a failed transaction's log pays nothing", async () => {
    await node.mineBusy(1, { trx: 20, token: { contract: usdt.address, count: 10 } });
    const block = await readTronBlock(w.client, node.head(), { detail: true });
    const infos = await readTxInfos(w.client, node.head());
    const tokens = new Map([[usdt.hex, ["TRX_TETHER"] as CoinName[]]]);
    const trxTo = trxTransfersOf(block)[3].to;
    const tokenTo = `41${infos.find((i) => i.log)!.log![0].topics[2].slice(24)}`;
    /** The watched set: `extra` other addresses and the two paid ones, counting its lookups. */
    const watching = (extra: number) => {
      const set = new Set([trxTo, tokenTo]);
      for (let i = 0; set.size < extra + 2; i++) set.add(`41${i.toString(16).padStart(40, "0")}`);
      const counted = { lookups: 0, has: (a: string) => (counted.lookups++, set.has(a)) };
      return counted;
    };
    const [small, big] = [watching(0), watching(200_000)];
    const trx = [matchTrxTransfers(block, small), matchTrxTransfers(block, big)];
    const token = [matchTrc20Transfers(infos, small, tokens), matchTrc20Transfers(infos, big, tokens)];
    expect(trx[0].length).toBeGreaterThan(0);
    expect(token[0].length).toBeGreaterThan(0);
    expect([trx[1], token[1]]).toEqual([trx[0], token[0]]);
    expect([small.lookups, big.lookups]).toEqual([30, 30]); // 20 TRX transfers and 10 Transfer logs, one lookup each
    for (const m of token[0]) expect(m).toMatchObject({ to: expect.toBeOneOf([trxTo, tokenTo]), coin: "TRX_TETHER", contract: usdt.hex, key: `${m.txId}:0` });

    // java-tron keeps no log of a reverted call, and its advice is to check the receipt first: a log of a FAILED one counts for nothing.
    expect(matchTrc20Transfers(infos.map((i) => ({ ...i, result: "FAILED" })), big, tokens)).toEqual([]);
    expect(matchTrc20Transfers(infos.map((i) => ({ ...i, receipt: { ...i.receipt, result: "OUT_OF_ENERGY" } })), big, tokens)).toEqual([]);
  });
});
