import { z } from "zod";
import { databaseKind, type Db } from "@/db/client";
import { findMoneroWallet, lockMoneroWalletRpc, markMoneroWalletCreated } from "@/db/queries/monero";
import type { MoneroWalletRow } from "@/db/schema";
import { inTransaction } from "@/db/transaction";
import { CreatedAddress, Empty, moneroRpc, MoneroRpcError, Transfers, type MoneroRpc, type MoneroTransfer } from "./rpc";

/**
 * The businesses' view-only wallets in one monero-wallet-rpc (MONERO_WALLET_RPC_URL, run with
 * --wallet-dir). A wallet-rpc has one wallet open at a time, so every use of a wallet is a
 * session: open it, make the calls, let the next session open another. Sessions queue behind a
 * process-wide lock, and, on PostgreSQL, behind a transaction-level advisory lock that every
 * instance of the service takes (an instance choosing a coin creates a subaddress while another
 * follows the chain). The embedded PGlite is one process's database: the process lock is all.
 * What a session costs per business is in docs/chain-performance.md.
 */

let queue: Promise<unknown> = Promise.resolve();

/** Runs `work` after every session queued before it in this process. */
function inTurn<T>(work: () => Promise<T>): Promise<T> {
  const run = queue.then(work, work);
  queue = run.catch(() => undefined);
  return run;
}

/** A business's wallet, open for the length of a session. */
export type OpenWallet = {
  /** A fresh subaddress of account 0 (`create_address`): never derived elsewhere, so the wallet watches it. */
  createSubaddress(label: string): Promise<{ address: string; index: number }>;
  /** Incoming transfers to the subaddresses `indices`, mined (`in`) and in the pool, after a refresh. */
  incoming(indices: number[]): Promise<{ in: MoneroTransfer[]; pool: MoneroTransfer[] }>;
};

/** How sessions are timed, for the bench: the last session's open and calls, in milliseconds. */
export const lastSession = { openMs: 0, workMs: 0 };

const PrimaryAddress = z.object({ address: z.string(), addresses: z.array(z.object({ label: z.string() })) });

/**
 * Whether `w` is the wallet the wallet-rpc has open: the one a single business's sessions keep
 * open from tick to tick, where `open_wallet` (a new wallet object, whose TLS clients each
 * generate an RSA certificate: docs/chain-performance.md) is nearly all of a session's cost.
 * The wallet-rpc cannot name its open file, so each
 * wallet's primary address carries its file name as its label (set when it is opened); one
 * cheap `get_address` replaces the open. Sessions hold the lock, so nothing switches wallets
 * between this check and the session's calls.
 */
async function isOpen(rpc: MoneroRpc, w: MoneroWalletRow): Promise<boolean> {
  try {
    const r = await rpc.call("get_address", { account_index: 0, address_index: [0] }, PrimaryAddress);
    return r.address === w.primaryAddress && r.addresses[0]?.label === w.walletFile;
  } catch (err) {
    // No wallet open (a restarted wallet-rpc): open one.
    if (err instanceof MoneroRpcError && err.code !== 0) return false;
    throw err;
  }
}

/** Opens `w`, or makes it first (see `make`), and labels its primary address with its file name; whether it was made. */
async function open(rpc: MoneroRpc, w: MoneroWalletRow): Promise<boolean> {
  const made = await make(rpc, w);
  await rpc.call("label_address", { index: { major: 0, minor: 0 }, label: w.walletFile }, Empty);
  return made;
}

/** The wallet file is made by the first session that needs it, from the merchant's keys (`generate_from_keys`). */
async function make(rpc: MoneroRpc, w: MoneroWalletRow): Promise<boolean> {
  try {
    await rpc.call("open_wallet", { filename: w.walletFile, password: "" }, Empty);
    return false;
  } catch (err) {
    if (!(err instanceof MoneroRpcError) || err.code === 0) throw err;
  }
  try {
    await rpc.call(
      "generate_from_keys",
      { filename: w.walletFile, address: w.primaryAddress, viewkey: w.privateViewKey, restore_height: w.restoreHeight, password: "", autosave_current: true },
      Empty,
    );
  } catch (err) {
    // Made meanwhile by another instance: open it.
    if (!(err instanceof MoneroRpcError) || !/exists/i.test(err.message)) throw new Error(`the Monero wallet-rpc could not make the view-only wallet ${w.walletFile}: ${(err as Error).message}`);
    await rpc.call("open_wallet", { filename: w.walletFile, password: "" }, Empty);
  }
  return true;
}

/**
 * Opens the view-only wallet of `businessId` and runs `work` with it, in turn with every other
 * session on the wallet-rpc. Throws when the business has given no Monero keys.
 */
export function withMoneroWallet<T>(db: Db, rpc: MoneroRpc, businessId: number, work: (w: OpenWallet) => Promise<T>): Promise<T> {
  return inTurn(async () => {
    const wallet = await findMoneroWallet(db, businessId);
    if (!wallet) throw new Error(`business ${businessId} has given no Monero wallet keys`);
    const session = async () => {
      const t0 = performance.now();
      const made = (await isOpen(rpc, wallet)) ? false : await open(rpc, wallet);
      if (made) await markMoneroWalletCreated(db, businessId, wallet.walletFile, new Date());
      const t1 = performance.now();
      const result = await work(openWallet(rpc));
      lastSession.openMs = t1 - t0;
      lastSession.workMs = performance.now() - t1;
      return result;
    };
    if (databaseKind() === "pglite") return session();
    return inTransaction(db, async (tx) => {
      await lockMoneroWalletRpc(tx);
      return session();
    });
  });
}

function openWallet(rpc: MoneroRpc): OpenWallet {
  return {
    async createSubaddress(label) {
      const r = await rpc.call("create_address", { account_index: 0, label }, CreatedAddress);
      return { address: r.address, index: r.address_index };
    },
    async incoming(indices) {
      if (!indices.length) return { in: [], pool: [] };
      await rpc.call("refresh", {}, z.unknown());
      const r = await rpc.call("get_transfers", { in: true, pool: true, account_index: 0, subaddr_indices: indices }, Transfers);
      return { in: r.in ?? [], pool: r.pool ?? [] };
    },
  };
}

let client: { url: string; rpc: MoneroRpc } | null = null;

/** The configured wallet-rpc's client (one per URL in the process: sessions queue on the module's lock anyway). */
export function walletRpcAt(url: string): MoneroRpc {
  if (client?.url !== url) client = { url, rpc: moneroRpc(url, { timeoutMs: 120_000 }) };
  return client.rpc;
}
