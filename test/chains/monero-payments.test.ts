import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { moneroTip } from "@/lib/chains/monero/rpc";
import { checkoutView } from "@/lib/checkout/view";
import { expirePaymentIfDue } from "@/lib/payments/expiry";
import { oneChainFileAtATime } from "../serial";
import { moneroContext, type MoneroContext } from "./monero-context";
import { moneroInstalled } from "./nodes/monero";

const chainFile = oneChainFileAtATime();

/**
 * Monero payments as customers make them, against a real monerod in regtest and the service's
 * view-only wallets in a real monero-wallet-rpc (MONERO: 10 confirmations): the exact amount seen
 * in the pool then counted to 10, part then the rest, a transfer its sender locked, and money
 * after expiry. Each payment's subaddress is made by the wallet-rpc in its business's wallet.
 */
const run = moneroInstalled() || process.env.CI === "true";

describe.runIf(run)("Monero payments (monerod + monero-wallet-rpc, regtest)", () => {
  let x: MoneroContext;
  const amounts = async (id: string) => (await x.transfers(id)).map((t) => [t.txId, BigInt(t.amount), t.confirmations, t.late]);

  beforeAll(async () => {
    x = await moneroContext();
  }, 300_000);
  afterAll(async () => x?.stop(), 60_000);

  it("the exact amount is PENDING from the pool, stays PENDING below 10 confirmations and COMPLETES at 10; the transaction id is the txid", async () => {
    const business = await x.liveBusiness();
    chainFile.retire(business.businessId);
    const p = await x.livePayment(business);
    expect(p.address).toMatch(/^8/); // a subaddress of the business's wallet
    expect(p.index).toBeGreaterThan(0);
    const txid = await x.spender.pay(p.address, p.units);
    await x.follow();
    expect(await amounts(p.id)).toEqual([[txid, p.units, 0, false]]);
    expect(await x.status(p.id)).toBe("PENDING");
    await x.mine(9);
    await x.follow();
    expect((await x.transfers(p.id))[0]).toMatchObject({ confirmations: 9, held: null });
    expect(await x.status(p.id)).toBe("PENDING");
    await x.mine(1);
    await x.follow();
    expect(await amounts(p.id)).toEqual([[txid, p.units, 10, false]]);
    expect(await x.status(p.id)).toBe("COMPLETED");
    expect(await x.events(p.id)).toEqual(["PAYMENT_CREATED", "PAYMENT_METHOD_SELECTED", "PAYMENT_PENDING", "PAYMENT_PROCESSING", "PAYMENT_COMPLETED"]);
  }, 180_000);

  it("part of the amount is UNDERPAID once confirmed; the rest sent to the same subaddress completes it", async () => {
    const business = await x.liveBusiness();
    chainFile.retire(business.businessId);
    const p = await x.livePayment(business);
    const part = (p.units * 40n) / 100n;
    const first = await x.spender.pay(p.address, part);
    await x.mine(10);
    await x.follow();
    expect(await amounts(p.id)).toEqual([[first, part, 10, false]]);
    expect(await x.status(p.id)).toBe("UNDERPAID");
    const second = await x.spender.pay(p.address, p.units - part);
    await x.follow();
    expect(await x.status(p.id)).toBe("PENDING");
    await x.mine(10);
    await x.follow();
    expect((await amounts(p.id)).sort()).toEqual([[first, part, 20, false], [second, p.units - part, 10, false]].sort());
    expect(await x.status(p.id)).toBe("COMPLETED");
  }, 240_000);

  it("a transfer its sender locked (unlock_time) is recorded and shown as held, and never completes the payment on its own", async () => {
    const business = await x.liveBusiness();
    chainFile.retire(business.businessId);
    const p = await x.livePayment(business);
    const height = await moneroTip(x.daemon);
    const txid = await x.spender.pay(p.address, p.units, { unlockTime: height + 500 });
    // Seen in the pool first, so the next block mined holds it and the count below is exact.
    await x.follow();
    expect(await x.transfers(p.id)).toMatchObject([{ txId: txid, confirmations: 0 }]);
    await x.mine(12);
    await x.follow();
    const [t] = await x.transfers(p.id);
    expect(t).toMatchObject({ txId: txid, amount: p.units.toString(), confirmations: 12 });
    expect(t.held).toMatch(/locked by its sender until block \d+ \(unlock_time\)/);
    expect(await x.status(p.id)).toBe("PENDING");
    // The checkout says so rather than counting confirmations that cannot complete it.
    expect((await checkoutView(x.db, p.id))?.charge).toMatchObject({ held: true, confirmations: 0 });
  }, 180_000);

  it("money sent after the payment expired is recorded as late, with no change of status", async () => {
    const business = await x.liveBusiness({ paymentLifetimeSeconds: 60 });
    chainFile.retire(business.businessId);
    const p = await x.livePayment(business);
    expect(await expirePaymentIfDue(x.db, p.id, new Date(Date.now() + 120_000))).toBe(true);
    expect(await x.status(p.id)).toBe("EXPIRED");
    const txid = await x.spender.pay(p.address, p.units);
    await x.mine(1);
    await x.follow();
    expect(await amounts(p.id)).toEqual([[txid, p.units, 1, true]]);
    expect(await x.status(p.id)).toBe("EXPIRED");
  }, 180_000);
});
