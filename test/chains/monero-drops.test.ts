import { z } from "zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { config } from "@/lib/config";
import { CHAIN_POLL_MS, OWNER } from "@/lib/chains/follow";
import { followMoneroChain } from "@/lib/chains/monero/follower";
import { MoneroRpcError } from "@/lib/chains/monero/rpc";
import { reconcilePayment } from "@/lib/payments/reconcile";
import { oneChainFileAtATime } from "../serial";
import { moneroContext, type MoneroContext } from "./monero-context";
import { moneroInstalled } from "./nodes/monero";

const chainFile = oneChainFileAtATime();

/**
 * Monero transfers that will never be mined, against a real monerod and monero-wallet-rpc: one
 * the daemon saw double-spent in its pool (dropped at once), and one that a reorganisation left
 * failing in the pool (its input's transaction gone, so its ring no longer verifies), dropped once
 * it has been unminable for the drop delay. Both payments fail, as a Bitcoin payment whose
 * transaction was replaced does.
 */
const run = moneroInstalled() || process.env.CI === "true";

describe.runIf(run)("Monero transfers that cannot be mined (monerod + monero-wallet-rpc, regtest)", () => {
  let x: MoneroContext;
  let wallets = 0;

  beforeAll(async () => {
    x = await moneroContext();
  }, 300_000);
  afterAll(async () => x?.stop(), 60_000);

  const Blob = z.object({ tx_hash: z.string(), tx_blob: z.string() });
  const PoolTxs = z.object({ transactions: z.array(z.object({ id_hash: z.string(), double_spend_seen: z.boolean(), last_failed_height: z.number() })).optional() });
  const pool = async () => (await x.daemon.other("get_transaction_pool", {}, PoolTxs)).transactions ?? [];
  /** The runner's tick once a transfer in no block has been unminable for the drop delay (here: none). */
  const followAfterDropDelay = () =>
    followMoneroChain(x.db, { daemon: x.daemon, wallet: x.service.rpc, net: "regtest", owner: OWNER, leaseMs: CHAIN_POLL_MS * 6, lateWindowMs: config().chains.latePaymentWindowMs, decide: reconcilePayment, dropAfterMs: 0 });
  const relay = (hex: string) => x.daemon.other("send_raw_transaction", { tx_as_hex: hex, do_not_relay: false }, z.unknown());

  /**
   * A wallet of the merchants' wallet-rpc holding one unlocked output, paid by the spender in the
   * returned transaction: whatever it sends next spends that output, so two of its transactions
   * made without relaying conflict.
   */
  async function oneOutputWallet(piconero: bigint): Promise<{ fundingTx: string; sign(to: string, amount: bigint): Promise<z.infer<typeof Blob>> }> {
    const w = x.merchants.rpc;
    await w.call("create_wallet", { filename: `one-output-${process.pid}-${++wallets}`, password: "", language: "English" }, z.unknown());
    const { address } = await w.call("get_address", { account_index: 0 }, z.object({ address: z.string() }));
    const fundingTx = await x.spender.pay(address, piconero);
    // A received output unlocks after 10 blocks.
    await x.mine(10);
    await w.call("refresh", {}, z.unknown());
    return {
      fundingTx,
      sign: (to, amount) => w.call("transfer", { destinations: [{ amount: Number(amount), address: to }], priority: 0, do_not_relay: true, get_tx_hex: true }, Blob),
    };
  }

  /** A live payment, and its exact amount signed (not yet sent) by a one-output wallet. */
  async function signedPayment() {
    const business = await x.liveBusiness();
    chainFile.retire(business.businessId);
    const p = await x.livePayment(business);
    const payer = await oneOutputWallet(p.units * 3n);
    return { p, payer, paid: await payer.sign(p.address, p.units) };
  }

  it("drops at once a pool transfer the daemon saw double-spent, and the payment fails", async () => {
    const { p, payer, paid } = await signedPayment();
    const conflict = await payer.sign(x.spender.address, p.units);
    expect(conflict.tx_hash).not.toBe(paid.tx_hash);
    await relay(paid.tx_blob);
    await x.follow();
    expect(await x.transfers(p.id)).toMatchObject([{ txId: paid.tx_hash, blockNumber: null, dropped: false }]);
    expect(await x.status(p.id)).toBe("PENDING");

    // The daemon refuses the conflict and marks the pool's transaction as seen double-spent.
    await expect(relay(conflict.tx_blob)).rejects.toThrow(MoneroRpcError);
    expect((await pool()).find((t) => t.id_hash === paid.tx_hash)).toMatchObject({ double_spend_seen: true });
    // One poll interval later: no waiting for the drop delay.
    await x.follow();
    expect(await x.transfers(p.id)).toMatchObject([{ txId: paid.tx_hash, dropped: true, confirmations: 0 }]);
    expect(await x.status(p.id)).toBe("FAILED");
    expect((await x.events(p.id)).slice(-2)).toEqual(["PAYMENT_PENDING", "PAYMENT_FAILED"]);
    await x.daemon.call("flush_txpool", { txids: [paid.tx_hash] }, z.unknown());
  }, 240_000);

  it("drops a transfer a reorganisation left failing in the pool once it has been unminable for the drop delay", async () => {
    const { p, payer, paid } = await signedPayment();
    await relay(paid.tx_blob);
    await x.mine(1);
    await x.follow();
    expect(await x.transfers(p.id)).toMatchObject([{ txId: paid.tx_hash, confirmations: 1, dropped: false }]);

    // A reorganisation past the block that funded the payer: the funding transaction and the
    // payment's return to the pool, and the funding one is then double-spent away (flushed, as
    // the winning chain's conflict would), so the payment's ring names outputs that now differ.
    const { height } = await x.daemon.call("get_info", {}, z.object({ height: z.number() }));
    const funded = (await x.daemon.other("get_transactions", { txs_hashes: [payer.fundingTx] }, z.object({ txs: z.array(z.object({ block_height: z.number() })) }))).txs[0].block_height;
    await x.daemon.other("pop_blocks", { nblocks: height - funded }, z.unknown());
    await x.daemon.call("flush_txpool", { txids: [payer.fundingTx] }, z.unknown());
    await x.mine(2);
    expect((await pool()).find((t) => t.id_hash === paid.tx_hash)?.last_failed_height).toBeGreaterThan(0);

    await x.follow();
    // Unconfirmed again, and kept while the drop delay runs: a daemon may still mine it.
    expect(await x.transfers(p.id)).toMatchObject([{ txId: paid.tx_hash, blockNumber: null, confirmations: 0, dropped: false }]);
    expect(await x.status(p.id)).toBe("PENDING");
    await followAfterDropDelay();
    expect(await x.transfers(p.id)).toMatchObject([{ txId: paid.tx_hash, dropped: true }]);
    expect(await x.status(p.id)).toBe("FAILED");
    await x.daemon.call("flush_txpool", { txids: [paid.tx_hash] }, z.unknown());
  }, 300_000);
});
