import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Address, beginCell, toNano } from "@ton/core";
import type { SandboxContract } from "@ton/sandbox";
import type { JettonMinter } from "@ton-community/assets-sdk/dist/jetton/JettonMinter.js";
import { getDb, type Db } from "@/db/client";
import { tonDriver } from "@/lib/chains/ton/driver";
import { OP_INTERNAL_TRANSFER, OP_TRANSFER_NOTIFICATION } from "@/lib/chains/ton/parse";
import { oneChainFileAtATime } from "../serial";
import { TonNode } from "./nodes/ton-node";
import { tonLivePayment, tonWatcher } from "./ton-live-payment";

/**
 * USDT on TON (TON_TETHER) through the TON watcher: the reference jetton minter and wallet code
 * (@ton-community/assets-sdk) deployed in the TVM emulator as the configured master, paid with
 * and without forwarded TON, and a notification forged by a contract that is no jetton wallet.
 * The watcher finds the merchant's jetton wallet with the master's get_wallet_address.
 */

const chainFile = oneChainFileAtATime();

describe("TON watcher: USDT jetton payments (sandbox behind toncenter v2)", () => {
  let node: TonNode;
  let db: Db;
  let minter: SandboxContract<JettonMinter>;
  let w: ReturnType<typeof tonWatcher>;
  let n = 0;

  const merchant = async () => (await node.wallet(`jetton-merchant-${++n}`)).address;
  const livePayment = (wallet: Address) => tonLivePayment(db, "TON_TETHER", wallet.toString({ bounceable: false }), (id) => chainFile.retire(id));
  const started = async () => {
    const o = w.options();
    expect(await w.tick(o)).toMatchObject({ followed: true });
    return o;
  };
  const jettonWalletOf = async (owner: Address) => minter.getWalletAddress(owner);

  beforeAll(async () => {
    db = await getDb();
    node = await TonNode.start();
    const admin = await node.wallet("issuer");
    minter = await node.deployJetton(admin, "USDT-like");
    await node.mint(minter, admin, (await node.wallet("payer")).address, 1_000_000_000_000n);
    w = tonWatcher(db, node.url, () => new Map([["TON_TETHER", minter.address.toRawString()]]));
  });
  afterAll(async () => node?.stop());

  it("counts a transfer with forwarded TON once, from the merchant's jetton wallet, though its notification also reaches the wallet", async () => {
    const o = await started();
    const to = await merchant();
    const p = await livePayment(to);
    const r = await node.payJetton(minter, await node.wallet("payer"), to, p.units, p.comment, toNano("0.01"));
    const jw = await jettonWalletOf(to);
    const credit = r.transactions.find((t) => t.inMessage?.info.dest instanceof Address && t.inMessage.info.dest.equals(jw))!;
    // The notification reached the owner's wallet, from its jetton wallet.
    expect(node.transactionsOf(to).some((k) => k.tx.inMessage?.body.beginParse().loadUint(32) === OP_TRANSFER_NOTIFICATION)).toBe(true);
    expect(await w.tick(o)).toMatchObject({ transfers: 1 });
    expect(await w.transfersOf(p.id)).toMatchObject([{ txId: credit.hash().toString("hex"), amount: String(p.units), confirmations: 1 }]);
    expect(await w.status(p.id)).toBe("COMPLETED");
    expect(await w.reviewOf(p.business.businessId)).toEqual([]);
  });

  it("counts a transfer without forwarded TON: no notification, the jetton wallet's internal transfer carries the comment", async () => {
    const o = await started();
    const to = await merchant();
    const p = await livePayment(to);
    await node.payJetton(minter, await node.wallet("payer"), to, p.units, p.comment, 0n);
    expect(node.transactionsOf(to)).toEqual([]);
    expect(await w.tick(o)).toMatchObject({ transfers: 1 });
    expect(await w.status(p.id)).toBe("COMPLETED");
  });

  it("takes a partial jetton payment, then a top-up", async () => {
    const o = await started();
    const to = await merchant();
    const p = await livePayment(to);
    const payer = await node.wallet("payer");
    await node.payJetton(minter, payer, to, p.units / 2n, p.comment, 1n);
    await w.tick(o);
    expect(await w.status(p.id)).toBe("UNDERPAID");
    await node.payJetton(minter, payer, to, p.units - p.units / 2n, p.comment, 0n);
    await w.tick(o);
    expect(await w.status(p.id)).toBe("COMPLETED");
  });

  it("ignores a transfer_notification forged by a contract that is not the merchant's jetton wallet, and an internal_transfer its jetton wallet refused", async () => {
    const o = await started();
    const to = await merchant();
    const p = await livePayment(to);
    const forger = await node.wallet("forger");
    const body = beginCell()
      .storeUint(OP_TRANSFER_NOTIFICATION, 32)
      .storeUint(0, 64)
      .storeCoins(p.units)
      .storeAddress(forger.address)
      .storeBit(1)
      .storeRef(beginCell().storeUint(0, 32).storeStringTail(p.comment).endCell())
      .endCell();
    node.keep(await forger.send({ to, value: toNano("0.05"), body }));
    // And an internal_transfer sent straight to the merchant's jetton wallet: the wallet code refuses it (not from the master or a sibling wallet).
    const forged = beginCell()
      .storeUint(OP_INTERNAL_TRANSFER, 32)
      .storeUint(0, 64)
      .storeCoins(p.units)
      .storeAddress(forger.address)
      .storeAddress(forger.address)
      .storeCoins(0)
      .storeBit(1)
      .storeRef(beginCell().storeUint(0, 32).storeStringTail(p.comment).endCell())
      .endCell();
    const jw = await jettonWalletOf(to);
    await node.payJetton(minter, await node.wallet("payer"), to, 1n, null, 0n); // deploys the merchant's jetton wallet
    const refused = node.keep(await forger.send({ to: jw, value: toNano("0.05"), body: forged, bounce: true }));
    const there = refused.transactions.find((t) => t.inMessage?.info.dest instanceof Address && t.inMessage.info.dest.equals(jw))!;
    expect(there.description.type === "generic" && there.description.computePhase.type === "vm" && there.description.computePhase.success).toBe(false);
    expect(await w.tick(o)).toMatchObject({ transfers: 0 });
    expect(await w.transfersOf(p.id)).toEqual([]);
    expect(await w.status(p.id)).toBe("AWAITING_PAYMENT");
    // Only the one real unit without a comment waits for review.
    expect((await w.reviewOf(p.business.businessId)).map((r) => r.amount)).toEqual(["1"]);
  });

  it("keeps a jetton transfer without a comment for the merchant's review", async () => {
    const o = await started();
    const to = await merchant();
    const p = await livePayment(to);
    await node.payJetton(minter, await node.wallet("payer"), to, 5_000_000n, null, 0n);
    await w.tick(o);
    expect((await w.reviewOf(p.business.businessId)).map((r) => ({ coin: r.coin, amount: r.amount, comment: r.comment }))).toEqual([{ coin: "TON_TETHER", amount: "5000000", comment: null }]);
    expect(await w.status(p.id)).toBe("AWAITING_PAYMENT");
  });

  it("offers TON_TETHER only with a master that answers get_jetton_data; a wallet given as the master is refused", async () => {
    const ok = await tonDriver(node.url, { jettonMasters: { TON_TETHER: minter.address.toString() } }).identify();
    expect(ok).toMatchObject({ network: "regtest", chainId: null, coins: ["TON", "TON_TETHER"] });
    const wrong = await tonDriver(node.url, { jettonMasters: { TON_TETHER: (await node.wallet("payer")).address.toString() } }).identify();
    expect(wrong.coins).toEqual(["TON"]);
  });
});
