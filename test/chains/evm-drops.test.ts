import { randomUUID } from "node:crypto";
import { asc, eq } from "drizzle-orm";
import { parseGwei, toHex, TransactionNotFoundError, type Address, type Hash, type Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb, type Db } from "@/db/client";
import { listTransfers } from "@/db/queries/charges";
import { paymentEvents, payments } from "@/db/schema";
import type { CoinName } from "@/domain/coins";
import { evmTipOf, type EvmClient } from "@/lib/chains/evm/rpc";
import { DROP_AFTER_MS } from "@/lib/chains/cursor-walk";
import { followEvmChain, type EvmFollowOptions } from "@/lib/chains/evm/follower";
import { oneChainFileAtATime } from "../serial";
import { evmLivePayment } from "./evm-live-payment";
import { startAnvil, type Anvil } from "./nodes/anvil";
import { anvilWallet } from "./nodes/anvil-wallet";
import { reconcilePayment } from "@/lib/payments/reconcile";

const chainFile = oneChainFileAtATime();

/**
 * The Ethereum watcher's drop step against a real anvil: a transfer whose block left the main
 * chain and whose transaction the node no longer has, in a block or pending, is dropped once
 * `dropAfterMs` has passed since it became unconfirmed, and a payment left with nothing fails;
 * one whose transaction another of its sender and nonce replaced on the new chain is dropped at
 * once. Anvil forgets a transaction entirely when `anvil_reorg` replaces its block without
 * replaying it, and mines the transactions it is given in the new blocks.
 */
describe("Ethereum chain watcher: transfers the node forgot (anvil)", () => {
  let node: Anvil;
  let db: Db;
  let anvil: ReturnType<typeof anvilWallet>;
  let usd: Address; // the configured token: 6 decimals, paying ETH_TETHER

  const tip = () => evmTipOf(node.client);
  const tick = (o: EvmFollowOptions, extra: Partial<EvmFollowOptions> = {}) => followEvmChain(db, { ...o, ...extra });
  const status = async (id: string) => (await db.select().from(payments).where(eq(payments.id, id)))[0].status;
  const eventsOf = async (id: string) =>
    (await db.select().from(paymentEvents).where(eq(paymentEvents.paymentId, id)).orderBy(asc(paymentEvents.id))).map((e) => [e.type, e.fromStatus, e.toStatus]);
  /** A tick at `ms` after the moment the transfer last changed (it became unconfirmed). */
  const at = (t: { updatedAt: Date }, ms: number) => ({ now: () => new Date(t.updatedAt.getTime() + ms) });

  /** A watcher under a cursor of its own (test files may share one PostgreSQL database), started at the tip. */
  async function started(): Promise<EvmFollowOptions> {
    const tokens = new Map<string, CoinName[]>([[usd.toLowerCase(), ["ETH_TETHER"]]]);
    const o: EvmFollowOptions = { client: node.client, net: "regtest", owner: "instance-a", cursor: `ETHEREUM-${randomUUID()}`, lateWindowMs: 86_400_000, decide: reconcilePayment, tokens };
    expect(await tick(o)).toMatchObject({ followed: true, to: await tip() });
    return o;
  }

  const livePayment = (coin: CoinName) => evmLivePayment(db, coin, (id) => chainFile.retire(id));


  /** Replaces the newest `depth` blocks with empty ones: their transactions are gone from the chain and from the pool. */
  const reorgOut = (depth: number) => anvil.rpc("anvil_reorg", [depth, []]);
  const known = (hash: Hash) => node.client.getTransaction({ hash }).then((tx) => tx.blockNumber, (err: unknown) => err);

  beforeAll(async () => {
    db = await getDb();
    node = await startAnvil();
    anvil = anvilWallet(node);
    usd = await anvil.deployToken("TUSD", "TUSD", 6);
    await anvil.mint(usd, anvil.wallet.account.address, 10n ** 24n);
  }, 60_000);
  afterAll(async () => node?.stop(), 30_000);

  /** An Ether and a token payment, each paid in a block the watcher has read. */
  async function payEtherAndToken() {
    const o = await started();
    const ether = await livePayment("ETHEREUM");
    const tether = await livePayment("ETH_TETHER");
    const a = await anvil.pay(ether.address, ether.units);
    const b = await anvil.payToken(usd, tether.address, tether.units);
    expect(await tick(o)).toMatchObject({ transfers: 2 });
    return { o, ether, tether, a, b };
  }

  it("drops an Ether and a token transfer the new chain lacks once dropAfterMs has passed, and the payments fail with PAYMENT_FAILED", async () => {
    const { o, ether, tether, a, b } = await payEtherAndToken();
    expect(await listTransfers(db, ether.id)).toMatchObject([{ txId: a.transactionHash, amount: String(ether.units), blockNumber: String(a.blockNumber), confirmations: 2 }]);
    const tokenKey = `${b.transactionHash}:${b.logs[0].logIndex}`;
    expect(await listTransfers(db, tether.id)).toMatchObject([{ txId: tokenKey, amount: String(tether.units), blockNumber: String(b.blockNumber), confirmations: 1 }]);
    expect([await status(ether.id), await status(tether.id)]).toEqual(["PENDING", "PENDING"]);

    // Both blocks are replaced by empty ones: the node knows neither transaction any more.
    const height = await tip();
    await reorgOut(2);
    expect(await tip()).toBe(height);
    expect(await known(a.transactionHash)).toBeInstanceOf(TransactionNotFoundError);
    expect(await known(b.transactionHash)).toBeInstanceOf(TransactionNotFoundError);
    expect(await tick(o)).toMatchObject({ reorgedAt: Number(a.blockNumber) - 1, transfers: 0 });
    const [lostEther] = await listTransfers(db, ether.id);
    const [lostToken] = await listTransfers(db, tether.id);
    for (const t of [lostEther, lostToken]) expect(t).toMatchObject({ blockNumber: null, blockHash: null, confirmations: 0, dropped: false });
    expect([await status(ether.id), await status(tether.id)]).toEqual(["PENDING", "PENDING"]);

    // Within dropAfterMs of becoming unconfirmed: kept, the payments wait.
    await anvil.mine(1);
    await tick(o, at(lostEther, DROP_AFTER_MS - 1));
    expect((await listTransfers(db, ether.id))[0].dropped).toBe(false);
    expect((await listTransfers(db, tether.id))[0].dropped).toBe(false);
    expect([await status(ether.id), await status(tether.id)]).toEqual(["PENDING", "PENDING"]);

    // A node that cannot answer says nothing about a transaction: the tick fails, nothing is dropped.
    const down = new Proxy(node.client, {
      get: (target, prop, receiver) =>
        prop === "getTransaction" ? () => Promise.reject(new Error("node down")) : (Reflect.get(target, prop, receiver) as unknown),
    }) as EvmClient;
    await expect(tick(o, { client: down, ...at(lostToken, DROP_AFTER_MS) })).rejects.toThrow("node down");
    expect((await listTransfers(db, ether.id))[0].dropped).toBe(false);

    // dropAfterMs after: dropped (the token transfer by its transaction's hash, without the log index), and the payments fail.
    const later = at(lostToken, DROP_AFTER_MS);
    expect(await tick(o, later)).toMatchObject({ followed: true, transfers: 0 });
    expect(await listTransfers(db, ether.id)).toMatchObject([{ txId: a.transactionHash, amount: String(ether.units), dropped: true, confirmations: 0 }]);
    expect(await listTransfers(db, tether.id)).toMatchObject([{ txId: tokenKey, amount: String(tether.units), dropped: true, confirmations: 0 }]);
    expect([await status(ether.id), await status(tether.id)]).toEqual(["FAILED", "FAILED"]);
    for (const id of [ether.id, tether.id]) {
      expect((await eventsOf(id)).slice(-2)).toEqual([
        ["PAYMENT_PENDING", "AWAITING_PAYMENT", "PENDING"],
        ["PAYMENT_FAILED", "PENDING", "FAILED"],
      ]);
    }
    // Nothing more happens to them.
    await tick(o, later);
    expect((await eventsOf(ether.id)).filter(([type]) => type === "PAYMENT_FAILED")).toHaveLength(1);
  });

  it("keeps a transfer whose transaction is back in the node's pool, however long, and finds it in its block once mined", async () => {
    const o = await started();
    const p = await livePayment("ETHEREUM");
    const r = await anvil.pay(p.address, p.units);
    const raw = (await anvil.rpc("eth_getRawTransactionByHash", [r.transactionHash])) as Hex;
    await tick(o);
    await reorgOut(1);
    await tick(o);
    const [lost] = await listTransfers(db, p.id);
    expect(lost).toMatchObject({ blockNumber: null, confirmations: 0, dropped: false });

    // The same signed transaction sent again, pending: blocks are mined only when asked.
    await anvil.rpc("evm_setAutomine", [false]);
    try {
      await anvil.rpc("eth_sendRawTransaction", [raw]);
      expect(await known(r.transactionHash)).toBeNull();
      await tick(o, at(lost, DROP_AFTER_MS + 3_600_000));
      expect(await listTransfers(db, p.id)).toMatchObject([{ blockNumber: null, dropped: false }]);
      expect(await status(p.id)).toBe("PENDING");
      await anvil.mine(1);
    } finally {
      await anvil.rpc("evm_setAutomine", [true]);
    }
    const mined = await node.client.getTransactionReceipt({ hash: r.transactionHash });
    expect(await tick(o, at(lost, DROP_AFTER_MS + 3_600_000))).toMatchObject({ transfers: 1 });
    expect(await listTransfers(db, p.id)).toMatchObject([
      { id: lost.id, txId: r.transactionHash, amount: String(p.units), blockNumber: String(mined.blockNumber), blockHash: mined.blockHash, confirmations: 1, dropped: false },
    ]);
    await anvil.mine(11);
    await tick(o);
    expect(await status(p.id)).toBe("COMPLETED");
  });

  it("drops at once a transfer whose transaction another of its sender and nonce replaced on the new chain, Ether and token alike; the payments fail", async () => {
    const { o, ether, tether, a, b } = await payEtherAndToken();
    const sender = anvil.wallet.account.address;
    const [nonceA, nonceB] = await Promise.all([a, b].map(async (r) => (await node.client.getTransaction({ hash: r.transactionHash })).nonce));
    // Each recorded with its transaction's sender and nonce (the token's asked for: its log names neither).
    expect(await listTransfers(db, ether.id)).toMatchObject([{ spends: [`${sender.toLowerCase()}:${nonceA}`] }]);
    expect(await listTransfers(db, tether.id)).toMatchObject([{ spends: [`${sender.toLowerCase()}:${nonceB}`] }]);

    // Both blocks are replaced by blocks holding other transactions of the sender with the same nonces, paying elsewhere.
    const elsewhere = "0x000000000000000000000000000000000000dEaD";
    const instead = (nonce: number, offset: number) => [{ from: sender, to: elsewhere, value: toHex(1), nonce: toHex(nonce), gas: toHex(21_000) }, offset];
    await anvil.rpc("anvil_reorg", [2, [instead(nonceA, 0), instead(nonceB, 1)]]);
    expect(await node.client.getTransactionCount({ address: sender, blockTag: "latest" })).toBe(nonceB + 1);
    // The next tick, well within DROP_AFTER_MS: both dropped, both payments failed.
    expect(await tick(o)).toMatchObject({ reorgedAt: Number(a.blockNumber) - 1 });
    expect(await listTransfers(db, ether.id)).toMatchObject([{ txId: a.transactionHash, dropped: true }]);
    expect(await listTransfers(db, tether.id)).toMatchObject([{ txHash: b.transactionHash, dropped: true }]);
    expect([await status(ether.id), await status(tether.id)]).toEqual(["FAILED", "FAILED"]);
    expect((await eventsOf(ether.id)).at(-1)).toEqual(["PAYMENT_FAILED", "PENDING", "FAILED"]);
  });

  it("never records a pending transaction, so one replaced in the pool by its sender changes nothing", async () => {
    const o = await started();
    const p = await livePayment("ETHEREUM");
    await anvil.rpc("evm_setAutomine", [false]);
    try {
      const nonce = await node.client.getTransactionCount({ address: anvil.wallet.account.address, blockTag: "pending" });
      const fee = { maxFeePerGas: parseGwei("20"), maxPriorityFeePerGas: parseGwei("1") };
      const first = await anvil.wallet.sendTransaction({ to: p.address, value: p.units, nonce, gas: 21_000n, ...fee });
      expect(await tick(o)).toMatchObject({ transfers: 0 });
      // The same nonce again with a higher fee, paying elsewhere: the pool keeps the replacement.
      const more = { maxFeePerGas: parseGwei("40"), maxPriorityFeePerGas: parseGwei("2") };
      const second = await anvil.wallet.sendTransaction({ to: "0x000000000000000000000000000000000000dEaD", value: 1n, nonce, gas: 21_000n, ...more });
      await anvil.mine(1);
      expect((await node.client.getTransactionReceipt({ hash: second })).status).toBe("success");
      expect(await known(first)).toBeInstanceOf(TransactionNotFoundError);
    } finally {
      await anvil.rpc("evm_setAutomine", [true]);
    }
    expect(await tick(o)).toMatchObject({ transfers: 0 });
    expect(await listTransfers(db, p.id)).toEqual([]);
    expect(await status(p.id)).toBe("AWAITING_PAYMENT");
  });
});
