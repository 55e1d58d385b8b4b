import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { listChainCursors } from "@/db/queries/chain-cursors";
import { findCharge, listTransfers } from "@/db/queries/charges";
import { payments } from "@/db/schema";
import { unitsToDecimal } from "@/domain/amounts";
import { deriveAddressForCoin } from "@/lib/wallets/derive";
import { bitcoinWatchList, followBitcoinChain, type FollowOptions } from "@/lib/chains/bitcoin/follower";
import { selectCoin } from "@/lib/checkout/select";
import { chainFollowed, createPayment, newBusiness } from "../helpers";
import { oneChainFileAtATime } from "../serial";
import { LITECOIN_REGTEST_TPUB as tpub, litecoindInstalled, startLitecoind, type Litecoind } from "./nodes/litecoind";
import { reconcilePayment } from "@/lib/payments/reconcile";

oneChainFileAtATime();

/**
 * The Bitcoin-family watcher following a real Litecoin Core node in regtest, deciding statuses
 * with the same detection step as the simulator.
 */
const run = litecoindInstalled() || process.env.CI === "true";

describe.runIf(run)("Bitcoin-family chain watcher (Litecoin Core, regtest)", () => {
  let node: Litecoind;
  let options: FollowOptions;
  const mine = async (n: number) => node.rpc.call("generatetoaddress", [n, await node.wallet("miner").call<string>("getnewaddress")]);

  beforeAll(async () => {
    node = await startLitecoind();
    await node.rpc.call("createwallet", ["miner"]);
    await mine(101);
    // A cursor of its own: test files may share one PostgreSQL database.
    options = { chain: "LITECOIN", cursor: `LITECOIN-${randomUUID()}`, rpc: node.rpc, net: "regtest", owner: "instance-a", lateWindowMs: 7 * 86_400_000, decide: reconcilePayment };
  }, 60_000);
  afterAll(async () => node?.stop(), 30_000);

  /**
   * A live Litecoin payment with its charge, its address derived for regtest from the node's key:
   * the LITECOIN chain is marked followed on regtest, as the runner's watcher writes it.
   */
  async function livePayment() {
    const db = await getDb();
    await chainFollowed("LITECOIN", { network: "regtest" });
    const business = await newBusiness({ mode: "live", enabledCoins: ["LITECOIN"], extendedPublicKeys: { LITECOIN: tpub } });
    const { id } = await createPayment(business);
    await selectCoin(db, id, "LITECOIN");
    const charge = (await findCharge(db, id))!;
    expect(charge.address).toBe(deriveAddressForCoin("LITECOIN", tpub, charge.derivationIndex!, "regtest"));
    return { id, address: charge.address, units: charge.quotedUnits, due: unitsToDecimal(BigInt(charge.quotedUnits), 8) };
  }
  const status = async (id: string) => (await (await getDb()).select().from(payments).where(eq(payments.id, id)))[0].status;

  it("starts at the tip, then sees a payment in its block, counts confirmations and completes it", async () => {
    const db = await getDb();
    const start = await followBitcoinChain(db, options);
    const tip = await node.rpc.call<number>("getblockcount");
    expect(start).toMatchObject({ followed: true, to: tip });

    const p = await livePayment();
    const txid = await node.wallet("miner").call<string>("sendtoaddress", [p.address, p.due]);
    // In the mempool: seen, not confirmed.
    expect(await followBitcoinChain(db, options)).toMatchObject({ followed: true, transfers: 1 });
    expect(await listTransfers(db, p.id)).toMatchObject([{ confirmations: 0, blockNumber: null, blockHash: null }]);
    expect(await status(p.id)).toBe("PENDING");
    const [hash] = (await mine(1)) as unknown as string[];
    expect(await followBitcoinChain(db, options)).toMatchObject({ from: tip + 1, to: tip + 1, transfers: 1 });
    const [transfer] = await listTransfers(db, p.id);
    const tx = await node.rpc.call<{ vout: { n: number; scriptPubKey: { addresses?: string[] } }[] }>("getrawtransaction", [txid, true]);
    const vout = tx.vout.find((o) => o.scriptPubKey.addresses?.[0] === p.address)!.n;
    expect(transfer).toMatchObject({ txId: `${txid}:${vout}`, amount: p.units, blockNumber: String(tip + 1), blockHash: hash, confirmations: 1 });
    expect(await status(p.id)).toBe("PENDING"); // LITECOIN needs 2 confirmations

    await mine(1);
    expect(await followBitcoinChain(db, options)).toMatchObject({ transfers: 0, reconciled: 1 });
    expect((await listTransfers(db, p.id))[0].confirmations).toBe(2);
    expect(await status(p.id)).toBe("COMPLETED");

    // Money after the payment closed is recorded as late and changes nothing.
    await node.wallet("miner").call("sendtoaddress", [p.address, "0.001"]);
    await mine(1);
    await followBitcoinChain(db, options);
    const late = (await listTransfers(db, p.id)).filter((t) => t.late);
    expect(late.map((t) => t.amount)).toEqual(["100000"]);
    expect(await status(p.id)).toBe("COMPLETED");

    // Past the late-payment window a closed payment is no longer watched: its count stays.
    const paid = async () => (await listTransfers(db, p.id)).find((t) => !t.late)!.confirmations;
    const counted = await paid();
    await mine(1);
    await followBitcoinChain(db, { ...options, lateWindowMs: 0 });
    expect(await paid()).toBe(counted);
    await mine(1);
    await followBitcoinChain(db, options);
    expect(await paid()).toBe(counted + 2);
  }, 60_000);

  it("after a reorganisation, unconfirms a transfer whose block left the chain and finds it again in its new block", async () => {
    const db = await getDb();
    const seenInMempool = new Set<string>();
    const o = { ...options, seenInMempool };
    await followBitcoinChain(db, o);
    const p = await livePayment();
    await node.wallet("miner").call("sendtoaddress", [p.address, p.due]);
    const [first] = (await mine(1)) as unknown as string[];
    await followBitcoinChain(db, o);
    const height = (await listTransfers(db, p.id))[0].blockNumber;
    expect(await listTransfers(db, p.id)).toMatchObject([{ blockHash: first, confirmations: 1 }]);
    // The block is replaced: the transaction goes back to the node's mempool.
    await node.rpc.call("invalidateblock", [first]);
    const reorg = await followBitcoinChain(db, o);
    expect(reorg.reorgedAt).toBe(Number(height) - 1);
    expect(await listTransfers(db, p.id)).toMatchObject([{ blockNumber: null, blockHash: null, confirmations: 0 }]);
    // The cursor is back at the fork: the next tick, with no new block, finds nothing to undo.
    const cursor = (await listChainCursors(db)).find((c) => c.chain === options.cursor)!;
    expect(cursor).toMatchObject({ height: Number(height) - 1, blockHash: await node.rpc.call<string>("getblockhash", [Number(height) - 1]) });
    expect((await followBitcoinChain(db, o)).reorgedAt).toBeUndefined();
    expect(await status(p.id)).toBe("PENDING");
    const [second] = (await mine(1)) as unknown as string[];
    expect(second).not.toBe(first);
    await followBitcoinChain(db, o);
    expect(await listTransfers(db, p.id)).toMatchObject([{ blockNumber: height, blockHash: second, confirmations: 1 }]);
    expect(await status(p.id)).toBe("PENDING");
    await mine(1);
    await followBitcoinChain(db, o);
    expect(await status(p.id)).toBe("COMPLETED");
  }, 60_000);

  it("catches up on every block mined while it was stopped, and leaves the chain to the lease's holder", async () => {
    const db = await getDb();
    await followBitcoinChain(db, options);
    const p = await livePayment();
    await node.wallet("miner").call("sendtoaddress", [p.address, p.due]);
    await mine(30); // the watcher is not running
    expect(await followBitcoinChain(db, { ...options, owner: "instance-b" })).toMatchObject({ followed: false });
    const caught = await followBitcoinChain(db, options);
    expect(caught).toMatchObject({ followed: true, transfers: 1, to: await node.rpc.call<number>("getblockcount") });
    expect(await status(p.id)).toBe("COMPLETED");
    const cursor = (await listChainCursors(db)).find((c) => c.chain === options.cursor)!;
    expect(cursor).toMatchObject({ height: caught.to, network: "regtest", leaseOwner: "instance-a" });
    expect(cursor.blockHash).toBe(await node.rpc.call<string>("getblockhash", [caught.to]));
  }, 60_000);

  it("keeps its watch set between ticks: read whole once, a payment made after that is seen, and a payment no longer watched records nothing", async () => {
    const db = await getDb();
    const watch = bitcoinWatchList("LITECOIN");
    const o = { ...options, watch, seenInMempool: new Set<string>() };
    await followBitcoinChain(db, options); // a first tick only sets the cursor at the tip
    await followBitcoinChain(db, o);
    await followBitcoinChain(db, o);
    expect(watch.reads).toEqual({ full: 1, changes: 1 });

    // Made after the set was read (the checkout may run on any instance): the next tick sees it paid.
    const p = await livePayment();
    await node.wallet("miner").call("sendtoaddress", [p.address, p.due]);
    expect(await followBitcoinChain(db, o)).toMatchObject({ transfers: 1 });
    expect(await status(p.id)).toBe("PENDING");
    await mine(2);
    await followBitcoinChain(db, o);
    expect(await status(p.id)).toBe("COMPLETED");

    // Closed past the late-payment window: still in the kept set until its next full read, but
    // checked against the database before recording, so money sent now is not recorded.
    await db.update(payments).set({ updatedAt: new Date(Date.now() - 8 * 86_400_000) }).where(eq(payments.id, p.id));
    await node.wallet("miner").call("sendtoaddress", [p.address, "0.001"]);
    await mine(1);
    expect(await followBitcoinChain(db, o)).toMatchObject({ transfers: 0 });
    expect(await listTransfers(db, p.id)).toHaveLength(1);
    expect(watch.reads.full).toBe(1);
  }, 60_000);
});
