import { asc, eq } from "drizzle-orm";
import { expect } from "vitest";
import { getDb, type Db } from "@/db/client";
import { findCharge, listTransfers } from "@/db/queries/charges";
import { paymentEvents, payments } from "@/db/schema";
import { config } from "@/lib/config";
import { releaseChainLease } from "@/db/queries/chain-cursors";
import { followConfiguredChains, OWNER } from "@/lib/chains/follow";
import { setMoneroWallet } from "@/lib/businesses/monero-wallet";
import { selectCoin } from "@/lib/checkout/select";
import { reconcilePayment } from "@/lib/payments/reconcile";
import { createPayment, newBusiness } from "../helpers";
import { merchantKeys, mine, openSpender, sharedMonerod, startWalletRpc, takeChainTurn, type Spender, type WalletRpc } from "./nodes/monero";
import type { MoneroRpc } from "@/lib/chains/monero/rpc";

/**
 * What the Monero test files share: the run's monerod (one chain for every file, taken in turns),
 * the service's wallet-rpc (MONERO_WALLET_RPC_URL, where the view-only wallets are made), a
 * spending wallet in a wallet-rpc of its own, and the service's chain job as the runner runs it.
 */
export type MoneroContext = {
  db: Db;
  daemon: MoneroRpc;
  daemonUrl: string;
  service: WalletRpc;
  spender: Spender;
  /** A wallet-rpc for merchants' full wallets, whose keys businesses are given. */
  merchants: WalletRpc;
  /** The runner's chain job, one poll interval after the last. */
  follow(): Promise<void>;
  mine(n: number): Promise<number>;
  /** A live business taking MONERO with a fresh merchant wallet's keys. */
  liveBusiness(settings?: { underpaymentTolerancePercent?: number; paymentLifetimeSeconds?: number }): Promise<{ businessId: number; apiKey: string; keys: Awaited<ReturnType<typeof merchantKeys>> }>;
  /** A payment of `amount` USD of `business` with MONERO chosen: its subaddress and quoted piconero. */
  livePayment(business: { businessId: number; apiKey: string }, amount?: number): Promise<{ id: string; address: string; units: bigint; index: number }>;
  status(id: string): Promise<string>;
  events(id: string): Promise<string[]>;
  transfers(id: string): ReturnType<typeof listTransfers>;
  stop(): Promise<void>;
};

let names = 0;

export async function moneroContext(): Promise<MoneroContext> {
  const chain = await sharedMonerod();
  const { url: daemonUrl, daemon } = chain;
  const turn = await takeChainTurn();
  const [service, merchants, spender] = await Promise.all([startWalletRpc(daemonUrl), startWalletRpc(daemonUrl), openSpender(chain)]);
  // The configuration is read on first use: the nodes' addresses are set before.
  process.env.MONERO_DAEMON_URL = daemonUrl;
  process.env.MONERO_WALLET_RPC_URL = service.url;
  expect(config().chains.monero?.walletRpcUrl).toBe(service.url);
  const db = await getDb();
  let at = Date.now();
  const ctx: MoneroContext = {
    db,
    daemon,
    daemonUrl,
    service,
    spender,
    merchants,
    async follow() {
      at += 10_000;
      const [xmr] = await followConfiguredChains(db, { ...config().chains, rpcUrls: { MONERO: daemonUrl } }, reconcilePayment, new Date(at));
      expect(xmr.lastError).toBeNull();
    },
    mine: (n) => mine(daemon, n, spender.address),
    async liveBusiness(settings = {}) {
      const keys = await merchantKeys(merchants, `merchant-${process.pid}-${++names}`);
      const business = await newBusiness({ mode: "live", enabledCoins: ["MONERO"], ...settings });
      await setMoneroWallet(db, business.businessId, keys);
      return { businessId: business.businessId, apiKey: business.apiKey, keys };
    },
    async livePayment(business, amount = 10) {
      // The chain counts as followed (its coin offered) only within a minute of its last tick.
      await ctx.follow();
      const { id } = await createPayment(business, { currency: "USD", amount });
      await selectCoin(db, id, "MONERO");
      const charge = (await findCharge(db, id))!;
      return { id, address: charge.address, units: BigInt(charge.quotedUnits), index: charge.derivationIndex! };
    },
    status: async (id) => (await db.select().from(payments).where(eq(payments.id, id)))[0].status,
    events: async (id) => (await db.select().from(paymentEvents).where(eq(paymentEvents.paymentId, id)).orderBy(asc(paymentEvents.id))).map((e) => e.type),
    transfers: (id) => listTransfers(db, id),
    async stop() {
      // The next file's watcher (another process, another owner) follows the chain at once, not when this lease lapses.
      await releaseChainLease(db, "MONERO", OWNER);
      await Promise.all([service.stop(), merchants.stop(), spender.wallet.stop()]);
      turn.release();
    },
  };
  // The chain is followed (and healthy) before any business chooses Monero.
  await ctx.follow();
  return ctx;
}
