import { randomUUID } from "node:crypto";
import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb, type Db } from "@/db/client";
import { findCharge, listTransfers } from "@/db/queries/charges";
import { paymentEvents, payments } from "@/db/schema";
import { toBaseUnits, unitsToDecimal } from "@/domain/amounts";
import { DROP_AFTER_MS } from "@/lib/chains/cursor-walk";
import { inputsOf, type VerboseTx } from "@/lib/chains/bitcoin/scan";
import { followBitcoinChain, type FollowOptions } from "@/lib/chains/bitcoin/follower";
import { selectCoin } from "@/lib/checkout/select";
import { reconcilePayment } from "@/lib/payments/reconcile";
import { chainFollowed, createPayment, newBusiness } from "../helpers";
import { oneChainFileAtATime } from "../serial";
import { LITECOIN_REGTEST_TPUB as tpub, litecoindInstalled, startLitecoind, type Litecoind } from "./nodes/litecoind";

const chainFile = oneChainFileAtATime();

/**
 * Double-spends on a real Litecoin Core node in regtest: a transaction spending an input of a
 * payment's unconfirmed transaction, mined in a block or held in the mempool, drops the
 * payment's transfer in the tick that sees it, and the payment fails; a transaction that
 * vanished with no conflicting spend seen is dropped only after DROP_AFTER_MS. Litecoin Core
 * replaces nothing in its mempool (bumpfee's replacement is refused there), so a conflict is
 * mined with `generateblock`, and put in the mempool by invalidating the block that holds it.
 */
const run = litecoindInstalled() || process.env.CI === "true";

describe.runIf(run)("Bitcoin-family double-spends (Litecoin Core, regtest)", () => {
  let node: Litecoind;
  let db: Db;
  let options: FollowOptions;
  const miner = () => node.wallet("miner");
  const mine = async (n: number) => node.rpc.call<string[]>("generatetoaddress", [n, await miner().call<string>("getnewaddress")]);
  const tick = (extra: Partial<FollowOptions> = {}) => followBitcoinChain(db, { ...options, ...extra });
  const status = async (id: string) => (await db.select().from(payments).where(eq(payments.id, id)))[0].status;
  const eventsOf = async (id: string) => (await db.select().from(paymentEvents).where(eq(paymentEvents.paymentId, id)).orderBy(asc(paymentEvents.id))).map((e) => e.type);
  const rawTx = (txid: string) => node.rpc.call<VerboseTx>("getrawtransaction", [txid, true]);

  async function livePayment() {
    await chainFollowed("LITECOIN", { network: "regtest" });
    const business = await newBusiness({ mode: "live", enabledCoins: ["LITECOIN"], extendedPublicKeys: { LITECOIN: tpub } });
    chainFile.retire(business.businessId);
    const { id } = await createPayment(business);
    await selectCoin(db, id, "LITECOIN");
    const charge = (await findCharge(db, id))!;
    return { id, address: charge.address, due: unitsToDecimal(BigInt(charge.quotedUnits), 8) };
  }

  /** A signed transaction spending `outpoint` (less a fee) back to the miner: it conflicts with whatever else spends it. */
  async function spendAgain(outpoint: { txid: string; vout: number }) {
    const funding = await rawTx(outpoint.txid);
    const value = toBaseUnits("LITECOIN", funding.vout[outpoint.vout].value) - 100_000n;
    const back = await miner().call<string>("getnewaddress");
    const raw = await node.rpc.call<string>("createrawtransaction", [[outpoint], { [back]: unitsToDecimal(value, 8) }]);
    const signed = await miner().call<{ hex: string; complete: boolean }>("signrawtransactionwithwallet", [raw]);
    expect(signed.complete).toBe(true);
    return { hex: signed.hex, back };
  }
  /** Mines `hex` in a block of its own, whatever the mempool holds (a conflicting transaction there is evicted). */
  const mineConflict = async (c: { hex: string; back: string }) => (await node.rpc.call<{ hash: string }>("generateblock", [c.back, [c.hex]])).hash;

  beforeAll(async () => {
    db = await getDb();
    node = await startLitecoind();
    await node.rpc.call("createwallet", ["miner"]);
    await mine(101);
    options = { chain: "LITECOIN", cursor: `LITECOIN-${randomUUID()}`, rpc: node.rpc, net: "regtest", owner: "instance-a", lateWindowMs: 7 * 86_400_000, decide: reconcilePayment, seenInMempool: new Set() };
    await tick();
  }, 60_000);
  afterAll(async () => node?.stop(), 30_000);

  it("drops a transfer in the tick that reads a block spending its transaction's input, and the payment fails; another payment's stays", async () => {
    const p = await livePayment();
    const other = await livePayment();
    // The other payment's transaction is mined first: the payment's spends a confirmed output.
    await miner().call<string>("sendtoaddress", [other.address, other.due]);
    await mine(1);
    const txid = await miner().call<string>("sendtoaddress", [p.address, p.due]);
    expect(await tick()).toMatchObject({ transfers: 2 });
    const paid = await rawTx(txid);
    // Recorded with the outpoints its transaction spends.
    expect(await listTransfers(db, p.id)).toMatchObject([{ txHash: txid, spends: inputsOf(paid), dropped: false }]);
    expect(await status(p.id)).toBe("PENDING");

    await mineConflict(await spendAgain({ txid: paid.vin[0].txid!, vout: paid.vin[0].vout! }));
    // One tick, well within DROP_AFTER_MS of the transfer being recorded.
    await tick();
    expect(await listTransfers(db, p.id)).toMatchObject([{ txHash: txid, dropped: true, confirmations: 0 }]);
    expect(await status(p.id)).toBe("FAILED");
    expect((await eventsOf(p.id)).slice(-2)).toEqual(["PAYMENT_PENDING", "PAYMENT_FAILED"]);
    expect(await listTransfers(db, other.id)).toMatchObject([{ dropped: false, confirmations: 2 }]);
    expect(await status(other.id)).toBe("COMPLETED");
  }, 60_000);

  it("drops a transfer in the tick that finds a transaction spending its input in the mempool", async () => {
    const p = await livePayment();
    const txid = await miner().call<string>("sendtoaddress", [p.address, p.due]);
    await tick();
    expect(await status(p.id)).toBe("PENDING");
    const paid = await rawTx(txid);
    // The conflict is mined (the payment's transaction leaves the mempool), then its block is
    // invalidated before any tick: the conflict is back in the mempool, the payment's is not.
    const block = await mineConflict(await spendAgain({ txid: paid.vin[0].txid!, vout: paid.vin[0].vout! }));
    await node.rpc.call("invalidateblock", [block]);
    expect(await node.rpc.call<string[]>("getrawmempool")).not.toContain(txid);
    await tick();
    expect(await listTransfers(db, p.id)).toMatchObject([{ dropped: true }]);
    expect(await status(p.id)).toBe("FAILED");
    await node.rpc.call("reconsiderblock", [block]);
    await tick();
  }, 60_000);

  it("keeps a transfer whose transaction vanished with no conflicting spend seen until DROP_AFTER_MS has passed", async () => {
    const p = await livePayment();
    // The payment spends an unconfirmed parent; the parent's own input is then spent by another
    // transaction, mined: the parent is double-spent and the payment's transaction evicted with
    // it, though nothing spends the payment's own input.
    const self = await miner().call<string>("getnewaddress");
    const parentId = await miner().call<string>("sendtoaddress", [self, "5"]);
    const parent = await rawTx(parentId);
    const vout = parent.vout.find((o) => toBaseUnits("LITECOIN", o.value) === 500_000_000n)!.n;
    const change = unitsToDecimal(500_000_000n - toBaseUnits("LITECOIN", p.due) - 100_000n, 8);
    const raw = await node.rpc.call<string>("createrawtransaction", [[{ txid: parentId, vout }], { [p.address]: p.due, [self]: change }]);
    const signed = await miner().call<{ hex: string; complete: boolean }>("signrawtransactionwithwallet", [raw]);
    const txid = await node.rpc.call<string>("sendrawtransaction", [signed.hex]);
    await tick();
    expect(await listTransfers(db, p.id)).toMatchObject([{ txHash: txid, spends: [`${parentId}:${vout}`] }]);
    await mineConflict(await spendAgain({ txid: parent.vin[0].txid!, vout: parent.vin[0].vout! }));
    expect(await node.rpc.call<string[]>("getrawmempool")).not.toContain(txid);

    await tick();
    expect(await listTransfers(db, p.id)).toMatchObject([{ dropped: false }]);
    expect(await status(p.id)).toBe("PENDING");
    const [t] = await listTransfers(db, p.id);
    await tick({ now: () => new Date(t.updatedAt.getTime() + DROP_AFTER_MS - 1) });
    expect(await status(p.id)).toBe("PENDING");
    await tick({ now: () => new Date(t.updatedAt.getTime() + DROP_AFTER_MS) });
    expect(await listTransfers(db, p.id)).toMatchObject([{ dropped: true }]);
    expect(await status(p.id)).toBe("FAILED");
  }, 60_000);
});
