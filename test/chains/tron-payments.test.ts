import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb, type Db } from "@/db/client";
import { payments } from "@/db/schema";
import type { CoinName } from "@/domain/coins";
import { expirePaymentIfDue } from "@/lib/payments/expiry";
import { json, paymentsPath, request } from "../helpers";
import { oneChainFileAtATime } from "../serial";
import { startTronNode, type TronAccount, type TronNode } from "./nodes/tron-node";
import { tronLivePayment, tronWatcher } from "./tron-live-payment";

/**
 * The TRON watcher (followTronChain) against the fake java-tron node over HTTP, deciding statuses
 * with the payments layer's step: what pays a charge and what does not. The tests share one node
 * and run in order; each follows it under a cursor of its own. The node solidifies a block once 18
 * more are built on it, so a transfer has 1 to 18 confirmations before and 19 from then on.
 */

const chainFile = oneChainFileAtATime();
const WEEK = 7 * 86_400_000;

describe("TRON chain watcher: payments (fake java-tron node)", () => {
  let node: TronNode;
  let db: Db;
  let usdt: { address: string; hex: string }; // the configured contract: pays TRX_TETHER and CONTRACT_TRC20_USDT
  let payer: TronAccount;
  let w: ReturnType<typeof tronWatcher>;

  const livePayment = (coin: CoinName, input = {}) => tronLivePayment(db, coin, (id) => chainFile.retire(id), input);
  const recordOf = async (p: { id: string; business: { businessId: number; apiKey: string } }) =>
    (await json(await request("GET", `${paymentsPath(p.business.businessId)}/${p.id}`, { key: p.business.apiKey }))).data;
  /** The node's execution result of a transaction (gettransactioninfobyid). */
  const infoOf = async (txid: string) => (await (await fetch(`${node.url}/wallet/gettransactioninfobyid`, { method: "POST", body: JSON.stringify({ value: txid }) })).json()) as Record<string, any>;

  beforeAll(async () => {
    db = await getDb();
    node = await startTronNode();
    usdt = node.deployToken({ symbol: "USDT", decimals: 6, name: "Tether USD" });
    payer = node.newAccount();
    node.mint(usdt.address, payer.address, 10n ** 20n);
    w = tronWatcher(db, node, () => new Map([[usdt.hex, ["TRX_TETHER", "CONTRACT_TRC20_USDT"]]]));
  });
  afterAll(async () => node?.stop());

  it("sees an exact TRX payment in its block: PENDING at 1 to 18 confirmations, COMPLETED once the block is solidified", async () => {
    const o = await w.started();
    const p = await livePayment("TRON");
    expect(p.required).toBe(19);
    expect(p.address).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
    const txid = await node.sendTrx(payer, p.address, p.units);
    const [block] = await node.mine();
    expect(await w.tick(o)).toMatchObject({ followed: true, from: block.number, to: block.number, transfers: 1 });
    expect(await w.transfersOf(p.id)).toMatchObject([
      { txId: txid, amount: String(p.units), toAddress: p.address, blockNumber: String(block.number), blockHash: block.blockID, confirmations: 1, late: false },
    ]);
    expect(await w.status(p.id)).toBe("PENDING");
    for (let depth = 2; depth <= 18; depth++) {
      await node.mine();
      await w.tick(o);
      expect(await w.transfersOf(p.id)).toMatchObject([{ confirmations: depth }]);
      expect(await w.status(p.id)).toBe("PENDING");
    }
    expect(node.solidified()).toBe(block.number - 1);
    await node.mine();
    expect(node.solidified()).toBe(block.number);
    expect(await w.tick(o)).toMatchObject({ transfers: 0, reconciled: 1 });
    expect(await w.transfersOf(p.id)).toMatchObject([{ confirmations: 19 }]);
    expect(await w.status(p.id)).toBe("COMPLETED");
    const record = await recordOf(p);
    expect(record.status).toBe("COMPLETED");
    expect(record.platformCryptoCharge.transaction).toMatchObject({
      id: txid,
      network: "TRON",
      tokenName: "TRON",
      toAddress: p.address,
      amount: Number(p.units) / 1e6,
      blockNumber: String(block.number),
      confirmations: 19,
    });
  });

  it("sees USDT by the configured contract's Transfer logs, for TRX_TETHER and CONTRACT_TRC20_USDT alike (the latter as contractCharge)", async () => {
    const o = await w.started();
    const tether = await livePayment("TRX_TETHER");
    const contract = await livePayment("CONTRACT_TRC20_USDT");
    expect(tether.units).toBe(10_000_000n); // $10 at 1 USD, 6 decimals
    const a = await node.sendToken(payer, usdt.address, tether.address, tether.units);
    const b = await node.sendToken(payer, usdt.address, contract.address, contract.units);
    const [block] = await node.mine();
    expect(await w.tick(o)).toMatchObject({ transfers: 2 });
    expect(await w.transfersOf(tether.id)).toMatchObject([
      { txId: `${a}:0`, txHash: a, amount: String(tether.units), blockNumber: String(block.number), blockHash: block.blockID, confirmations: 1 },
    ]);
    expect(await w.transfersOf(contract.id)).toMatchObject([{ txId: `${b}:0`, amount: String(contract.units), confirmations: 1 }]);
    expect([await w.status(tether.id), await w.status(contract.id)]).toEqual(["PENDING", "PENDING"]);
    await node.mine(18);
    await w.tick(o);
    expect([await w.status(tether.id), await w.status(contract.id)]).toEqual(["COMPLETED", "COMPLETED"]);
    const record = await recordOf(contract);
    expect(record.platformCryptoCharge).toBeUndefined();
    expect(record.contractCharge).toMatchObject({ coinName: "CONTRACT_TRC20_USDT", amount: 10, transaction: { id: b, network: "TRON", tokenName: "CONTRACT_TRC20_USDT", amount: 10, confirmations: 19 } });
    expect((await recordOf(tether)).platformCryptoCharge.transaction).toMatchObject({ id: a, tokenName: "TRX_TETHER", amount: 10 });
  });

  it("a partial payment is UNDERPAID once solidified; the top-up completes it", async () => {
    const o = await w.started();
    const p = await livePayment("TRON");
    const part = p.units / 2n;
    const first = await node.sendTrx(payer, p.address, part);
    await node.mine();
    await w.tick(o);
    expect(await w.status(p.id)).toBe("PENDING");
    await node.mine(18);
    await w.tick(o);
    expect(await w.status(p.id)).toBe("UNDERPAID");
    const rest = await node.sendTrx(payer, p.address, p.units - part);
    await node.mine();
    await w.tick(o);
    expect(await w.status(p.id)).toBe("PENDING");
    await node.mine(18);
    await w.tick(o);
    expect(await w.status(p.id)).toBe("COMPLETED");
    expect((await w.transfersOf(p.id)).map((t) => [t.txId, t.amount, t.confirmations])).toEqual([
      [first, String(part), 38],
      [rest, String(p.units - part), 19],
    ]);
  });

  it("an overpayment completes the payment with the exact amount recorded, in TRX and in USDT beyond a double's 2^53", async () => {
    const o = await w.started();
    const trx = await livePayment("TRON");
    const tether = await livePayment("TRX_TETHER");
    const extra = 2n ** 53n + 1n;
    await node.sendTrx(payer, trx.address, trx.units + 1_234_567n);
    const t = await node.sendToken(payer, usdt.address, tether.address, tether.units + extra);
    await node.mine(19);
    expect(await w.tick(o)).toMatchObject({ transfers: 2 });
    expect([await w.status(trx.id), await w.status(tether.id)]).toEqual(["COMPLETED", "COMPLETED"]);
    expect((await w.transfersOf(trx.id)).map((x) => x.amount)).toEqual([String(trx.units + 1_234_567n)]);
    expect((await w.transfersOf(tether.id)).map((x) => [x.txId, x.amount])).toEqual([[`${t}:0`, String(tether.units + extra)]]);
    expect((await recordOf(trx)).platformCryptoCharge).toMatchObject({ isUnderpaid: false, transaction: { amount: Number(trx.units + 1_234_567n) / 1e6 } });
  });

  it("records nothing for a token transfer that REVERTed: its sender held no tokens", async () => {
    const o = await w.started();
    const p = await livePayment("TRX_TETHER");
    const pauper = node.newAccount(); // TRX for the fees, no USDT
    const txid = await node.sendToken(pauper, usdt.address, p.address, p.units);
    await node.mine(19);
    expect(await infoOf(txid)).toMatchObject({ result: "FAILED", receipt: { result: "REVERT" } });
    expect(await w.tick(o)).toMatchObject({ followed: true, transfers: 0 });
    expect(await w.transfersOf(p.id)).toEqual([]);
    expect(await w.status(p.id)).toBe("AWAITING_PAYMENT");
  });

  it("ignores what is not the charge's coin: a fake USDT of 6 decimals at another contract, TRX to a token charge, USDT to a TRX charge", async () => {
    const o = await w.started();
    const fake = node.deployToken({ symbol: "USDT", decimals: 6, name: "Tether USD" });
    node.mint(fake.address, payer.address, 10n ** 12n);
    const tether = await livePayment("TRX_TETHER");
    const trx = await livePayment("TRON");
    const forged = await node.sendToken(payer, fake.address, tether.address, tether.units);
    await node.sendTrx(payer, tether.address, 50_000_000n);
    await node.sendToken(payer, usdt.address, trx.address, trx.units);
    await node.mine(19);
    expect((await infoOf(forged)).receipt.result).toBe("SUCCESS"); // the fake's Transfer log is there, naming the charge's address
    expect(node.tokenBalance(fake.address, tether.address)).toBe(tether.units);
    expect(await w.tick(o)).toMatchObject({ followed: true, transfers: 0 });
    expect([await w.transfersOf(tether.id), await w.transfersOf(trx.id)]).toEqual([[], []]);
    expect([await w.status(tether.id), await w.status(trx.id)]).toEqual(["AWAITING_PAYMENT", "AWAITING_PAYMENT"]);
  });

  it("counts tokens a spender moves with transferFrom: the Transfer log pays, whoever called the contract", async () => {
    const o = await w.started();
    const p = await livePayment("TRX_TETHER");
    const spender = node.newAccount();
    await node.approve(payer, usdt.address, spender.address, p.units);
    const pulled = await node.sendToken(payer, usdt.address, p.address, p.units, { spender });
    const [block] = await node.mine();
    const tx = (await (await fetch(`${node.url}/wallet/gettransactionbyid`, { method: "POST", body: JSON.stringify({ value: pulled }) })).json()) as any;
    expect(tx.raw_data.contract[0].parameter.value.owner_address).toBe(spender.hex); // the spender called; the payer's tokens moved
    expect(await w.tick(o)).toMatchObject({ transfers: 1 });
    expect(await w.transfersOf(p.id)).toMatchObject([{ txId: `${pulled}:0`, amount: String(p.units), blockNumber: String(block.number) }]);
    await node.mine(18);
    await w.tick(o);
    expect(await w.status(p.id)).toBe("COMPLETED");
  });

  it("a business's own count of 3 for TRX_TETHER completes at 3 blocks, long before solidification", async () => {
    const o = await w.started();
    const p = await livePayment("TRX_TETHER", { confirmations: { TRX_TETHER: 3 } });
    expect(p.required).toBe(3);
    await node.sendToken(payer, usdt.address, p.address, p.units);
    const [block] = await node.mine(2);
    await w.tick(o);
    expect(await w.transfersOf(p.id)).toMatchObject([{ confirmations: 2 }]);
    expect(await w.status(p.id)).toBe("PENDING");
    await node.mine();
    await w.tick(o);
    expect(node.solidified()).toBeLessThan(block.number);
    expect(await w.transfersOf(p.id)).toMatchObject([{ confirmations: 3 }]);
    expect(await w.status(p.id)).toBe("COMPLETED");
  });

  it("records money arriving after the payment expired as late and changes nothing; past the late window it is no longer watched", async () => {
    const o = await w.started();
    const p = await livePayment("TRON");
    const [{ expiresAt }] = await db.select({ expiresAt: payments.expiresAt }).from(payments).where(eq(payments.id, p.id));
    const later = new Date(expiresAt.getTime() + 60_000);
    expect(await expirePaymentIfDue(db, p.id, later)).toBe(true);
    const txid = await node.sendTrx(payer, p.address, p.units);
    await node.mine();
    await w.tick(o, { now: () => later });
    expect(await w.transfersOf(p.id)).toMatchObject([{ txId: txid, amount: String(p.units), late: true, confirmations: 1 }]);
    await node.mine(18);
    await w.tick(o, { now: () => later });
    expect(await w.transfersOf(p.id)).toMatchObject([{ confirmations: 19 }]);
    expect(await w.status(p.id)).toBe("EXPIRED");
    await node.sendTrx(payer, p.address, 1n);
    await node.mine();
    await w.tick(o, { now: () => new Date(later.getTime() + WEEK + 60_000) });
    expect(await w.transfersOf(p.id)).toHaveLength(1);
    expect(await w.status(p.id)).toBe("EXPIRED");
  });
});
