import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { Address, toNano } from "@ton/core";
import { getDb, type Db } from "@/db/client";
import { payments } from "@/db/schema";
import { liveTonWallets } from "@/db/queries/ton";
import type { CoinName } from "@/domain/coins";
import { expirePaymentIfDue } from "@/lib/payments/expiry";
import { json, paymentsPath, request } from "../helpers";
import { oneChainFileAtATime } from "../serial";
import { TonNode } from "./nodes/ton-node";
import { tonLivePayment, tonWatcher } from "./ton-live-payment";

/**
 * The TON watcher (followTon) against a fake toncenter (v2 over HTTP) whose transactions come from
 * the TVM emulator (@ton/sandbox), deciding statuses with the payments layer's step: which Toncoin
 * transfers pay a payment by their comment, and which wait for the merchant's review. The tests
 * share one emulator and run in order, each with a merchant wallet and a cursor of its own.
 */

const chainFile = oneChainFileAtATime();

describe("TON watcher: Toncoin payments by comment (sandbox behind toncenter v2)", () => {
  let node: TonNode;
  let db: Db;
  let w: ReturnType<typeof tonWatcher>;
  let n = 0;

  const merchant = async () => (await node.wallet(`merchant-${++n}`)).address;
  const livePayment = (coin: CoinName, wallet: Address) => tonLivePayment(db, coin, wallet.toString({ bounceable: false }), (id) => chainFile.retire(id));
  const recordOf = async (p: { id: string; business: { businessId: number; apiKey: string } }) =>
    (await json(await request("GET", `${paymentsPath(p.business.businessId)}/${p.id}`, { key: p.business.apiKey }))).data;
  const started = async () => {
    const o = w.options();
    expect(await w.tick(o)).toMatchObject({ followed: true, to: node.seqno });
    return o;
  };

  beforeAll(async () => {
    db = await getDb();
    node = await TonNode.start();
    w = tonWatcher(db, node.url, () => new Map());
  });
  afterAll(async () => node?.stop());

  it("sees an exact payment with the comment: COMPLETED after one masterchain block, its transaction the hash on the TON network", async () => {
    const o = await started();
    const to = await merchant();
    const p = await livePayment("TON", to);
    const payer = await node.wallet("payer");
    const r = await node.pay(payer, to, p.units, p.comment);
    const tx = r.transactions.find((t) => t.inMessage?.info.dest instanceof Address && t.inMessage.info.dest.equals(to))!;
    const hash = tx.hash().toString("hex");
    expect(await w.tick(o)).toMatchObject({ followed: true, transfers: 1, to: node.seqno });
    expect(await w.transfersOf(p.id)).toMatchObject([{ txId: hash, amount: String(p.units), confirmations: 1, late: false }]);
    expect(p.required).toBe(1);
    expect(await w.status(p.id)).toBe("COMPLETED");
    const record = await recordOf(p);
    expect(record.platformCryptoCharge.transaction).toMatchObject({ id: hash, confirmations: 1 });
  });

  it("matches a comment typed in lower case with spaces around it", async () => {
    const o = await started();
    const to = await merchant();
    const p = await livePayment("TON", to);
    await node.pay(await node.wallet("payer"), to, p.units, `  ${p.comment.toLowerCase()} `);
    await w.tick(o);
    expect(await w.status(p.id)).toBe("COMPLETED");
  });

  it("takes a partial payment as UNDERPAID and completes it with a top-up carrying the same comment", async () => {
    const o = await started();
    const to = await merchant();
    const p = await livePayment("TON", to);
    const payer = await node.wallet("payer");
    await node.pay(payer, to, p.units / 3n, p.comment);
    await w.tick(o);
    expect(await w.status(p.id)).toBe("UNDERPAID");
    await node.pay(payer, to, p.units - p.units / 3n, p.comment);
    await w.tick(o);
    expect(await w.status(p.id)).toBe("COMPLETED");
    expect(await w.transfersOf(p.id)).toHaveLength(2);
  });

  it("counts no money that bounced back: a bounceable payment to a wallet that is not deployed", async () => {
    const o = await started();
    const to = new Address(0, Buffer.alloc(32, 7)); // nobody deployed a contract here
    const p = await livePayment("TON", to);
    const r = await node.pay(await node.wallet("payer"), to, p.units, p.comment, { bounce: true });
    const there = r.transactions.find((t) => t.inMessage?.info.dest instanceof Address && t.inMessage.info.dest.equals(to))!;
    expect(there.description.type === "generic" && there.description.bouncePhase?.type).toBe("ok");
    expect(await w.tick(o)).toMatchObject({ followed: true, transfers: 0 });
    expect(await w.transfersOf(p.id)).toEqual([]);
    expect(await w.status(p.id)).toBe("AWAITING_PAYMENT");
    expect(await w.reviewOf(p.business.businessId)).toEqual([]);
  });

  it("keeps a payment without a comment, and one with an unknown comment, for the merchant's review: never lost, no payment touched", async () => {
    const o = await started();
    const to = await merchant();
    const p = await livePayment("TON", to);
    const payer = await node.wallet("payer");
    await node.pay(payer, to, p.units, null);
    await node.pay(payer, to, toNano("0.5"), "NOT-A-PAYMENT");
    expect(await w.tick(o)).toMatchObject({ transfers: 0 });
    expect(await w.status(p.id)).toBe("AWAITING_PAYMENT");
    const review = await w.reviewOf(p.business.businessId);
    expect(review.map((r) => ({ coin: r.coin, amount: r.amount, comment: r.comment, sender: r.sender })).sort((a, b) => (a.comment ?? "").localeCompare(b.comment ?? ""))).toEqual([
      { coin: "TON", amount: String(p.units), comment: null, sender: payer.address.toRawString() },
      { coin: "TON", amount: "500000000", comment: "NOT-A-PAYMENT", sender: payer.address.toRawString() },
    ]);
    // Read once: a later tick adds nothing.
    await w.tick(o);
    expect(await w.reviewOf(p.business.businessId)).toHaveLength(2);
  });

  it("reads a busy wallet page by page: the payment among 65 other transfers is found, each transfer read once", async () => {
    const o = await started();
    const to = await merchant();
    const p = await livePayment("TON", to);
    const payer = await node.wallet("payer");
    for (let i = 0; i < 40; i++) await node.pay(payer, to, 1_000_000n, `noise ${i}`);
    await node.pay(payer, to, p.units, p.comment);
    for (let i = 40; i < 65; i++) await node.pay(payer, to, 1_000_000n, `noise ${i}`);
    const before = node.calls.get("getTransactions") ?? 0;
    expect(await w.tick(o, { pageSize: 20 })).toMatchObject({ transfers: 1 });
    expect((node.calls.get("getTransactions") ?? 0) - before).toBeGreaterThanOrEqual(4);
    expect(await w.status(p.id)).toBe("COMPLETED");
    expect(await w.reviewOf(p.business.businessId)).toHaveLength(65);
    const calls = node.calls.get("getTransactions") ?? 0;
    expect(await w.tick(o, { pageSize: 20 })).toMatchObject({ transfers: 0 });
    // One call per live wallet (this file's other merchants too): nothing newer than each cursor.
    expect((node.calls.get("getTransactions") ?? 0) - calls).toBe((await liveTonWallets(db)).length);
  });

  it("catches up after the API was down: the tick fails while it is, the payment made meanwhile is seen once it is back", async () => {
    const o = await started();
    const to = await merchant();
    const p = await livePayment("TON", to);
    node.down = true;
    await expect(w.tick(o)).rejects.toThrow(/503|Unavailable/);
    await node.pay(await node.wallet("payer"), to, p.units, p.comment);
    await node.pay(await node.wallet("payer"), to, 1n, "other");
    node.down = false;
    expect(await w.tick(o)).toMatchObject({ followed: true, transfers: 1, to: node.seqno });
    expect(await w.status(p.id)).toBe("COMPLETED");
  });

  it("records money after the payment expired as late, without reopening it", async () => {
    const o = await started();
    const to = await merchant();
    const p = await livePayment("TON", to);
    await db.update(payments).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(payments.id, p.id));
    await expirePaymentIfDue(db, p.id);
    expect(await w.status(p.id)).toBe("EXPIRED");
    await node.pay(await node.wallet("payer"), to, p.units, p.comment);
    await w.tick(o);
    expect(await w.transfersOf(p.id)).toMatchObject([{ amount: String(p.units), late: true }]);
    expect(await w.status(p.id)).toBe("EXPIRED");
  });

  it("holds the chain's lease: another instance following the same cursor meanwhile waits, and reads nothing", async () => {
    const o = await started();
    expect(await w.tick({ ...o, owner: "b" })).toMatchObject({ followed: false, transfers: 0 });
    expect(await w.tick(o)).toMatchObject({ followed: true });
  });

  it("does not credit a payment's comment sent to another business's wallet: it waits for that business's review", async () => {
    const o = await started();
    const mine = await merchant();
    const other = await merchant();
    const p = await livePayment("TON", mine);
    const q = await livePayment("TON", other);
    await node.pay(await node.wallet("payer"), other, p.units, p.comment);
    await w.tick(o);
    expect(await w.transfersOf(p.id)).toEqual([]);
    expect((await w.reviewOf(q.business.businessId)).map((r) => r.comment)).toEqual([p.comment]);
  });
});
