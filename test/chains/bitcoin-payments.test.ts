import { randomBytes, randomUUID } from "node:crypto";
import { asc, eq } from "drizzle-orm";
import { HDKey } from "@scure/bip32";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb, type Db } from "@/db/client";
import { listChainCursors } from "@/db/queries/chain-cursors";
import { findCharge, listTransfers } from "@/db/queries/charges";
import { paymentEvents, payments } from "@/db/schema";
import { fiatValue, unitsToDecimal } from "@/domain/amounts";
import { scriptPubKeyOf, type VerboseTx } from "@/lib/chains/bitcoin/scan";
import { deriveAddressForCoin } from "@/lib/wallets/derive";
import type { BitcoinRpc } from "@/lib/chains/bitcoin/rpc";
import { followBitcoinChain, type FollowOptions } from "@/lib/chains/bitcoin/follower";
import { selectCoin } from "@/lib/checkout/select";
import { chainFollowed, createPayment, json, newBusiness, request } from "../helpers";
import { oneChainFileAtATime } from "../serial";
import { litecoindInstalled, startLitecoind, type Litecoind } from "./nodes/litecoind";
import { reconcilePayment } from "@/lib/payments/reconcile";

const chainFile = oneChainFileAtATime();

/**
 * Payments as customers make them, seen by the Bitcoin-family watcher following a real Litecoin
 * Core node in regtest (LITECOIN: 2 confirmations): part then the rest, too much, the amount in
 * two transfers or in two outputs of one transaction (one Transaction in the record, by its hash),
 * and a watcher killed in the middle of a catch-up. Amounts are exact base units (litoshi); the chain stays below MWEB's activation
 * height (432), where regtest mining needs a peg-in first.
 */
const run = litecoindInstalled() || process.env.CI === "true";

/** Regtest's extended public key version (tpub), the form Litecoin Core and the service take there. */
const TPUB = { public: 0x043587cf, private: 0x04358394 };

/**
 * A regtest account key (m/84'/2'/0') of a random seed: every business of this file has its own,
 * so no address is another's, whatever else shares the database (other files' businesses are
 * given the test mnemonic's key, and their nodes mine to its first address).
 */
const freshTpub = () => HDKey.fromMasterSeed(randomBytes(32), TPUB).derive("m/84'/2'/0'").publicExtendedKey;

describe.runIf(run)("Bitcoin-family payments (Litecoin Core, regtest)", () => {
  let node: Litecoind;
  let db: Db;
  let options: FollowOptions;
  const miner = () => node.wallet("miner");
  const mine = async (n: number) => node.rpc.call<string[]>("generatetoaddress", [n, await miner().call<string>("getnewaddress")]);
  const tip = () => node.rpc.call<number>("getblockcount");
  const tick = (extra: Partial<FollowOptions> = {}) => followBitcoinChain(db, { ...options, ...extra });
  const status = async (id: string) => (await db.select().from(payments).where(eq(payments.id, id)))[0].status;
  const eventsOf = async (id: string) => (await db.select().from(paymentEvents).where(eq(paymentEvents.paymentId, id)).orderBy(asc(paymentEvents.id))).map((e) => e.type);
  /** A payment's transfers as [outpoint, litoshi, confirmations], in the order recorded. */
  const recorded = async (id: string) => (await listTransfers(db, id)).map((t) => [t.txId, BigInt(t.amount), t.confirmations]);

  /** A live business taking LITECOIN on regtest (the chain marked followed there), its payment of 10 USD and the charge. */
  async function livePayment(settings: { underpaymentTolerancePercent?: number } = {}) {
    const tpub = freshTpub();
    await chainFollowed("LITECOIN", { network: "regtest" });
    const business = await newBusiness({ mode: "live", enabledCoins: ["LITECOIN"], extendedPublicKeys: { LITECOIN: tpub }, ...settings });
    chainFile.retire(business.businessId);
    const { id } = await createPayment(business);
    await selectCoin(db, id, "LITECOIN");
    const charge = (await findCharge(db, id))!;
    expect(charge.address).toBe(deriveAddressForCoin("LITECOIN", tpub, charge.derivationIndex!, "regtest"));
    expect(charge.requiredConfirmations).toBe(2);
    return { id, business, address: charge.address, units: BigInt(charge.quotedUnits), rate: charge.exchangeRate };
  }

  /** The outpoints of `txid` paying `address`, in output order. */
  async function outpoints(txid: string, address: string) {
    const tx = await node.rpc.call<VerboseTx>("getrawtransaction", [txid, true]);
    return tx.vout.filter((o) => o.scriptPubKey.hex === scriptPubKeyOf(address)).map((o) => `${txid}:${o.n}`);
  }
  /** Sends `units` to `address` from the miner's wallet; the one outpoint paying it. */
  async function pay(address: string, units: bigint) {
    const txid = await miner().call<string>("sendtoaddress", [address, unitsToDecimal(units, 8)]);
    const [outpoint] = await outpoints(txid, address);
    return outpoint;
  }

  beforeAll(async () => {
    db = await getDb();
    node = await startLitecoind();
    await node.rpc.call("createwallet", ["miner"]);
    await mine(101);
    // A cursor of its own: test files may share one PostgreSQL database.
    options = { chain: "LITECOIN", cursor: `LITECOIN-${randomUUID()}`, rpc: node.rpc, net: "regtest", owner: "instance-a", lateWindowMs: 7 * 86_400_000, decide: reconcilePayment };
    expect(await tick()).toMatchObject({ followed: true, to: await tip() });
  }, 60_000);
  afterAll(async () => node?.stop(), 30_000);

  it("a partial payment is UNDERPAID once confirmed; the rest makes it PENDING, then COMPLETED at 2 confirmations", async () => {
    const p = await livePayment();
    const part = (p.units * 60n) / 100n;
    const first = await pay(p.address, part);
    await mine(1);
    expect(await tick()).toMatchObject({ transfers: 1 });
    expect(await recorded(p.id)).toEqual([[first, part, 1]]);
    expect(await status(p.id)).toBe("PENDING"); // 1 of 2 confirmations
    await mine(1);
    await tick();
    expect(await recorded(p.id)).toEqual([[first, part, 2]]);
    expect(await status(p.id)).toBe("UNDERPAID"); // all confirmed, 60 % of the amount

    const rest = p.units - part;
    const second = await pay(p.address, rest);
    await mine(1);
    expect(await tick()).toMatchObject({ transfers: 1 });
    expect(await recorded(p.id)).toEqual([
      [first, part, 3],
      [second, rest, 1],
    ]);
    expect(await status(p.id)).toBe("PENDING");
    await mine(1);
    await tick();
    expect(await recorded(p.id)).toEqual([
      [first, part, 4],
      [second, rest, 2],
    ]);
    expect(await status(p.id)).toBe("COMPLETED");
    expect(await eventsOf(p.id)).toEqual([
      "PAYMENT_CREATED",
      "PAYMENT_METHOD_SELECTED",
      "PAYMENT_PENDING",
      "PAYMENT_UNDERPAID",
      "PAYMENT_PENDING",
      "PAYMENT_PROCESSING",
      "PAYMENT_COMPLETED",
    ]);
  }, 60_000);

  it("within the business's underpayment tolerance a short payment completes; one litoshi below it stays UNDERPAID", async () => {
    const within = await livePayment({ underpaymentTolerancePercent: 1 });
    const short = await livePayment({ underpaymentTolerancePercent: 1 });
    // The tolerance lets at most 1 % go missing, rounded down: floor(units / 100).
    const threshold = (q: bigint) => q - q / 100n;
    const a = await pay(within.address, threshold(within.units));
    const b = await pay(short.address, threshold(short.units) - 1n);
    await mine(2);
    expect(await tick()).toMatchObject({ transfers: 2 });
    expect(await recorded(within.id)).toEqual([[a, threshold(within.units), 2]]);
    expect(await recorded(short.id)).toEqual([[b, threshold(short.units) - 1n, 2]]);
    expect(await status(within.id)).toBe("COMPLETED");
    expect(await status(short.id)).toBe("UNDERPAID");
  }, 60_000);

  it("an overpayment completes the payment, its end amount the value of everything received", async () => {
    const p = await livePayment();
    const paid = (p.units * 3n) / 2n;
    const out = await pay(p.address, paid);
    await mine(2);
    expect(await tick()).toMatchObject({ transfers: 1 });
    expect(await recorded(p.id)).toEqual([[out, paid, 2]]);
    expect(await status(p.id)).toBe("COMPLETED");
    const res = await request("GET", `/v1/businesses/${p.business.businessId}/payments/${p.id}`, { key: p.business.apiKey });
    expect(res.status).toBe(200);
    const { data } = await json(res);
    expect(data).toMatchObject({ status: "COMPLETED", prePaymentAmount: 10, endAmount: Number(fiatValue(paid, p.rate, 8, 2)) });
    expect(data.endAmount).toBeGreaterThanOrEqual(15);
    expect(data.endAmount).toBeLessThan(15.01);
  }, 60_000);

  it("two transfers making up the amount complete the payment, each recorded once by its outpoint", async () => {
    const p = await livePayment();
    const part = p.units / 3n;
    const first = await pay(p.address, part);
    await mine(1);
    const second = await pay(p.address, p.units - part);
    await mine(2);
    expect(await tick()).toMatchObject({ transfers: 2 });
    expect(await recorded(p.id)).toEqual([
      [first, part, 3],
      [second, p.units - part, 2],
    ]);
    expect(await status(p.id)).toBe("COMPLETED");
    // Nothing new on the next tick: each outpoint is one transfer.
    expect(await tick()).toMatchObject({ transfers: 0 });
    expect(await listTransfers(db, p.id)).toHaveLength(2);
  }, 60_000);

  it("one transaction with two outputs to the address completes the payment: two transfers, one per outpoint", async () => {
    const p = await livePayment();
    const part = p.units / 4n;
    // Core refuses one address twice in createrawtransaction: the second output goes to a stand-in
    // address of the same kind, whose script is then swapped for the charge's (both 22 bytes).
    const standIn = await miner().call<string>("getnewaddress", ["", "bech32"]);
    const outputs = [{ [p.address]: unitsToDecimal(part, 8) }, { [standIn]: unitsToDecimal(p.units - part, 8) }];
    const raw = await node.rpc.call<string>("createrawtransaction", [[], outputs]);
    const swapped = raw.replace(`16${scriptPubKeyOf(standIn)}`, `16${scriptPubKeyOf(p.address)}`);
    expect(swapped).not.toBe(raw);
    const funded = await miner().call<{ hex: string }>("fundrawtransaction", [swapped]);
    const signed = await miner().call<{ hex: string; complete: boolean }>("signrawtransactionwithwallet", [funded.hex]);
    expect(signed.complete).toBe(true);
    const txid = await node.rpc.call<string>("sendrawtransaction", [signed.hex]);
    const outs = await outpoints(txid, p.address);
    expect(outs).toHaveLength(2);

    await mine(2);
    expect(await tick()).toMatchObject({ transfers: 2 });
    expect(await recorded(p.id)).toEqual([
      [outs[0], part, 2],
      [outs[1], p.units - part, 2],
    ]);
    expect(await status(p.id)).toBe("COMPLETED");
    expect(await tick()).toMatchObject({ transfers: 0 });
    expect(await listTransfers(db, p.id)).toHaveLength(2);
    // The record shows one transaction: its hash, as an explorer finds it, and all it paid to the address.
    const res = await request("GET", `/v1/businesses/${p.business.businessId}/payments/${p.id}`, { key: p.business.apiKey });
    const { data } = await json(res);
    expect(data.platformCryptoCharge.transactions).toEqual([expect.objectContaining({ id: txid, amount: Number(unitsToDecimal(p.units, 8)), confirmations: 2 })]);
    expect(data.platformCryptoCharge.transaction.id).toBe(txid);
  }, 60_000);

  it("a watcher killed mid-catch-up keeps the transfers of the blocks it moved past; the next tick resumes after them, records the rest once", async () => {
    const start = await tip();
    // Three payments in a catch-up of 20 blocks: at start+1, start+5 and start+13.
    const paid: { id: string; units: bigint; outpoint: string; height: number }[] = [];
    for (const blocks of [4, 8, 8]) {
      const p = await livePayment();
      const outpoint = await pay(p.address, p.units);
      paid.push({ id: p.id, units: p.units, outpoint, height: (await tip()) + 1 });
      await mine(blocks);
    }
    const to = await tip();
    expect(to).toBe(start + 20);
    expect(paid.map((p) => p.height)).toEqual([start + 1, start + 5, start + 13]);

    // The node's connection fails on the 9th block read: blocks start+1..start+8 are read and recorded.
    let reads = 0;
    const dying: BitcoinRpc = {
      ...node.rpc,
      call: <T>(method: string, params?: unknown[]) =>
        method === "getblock" && ++reads === 9 ? Promise.reject(new Error("killed")) : node.rpc.call<T>(method, params),
    };
    await expect(tick({ rpc: dying })).rejects.toThrow("killed");
    const cursor = async () => (await listChainCursors(db)).find((c) => c.chain === options.cursor)!;
    expect(await cursor()).toMatchObject({ height: start + 8, blockHash: await node.rpc.call<string>("getblockhash", [start + 8]) });
    // Recorded with their confirmations from the tip the tick read, and decided before the cursor passed their blocks.
    for (const p of paid) expect(await recorded(p.id)).toEqual(p.height <= start + 8 ? [[p.outpoint, p.units, to - p.height + 1]] : []);
    expect(await Promise.all(paid.map((p) => status(p.id)))).toEqual(["COMPLETED", "COMPLETED", "AWAITING_PAYMENT"]);
    const before = await Promise.all(paid.slice(0, 2).map(async (p) => (await listTransfers(db, p.id))[0]));

    expect(await tick()).toMatchObject({ followed: true, from: start + 9, to, transfers: 1 });
    for (const p of paid) expect(await recorded(p.id)).toEqual([[p.outpoint, p.units, to - p.height + 1]]);
    expect(await Promise.all(paid.slice(0, 2).map(async (p) => (await listTransfers(db, p.id))[0]))).toEqual(before);
    expect(await Promise.all(paid.map((p) => status(p.id)))).toEqual(["COMPLETED", "COMPLETED", "COMPLETED"]);
  }, 60_000);
});
