import { z } from "zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listChainCursors } from "@/db/queries/chain-cursors";
import { findMoneroWallet } from "@/db/queries/monero";
import { adminToken, expectProblem, json, newBusiness, request } from "../helpers";
import { oneChainFileAtATime } from "../serial";
import { moneroContext, type MoneroContext } from "./monero-context";
import { merchantKeys, moneroInstalled } from "./nodes/monero";

const chainFile = oneChainFileAtATime();

/**
 * The businesses' Monero wallets against a real monerod and monero-wallet-rpc: keys refused when
 * the view key is another address's, two businesses' wallets on one wallet-rpc, payments made
 * while the watcher was down, and a reorganisation that returns a payment's transaction to the pool.
 */
const run = moneroInstalled() || process.env.CI === "true";

describe.runIf(run)("Monero wallets (monerod + monero-wallet-rpc, regtest)", () => {
  let x: MoneroContext;
  const admin = (method: string, path: string, body?: unknown) => request(method, `/admin/v1${path}`, { key: adminToken(), body });

  beforeAll(async () => {
    x = await moneroContext();
  }, 300_000);
  afterAll(async () => x?.stop(), 60_000);

  it("refuses a view key of another address, or a subaddress as the primary address, naming the field; never shows the key again", async () => {
    const b = await newBusiness({ mode: "live", enabledCoins: ["MONERO"] });
    chainFile.retire(b.businessId);
    const [mine, other] = [await merchantKeys(x.merchants, `own-${process.pid}`), await merchantKeys(x.merchants, `other-${process.pid}`)];
    const path = `/businesses/${b.businessId}/monero-wallet`;
    const refused = await expectProblem(await admin("PUT", path, { ...mine, privateViewKey: other.privateViewKey }), 400, ["privateViewKey"]);
    expect(refused.detail).toMatch(/does not belong to this primary address/);
    const sub = (await x.livePayment(await x.liveBusiness())).address;
    await expectProblem(await admin("PUT", path, { ...mine, primaryAddress: sub }), 400, ["primaryAddress"]);
    await expectProblem(await admin("PUT", path, { ...mine, primaryAddress: `${mine.primaryAddress.slice(0, -1)}A` }), 400, ["primaryAddress"]);
    expect(await findMoneroWallet(x.db, b.businessId)).toBeUndefined();

    const res = await admin("PUT", path, mine);
    expect(res.status).toBe(200);
    const set = (await json(res)).data;
    expect(set).toEqual({ primaryAddress: mine.primaryAddress, restoreHeight: mine.restoreHeight, walletCreated: false, note: expect.stringMatching(/cannot spend/) });
    const shown = await admin("GET", path);
    expect(JSON.stringify(await json(shown))).not.toContain(mine.privateViewKey);
  }, 120_000);

  it("two businesses' view-only wallets share one wallet-rpc: each payment is paid only by what reached its own subaddress", async () => {
    const [a, b] = [await x.liveBusiness(), await x.liveBusiness()];
    chainFile.retire(a.businessId);
    chainFile.retire(b.businessId);
    const [pa, pb] = [await x.livePayment(a), await x.livePayment(b, 20)];
    // Each wallet numbers its own subaddresses: both are likely index 1, in two wallets.
    expect(pa.address).not.toBe(pb.address);
    const [ta, tb] = [await x.spender.pay(pa.address, pa.units), await x.spender.pay(pb.address, pb.units / 2n)];
    await x.mine(10);
    await x.follow();
    expect((await x.transfers(pa.id)).map((t) => [t.txId, BigInt(t.amount)])).toEqual([[ta, pa.units]]);
    expect((await x.transfers(pb.id)).map((t) => [t.txId, BigInt(t.amount)])).toEqual([[tb, pb.units / 2n]]);
    expect([await x.status(pa.id), await x.status(pb.id)]).toEqual(["COMPLETED", "UNDERPAID"]);
    expect((await findMoneroWallet(x.db, a.businessId))!.walletCreatedAt).not.toBeNull();
  }, 180_000);

  it("payments made while the watcher was down are found by its next tick, however many blocks passed", async () => {
    const business = await x.liveBusiness();
    chainFile.retire(business.businessId);
    const [p1, p2] = [await x.livePayment(business), await x.livePayment(business)];
    const t1 = await x.spender.pay(p1.address, p1.units);
    await x.mine(6);
    const t2 = await x.spender.pay(p2.address, p2.units);
    await x.mine(12);
    await x.follow();
    // At least: a payment from the spender may mine blocks first (its change is locked for 10).
    const [r1, r2] = [(await x.transfers(p1.id))[0], (await x.transfers(p2.id))[0]];
    expect([r1.txId, r2.txId]).toEqual([t1, t2]);
    expect(r1.confirmations).toBeGreaterThanOrEqual(18);
    expect(r2.confirmations).toBeGreaterThanOrEqual(12);
    expect(r1.confirmations - r2.confirmations).toBe(Number(r2.blockNumber) - Number(r1.blockNumber));
    expect([await x.status(p1.id), await x.status(p2.id)]).toEqual(["COMPLETED", "COMPLETED"]);
  }, 180_000);

  it("a reorganisation returns a mined payment's transaction to the pool: unconfirmed again, then found in its new block", async () => {
    const business = await x.liveBusiness();
    chainFile.retire(business.businessId);
    const p = await x.livePayment(business);
    const txid = await x.spender.pay(p.address, p.units);
    await x.mine(2);
    await x.follow();
    const [before] = await x.transfers(p.id);
    expect(before).toMatchObject({ txId: txid, confirmations: 2 });
    // Two blocks off the tip: the transaction's block among them, as a competing chain's reorganisation would.
    await x.daemon.other("pop_blocks", { nblocks: 2 }, z.object({ height: z.number() }));
    const pool = await x.daemon.other("get_transaction_pool", {}, z.object({ transactions: z.array(z.object({ id_hash: z.string() })).optional() }));
    expect(pool.transactions?.map((t) => t.id_hash)).toContain(txid);
    await x.follow();
    expect((await x.transfers(p.id))[0]).toMatchObject({ txId: txid, blockNumber: null, confirmations: 0, dropped: false });
    expect(await x.status(p.id)).toBe("PENDING");
    await x.mine(10);
    await x.follow();
    const [after] = await x.transfers(p.id);
    expect(after).toMatchObject({ txId: txid, confirmations: 10, dropped: false });
    expect(after.blockHash).not.toBe(before.blockHash);
    expect(await x.status(p.id)).toBe("COMPLETED");
    expect((await listChainCursors(x.db)).find((c) => c.chain === "MONERO")?.lastError ?? null).toBeNull();
  }, 180_000);
});
