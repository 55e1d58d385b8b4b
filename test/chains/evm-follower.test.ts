import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Address, Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb, type Db } from "@/db/client";
import { listChainCursors } from "@/db/queries/chain-cursors";
import { listTransfers } from "@/db/queries/charges";
import { payments } from "@/db/schema";
import type { CoinName } from "@/domain/coins";
import { evmTipOf, type EvmClient } from "@/lib/chains/evm/rpc";
import { RECENT_BLOCKS } from "@/lib/chains/cursor-walk";
import { followEvmChain, type EvmFollowOptions } from "@/lib/chains/evm/follower";
import { expirePaymentIfDue } from "@/lib/payments/expiry";
import { oneChainFileAtATime } from "../serial";
import { evmLivePayment } from "./evm-live-payment";
import { startAnvil, type Anvil } from "./nodes/anvil";
import { anvilWallet } from "./nodes/anvil-wallet";
import { reconcilePayment } from "@/lib/payments/reconcile";

/**
 * The Ethereum watcher following a real anvil, deciding statuses with the same detection step
 * as the simulator. The tests share one node and run in order; each follows it under a cursor
 * of its own, as test files may share one PostgreSQL database.
 */

const WEEK = 7 * 86_400_000;

/** The client, counting the block and log reads made through it, and failing from the `killAt`-th block read on (a watcher killed mid-tick). */
function instrumented(client: EvmClient, killAt = Infinity, beforeLogs?: () => Promise<unknown>) {
  const calls = { getBlock: 0, getLogs: 0 };
  const proxy = new Proxy(client, {
    get(target, prop, receiver) {
      const value: unknown = Reflect.get(target, prop, receiver);
      if (prop !== "getBlock" && prop !== "getLogs") return value;
      return async (...args: unknown[]) => {
        if (++calls[prop] >= killAt && prop === "getBlock") throw new Error("killed");
        if (prop === "getLogs") await beforeLogs?.();
        return (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
      };
    },
  });
  return { client: proxy, calls };
}

const chainFile = oneChainFileAtATime();

describe("Ethereum chain watcher (anvil)", () => {
  let node: Anvil;
  let db: Db;
  let usd: Address; // the configured token: 6 decimals, paying ETH_TETHER and CONTRACT_ERC20_USDT
  let usdc: Address; // another configured token, paying ETH_USD_COIN
  let fake: Address; // the same token deployed again, configured nowhere
  let anvil: ReturnType<typeof anvilWallet>;
  const tip = () => evmTipOf(node.client);
  async function deployToken(symbol: string) {
    const token = await anvil.deployToken(symbol, symbol, 6);
    await anvil.mint(token, anvil.wallet.account.address, 10n ** 24n);
    return token;
  }

  function options(extra: Partial<EvmFollowOptions> = {}): EvmFollowOptions {
    const tokens = new Map<string, CoinName[]>([
      [usd.toLowerCase(), ["ETH_TETHER", "CONTRACT_ERC20_USDT"]],
      [usdc.toLowerCase(), ["ETH_USD_COIN"]],
    ]);
    return { client: node.client, net: "regtest", owner: "instance-a", cursor: `ETHEREUM-${randomUUID()}`, lateWindowMs: WEEK, decide: reconcilePayment, tokens, ...extra };
  }
  const tick = (o: EvmFollowOptions, extra: Partial<EvmFollowOptions> = {}) => followEvmChain(db, { ...o, ...extra });
  /** A watcher's first tick: it starts at the tip. */
  async function started(extra: Partial<EvmFollowOptions> = {}) {
    const o = options(extra);
    expect(await tick(o)).toMatchObject({ followed: true, to: await tip() });
    return o;
  }
  const cursorOf = async (o: EvmFollowOptions) => (await listChainCursors(db)).find((c) => c.chain === o.cursor)!;
  const status = async (id: string) => (await db.select().from(payments).where(eq(payments.id, id)))[0].status;
  const transfersOf = (id: string) => listTransfers(db, id);

  const livePayment = (coin: CoinName) => evmLivePayment(db, coin, (id) => chainFile.retire(id));


  beforeAll(async () => {
    db = await getDb();
    node = await startAnvil();
    anvil = anvilWallet(node);
    usd = await deployToken("TUSD");
    usdc = await deployToken("TUSDC");
    fake = await deployToken("FAKE");
  }, 60_000);
  afterAll(async () => node?.stop(), 30_000);

  it("sees an exact Ether payment in its block: PENDING at 1 confirmation, COMPLETED at 12", async () => {
    const o = await started();
    const p = await livePayment("ETHEREUM");
    expect(p.required).toBe(12);
    const r = await anvil.pay(p.address, p.units);
    const height = Number(r.blockNumber);
    expect(await tick(o)).toMatchObject({ followed: true, from: height, to: height, transfers: 1 });
    expect(await transfersOf(p.id)).toMatchObject([
      { txId: r.transactionHash, amount: String(p.units), toAddress: p.address, blockNumber: String(height), blockHash: r.blockHash, confirmations: 1, late: false },
    ]);
    expect(await status(p.id)).toBe("PENDING");
    await anvil.mine(10);
    expect(await tick(o)).toMatchObject({ transfers: 0 });
    expect(await transfersOf(p.id)).toMatchObject([{ confirmations: 11 }]);
    expect(await status(p.id)).toBe("PENDING");
    await anvil.mine(1);
    await tick(o);
    expect(await transfersOf(p.id)).toMatchObject([{ confirmations: 12 }]);
    expect(await status(p.id)).toBe("COMPLETED");
  });

  it("a partial payment is UNDERPAID once confirmed; the top-up completes it", async () => {
    const o = await started();
    const p = await livePayment("ETHEREUM");
    const part = p.units / 2n;
    const first = await anvil.pay(p.address, part);
    await tick(o);
    expect(await status(p.id)).toBe("PENDING");
    await anvil.mine(11);
    await tick(o);
    expect(await status(p.id)).toBe("UNDERPAID");
    const rest = await anvil.pay(p.address, p.units - part);
    await tick(o);
    expect(await status(p.id)).toBe("PENDING");
    await anvil.mine(11);
    await tick(o);
    expect(await status(p.id)).toBe("COMPLETED");
    expect((await transfersOf(p.id)).map((t) => [t.txId, t.amount, t.confirmations])).toEqual([
      [first.transactionHash, String(part), 24],
      [rest.transactionHash, String(p.units - part), 12],
    ]);
  });

  it("an overpayment completes the payment with the exact amount recorded; so do two transfers making up the amount", async () => {
    const o = await started();
    const over = await livePayment("ETHEREUM");
    const two = await livePayment("ETHEREUM");
    const extra = 123_456_789_012_345_678n; // beyond a double's 2^53: exactness shows
    await anvil.pay(over.address, over.units + extra);
    const a = await anvil.pay(two.address, two.units / 3n);
    const b = await anvil.pay(two.address, two.units - two.units / 3n);
    expect(await tick(o)).toMatchObject({ transfers: 3 });
    await anvil.mine(11);
    await tick(o);
    expect(await status(over.id)).toBe("COMPLETED");
    expect((await transfersOf(over.id)).map((t) => t.amount)).toEqual([String(over.units + extra)]);
    expect(await status(two.id)).toBe("COMPLETED");
    expect((await transfersOf(two.id)).map((t) => [t.txId, t.amount, t.confirmations])).toEqual([
      [a.transactionHash, String(two.units / 3n), 13],
      [b.transactionHash, String(two.units - two.units / 3n), 12],
    ]);
  });

  it("sees ERC-20 payments by their Transfer logs, for both coins the configured contract pays", async () => {
    const o = await started();
    const tether = await livePayment("ETH_TETHER");
    const contract = await livePayment("CONTRACT_ERC20_USDT");
    const a = await anvil.payToken(usd, tether.address, tether.units);
    const b = await anvil.payToken(usd, contract.address, contract.units);
    expect(await tick(o)).toMatchObject({ transfers: 2 });
    expect(await transfersOf(tether.id)).toMatchObject([
      { txId: `${a.transactionHash}:${a.logs[0].logIndex}`, amount: String(tether.units), blockNumber: String(a.blockNumber), blockHash: a.blockHash, confirmations: 2 },
    ]);
    expect(await transfersOf(contract.id)).toMatchObject([{ txId: `${b.transactionHash}:${b.logs[0].logIndex}`, amount: String(contract.units), confirmations: 1 }]);
    expect([await status(tether.id), await status(contract.id)]).toEqual(["PENDING", "PENDING"]);
    await anvil.mine(11);
    await tick(o);
    expect([await status(tether.id), await status(contract.id)]).toEqual(["COMPLETED", "COMPLETED"]);
  });

  it("ignores what is not the charge's coin: a token from a contract nobody configured, another configured token, Ether to a token charge, tokens to an Ether charge", async () => {
    const o = await started();
    const tether = await livePayment("ETH_TETHER");
    const ether = await livePayment("ETHEREUM");
    await anvil.payToken(fake, tether.address, tether.units);
    await anvil.payToken(usdc, tether.address, tether.units);
    await anvil.pay(tether.address, 10n ** 18n);
    await anvil.payToken(usd, ether.address, 5_000_000n);
    await anvil.mine(12);
    expect(await tick(o)).toMatchObject({ followed: true, transfers: 0 });
    expect([await transfersOf(tether.id), await transfersOf(ether.id)]).toEqual([[], []]);
    expect([await status(tether.id), await status(ether.id)]).toEqual(["AWAITING_PAYMENT", "AWAITING_PAYMENT"]);
  });

  it("records money arriving after the payment expired as late and changes nothing; past the late window it is no longer watched", async () => {
    const o = await started();
    const p = await livePayment("ETHEREUM");
    const [{ expiresAt }] = await db.select({ expiresAt: payments.expiresAt }).from(payments).where(eq(payments.id, p.id));
    const later = new Date(expiresAt.getTime() + 60_000);
    expect(await expirePaymentIfDue(db, p.id, later)).toBe(true);
    const r = await anvil.pay(p.address, p.units);
    await tick(o, { now: () => later });
    expect(await transfersOf(p.id)).toMatchObject([{ txId: r.transactionHash, amount: String(p.units), late: true, confirmations: 1 }]);
    await anvil.mine(12);
    await tick(o, { now: () => later });
    expect(await status(p.id)).toBe("EXPIRED");
    await anvil.pay(p.address, 1n);
    await tick(o, { now: () => new Date(later.getTime() + WEEK + 60_000) });
    expect(await transfersOf(p.id)).toHaveLength(1);
  });

  it("after a reorganisation, finds a transfer again in its new block, unconfirms one the new chain lacks and never completes it", async () => {
    const o = await started();
    const kept = await livePayment("ETHEREUM");
    const lost = await livePayment("ETHEREUM");
    const a = await anvil.pay(kept.address, kept.units);
    const raw = (await anvil.rpc("eth_getRawTransactionByHash", [a.transactionHash])) as Hex;
    await anvil.pay(lost.address, lost.units);
    await anvil.mine(9); // 11 and 10 confirmations: both still PENDING
    await tick(o);
    expect([await status(kept.id), await status(lost.id)]).toEqual(["PENDING", "PENDING"]);
    // The blocks from the first payment's up are replaced; the new chain has it one block later, and not the second.
    await anvil.rpc("anvil_reorg", [(await tip()) - Number(a.blockNumber) + 1, [[raw, 1]]]);
    expect((await tick(o)).reorgedAt).toBe(Number(a.blockNumber) - 1);
    const moved = await node.client.getTransactionReceipt({ hash: a.transactionHash });
    expect(moved.blockHash).not.toBe(a.blockHash);
    expect(await transfersOf(kept.id)).toMatchObject([
      { txId: a.transactionHash, blockNumber: String(moved.blockNumber), blockHash: moved.blockHash, confirmations: (await tip()) - Number(moved.blockNumber) + 1 },
    ]);
    expect(await transfersOf(lost.id)).toMatchObject([{ amount: String(lost.units), blockNumber: null, blockHash: null, confirmations: 0 }]);
    await anvil.mine(12);
    await tick(o);
    expect(await status(kept.id)).toBe("COMPLETED");
    expect(await status(lost.id)).toBe("PENDING");
    expect(await transfersOf(lost.id)).toMatchObject([{ blockNumber: null, confirmations: 0 }]);
  });

  it("stops a tick when the chain changes while a range is read, and records the transfer in its new block on the next", async () => {
    const o = await started();
    const start = await tip();
    const p = await livePayment("ETH_TETHER");
    const a = await anvil.payToken(usd, p.address, p.units);
    const raw = (await anvil.rpc("eth_getRawTransactionByHash", [a.transactionHash])) as Hex;
    await anvil.mine(3);
    // The blocks are read from one chain; by the logs call another (the transfer two blocks later) has replaced it.
    const moving = instrumented(node.client, Infinity, async () => moving.calls.getLogs === 1 && anvil.rpc("anvil_reorg", [4, [[raw, 2]]]));
    expect(await tick(o, { client: moving.client })).toMatchObject({ followed: true, to: start, transfers: 0 });
    expect(await transfersOf(p.id)).toEqual([]);
    expect((await cursorOf(o)).height).toBe(start);
    expect(await tick(o)).toMatchObject({ from: start + 1, to: await tip(), transfers: 1 });
    const moved = await node.client.getTransactionReceipt({ hash: a.transactionHash });
    expect(Number(moved.blockNumber)).toBe(start + 3);
    expect(await transfersOf(p.id)).toMatchObject([{ blockNumber: String(start + 3), blockHash: moved.blockHash, amount: String(p.units) }]);
  });

  it("catches up on 300 blocks mined while it was stopped, one logs call per range", async () => {
    const o = await started({ logRange: 7 });
    const ether = await livePayment("ETHEREUM");
    const tether = await livePayment("ETH_TETHER");
    const a = await anvil.pay(ether.address, ether.units);
    await anvil.mine(150);
    const b = await anvil.payToken(usd, tether.address, tether.units);
    await anvil.mine(150);
    const to = await tip();
    const spy = instrumented(node.client);
    expect(await tick(o, { client: spy.client })).toMatchObject({ followed: true, from: Number(a.blockNumber), to, transfers: 2 });
    expect(spy.calls.getLogs).toBe(Math.ceil((to - Number(a.blockNumber) + 1) / 7));
    expect(await transfersOf(ether.id)).toMatchObject([{ amount: String(ether.units), confirmations: to - Number(a.blockNumber) + 1 }]);
    expect(await transfersOf(tether.id)).toMatchObject([{ amount: String(tether.units), confirmations: to - Number(b.blockNumber) + 1 }]);
    expect([await status(ether.id), await status(tether.id)]).toEqual(["COMPLETED", "COMPLETED"]);
    const cursor = await cursorOf(o);
    expect(cursor).toMatchObject({ height: to, blockHash: (await node.client.getBlock({ blockNumber: BigInt(to) })).hash, network: "regtest" });
    expect(cursor.recent).toHaveLength(RECENT_BLOCKS);
  });

  it("resumes after a watcher killed mid-tick: nothing recorded twice, nothing missed", async () => {
    const o = await started({ logRange: 5 });
    const start = await tip();
    const paid: { id: string; units: bigint; height: number }[] = [];
    for (const coin of ["ETHEREUM", "ETH_TETHER", "ETHEREUM"] as const) {
      const p = await livePayment(coin);
      const r = coin === "ETHEREUM" ? await anvil.pay(p.address, p.units) : await anvil.payToken(usd, p.address, p.units);
      paid.push({ ...p, height: Number(r.blockNumber) });
      await anvil.mine(6);
    }
    const to = await tip();
    await expect(tick(o, { client: instrumented(node.client, 14).client })).rejects.toThrow("killed");
    const cut = (await cursorOf(o)).height!;
    expect(cut).toBeGreaterThan(start);
    expect(cut).toBeLessThan(to);
    const recorded = paid.filter((p) => p.height <= cut);
    expect(recorded.length).toBeGreaterThan(0);
    expect(recorded.length).toBeLessThan(paid.length);
    for (const p of paid) expect(await transfersOf(p.id)).toHaveLength(p.height <= cut ? 1 : 0);
    const before = await Promise.all(recorded.map(async (p) => (await transfersOf(p.id))[0]));

    expect(await tick(o)).toMatchObject({ followed: true, from: cut + 1, to, transfers: paid.length - recorded.length });
    for (const p of paid) expect(await transfersOf(p.id)).toMatchObject([{ amount: String(p.units), blockNumber: String(p.height), confirmations: to - p.height + 1 }]);
    expect(await Promise.all(recorded.map(async (p) => (await transfersOf(p.id))[0].id))).toEqual(before.map((t) => t.id));
  });

  it("lets one instance follow the chain; another takes over once the lease lapses, from the cursor", async () => {
    const o = await started();
    const other = { ...o, owner: "instance-b" };
    await anvil.mine(2);
    expect(await tick(other)).toMatchObject({ followed: false });
    const first = await tick(o);
    expect(first).toMatchObject({ followed: true, to: await tip() });
    const p = await livePayment("ETHEREUM");
    await anvil.pay(p.address, p.units);
    const later = new Date(Date.now() + 60_000); // instance-a stopped: its 30 s lease has lapsed
    expect(await tick(other, { now: () => later })).toMatchObject({ followed: true, from: first.to! + 1, transfers: 1 });
    expect(await tick(o)).toMatchObject({ followed: false });
    expect(await cursorOf(o)).toMatchObject({ leaseOwner: "instance-b", height: await tip() });
    expect(await status(p.id)).toBe("PENDING");
  });
});
