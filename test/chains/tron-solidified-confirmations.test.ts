import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb, type Db } from "@/db/client";
import { findCharge, listTransfers } from "@/db/queries/charges";
import { businesses, payments } from "@/db/schema";
import { selectCoin } from "@/lib/checkout/select";
import { followTronChain, type TronFollowOptions } from "@/lib/chains/tron/follower";
import { tronClient } from "@/lib/chains/tron/rpc";
import { reconcilePayment } from "@/lib/payments/reconcile";
import { createPayment, newBusiness } from "../helpers";
import { oneChainFileAtATime } from "../serial";
import { startTronNode, type TronNode } from "./nodes/tron-node";

/**
 * Whether a TRON transfer's block is solidified compares block NUMBERS: the stored block number
 * is text, and as text "10" sorts before "2", so a block with more digits than the solidified
 * one's would count as irreversible 18 blocks early (and one with fewer, as not yet). Mainnet
 * crosses such a boundary at block 100 000 000; a test network or the e2e node at 10, 100, ….
 */

const chainFile = oneChainFileAtATime();

describe("TRON confirmations across a power of ten", () => {
  let node: TronNode;
  let db: Db;
  beforeAll(async () => {
    db = await getDb();
    node = await startTronNode();
  });
  afterAll(async () => node?.stop());

  it("a transfer in block 10 stays PENDING while the solidified block is 2, and completes once it is 10", async () => {
    const usdt = node.deployToken({ symbol: "USDT", decimals: 6 });
    const payer = node.newAccount();
    node.mint(usdt.address, payer.address, 10n ** 12n);
    const o: TronFollowOptions = {
      client: tronClient(node.url),
      net: "regtest",
      owner: "a",
      cursor: `TRON-${randomUUID()}`,
      lateWindowMs: 86_400_000,
      decide: reconcilePayment,
      tokens: new Map([[usdt.hex, ["TRX_TETHER"]]]),
    };
    await followTronChain(db, o); // the first tick starts at the tip

    // A live business's USDT charge (made by a test business, which is offered every coin, then turned live).
    const business = await newBusiness();
    const { id } = await createPayment(business);
    await selectCoin(db, id, "TRX_TETHER");
    await db.update(businesses).set({ mode: "live" }).where(eq(businesses.id, business.businessId));
    chainFile.retire(business.businessId);
    const charge = (await findCharge(db, id))!;

    await node.mine(9);
    await node.sendToken(payer, usdt.address, charge.address, BigInt(charge.quotedUnits));
    const [block] = await node.mine();
    expect(block.number).toBe(10);
    await node.mine(10);
    expect([node.head(), node.solidified()]).toEqual([20, 2]);
    await followTronChain(db, o);
    const status = async () => (await db.select().from(payments).where(eq(payments.id, id)))[0].status;
    expect(await listTransfers(db, id)).toMatchObject([{ blockNumber: "10", confirmations: 11 }]);
    expect(await status()).toBe("PENDING");

    await node.mine(8);
    expect(node.solidified()).toBe(10);
    await followTronChain(db, o);
    expect(await listTransfers(db, id)).toMatchObject([{ blockNumber: "10", confirmations: 19 }]);
    expect(await status()).toBe("COMPLETED");
  });
});
