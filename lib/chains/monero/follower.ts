import type { Db } from "@/db/client";
import { log } from "@/log/logger.mjs";
import { dropTransfers } from "@/db/queries/chain-watch";
import { moneroTransferIds, watchedMoneroCharges, type MoneroCharge } from "@/db/queries/monero";
import { CursorWalk, type FollowerOptions, type FollowResult, type Whereabouts } from "../cursor-walk";
import { moneroHashAt, moneroHeaders, moneroPool, moneroTip, moneroTransactions, type MoneroRpc, type MoneroTransfer, type PoolTx } from "./rpc";
import { withMoneroWallet } from "./wallets";

export type MoneroFollowOptions = FollowerOptions & { daemon: MoneroRpc; wallet: MoneroRpc };

/** Headers read per daemon call (monerod refuses overly long ranges). */
const HEADERS_PER_CALL = 100;

/**
 * Why a transfer cannot count whatever its confirmations, or null: its sender locked the money
 * (`unlock_time` ≠ 0: a height or a time, possibly years ahead), or the wallet advises more
 * confirmations than the payment waits for (`suggested_confirmations_threshold`, which grows with
 * the amount against the block reward). Such a transfer is recorded and shown, and left for the
 * merchant to settle by hand.
 */
export function heldReason(t: MoneroTransfer, requiredConfirmations: number): string | null {
  if (t.unlock_time !== 0n) return `locked by its sender until ${t.unlock_time < 500_000_000n ? `block ${t.unlock_time}` : new Date(Number(t.unlock_time) * 1000).toISOString()} (unlock_time)`;
  const advised = t.suggested_confirmations_threshold ?? 0;
  if (advised > requiredConfirmations) return `the wallet advises ${advised} confirmations for this amount, more than the ${requiredConfirmations} the payment waits for`;
  return null;
}

/**
 * Where monerod has a transaction: in a block, in its pool (and still able to be mined), or
 * nowhere. A pool transaction that failed to enter a block (`last_failed_height`, as after a deep
 * reorganisation invalidated its ring) or seen double-spent counts as nowhere: it stays in the
 * pool for days and is never mined.
 */
async function locate(daemon: MoneroRpc, txid: string, pool: () => Promise<PoolTx[]>): Promise<Whereabouts> {
  const r = await moneroTransactions(daemon, [txid]);
  const tx = r.txs?.[0];
  if (!tx) return "unknown";
  if (!tx.in_pool) return "block";
  const inPool = (await pool()).find((p) => p.id_hash === txid);
  return inPool && inPool.last_failed_height === 0 && !inPool.double_spend_seen ? "pool" : "unknown";
}

/**
 * One tick of the Monero watcher. A view-only wallet, not a block scan, tells which transfers
 * pay the service's subaddresses (outputs are encrypted to the merchant's keys); blocks are still
 * walked so that the cursor notices reorganisations and confirmations count from the daemon's
 * tip. With the chain's lease it
 * 1. compares the last blocks read with the daemon's (a reorganisation unconfirms the transfers
 *    above the fork) and walks the headers up to the tip;
 * 2. asks each business's wallet, in one session per business, for the transfers to the
 *    subaddresses of its watched charges, mined and in the pool (0-conf: PENDING), and records
 *    each once by its txid with its block, a held one with its reason; money after expiry is late;
 * 3. drops at once a pool transfer the wallet or the daemon sees double-spent, and the transfers in no block
 *    that the daemon no longer has able to be mined (`dropAfterMs`);
 * 4. sets confirmations from the tip and lets the detection step decide each touched payment.
 * Nothing depends on having watched when the money came: a wallet lists every transfer to a
 * subaddress, so after downtime one tick finds them all.
 */
export async function followMoneroChain(db: Db, o: MoneroFollowOptions): Promise<FollowResult> {
  const walk = await CursorWalk.begin(db, o, {
    key: o.cursor ?? "MONERO",
    label: "MONERO",
    coins: ["MONERO"],
    tip: () => moneroTip(o.daemon),
    hashAt: (height) => moneroHashAt(o.daemon, height),
  });
  if (!(walk instanceof CursorWalk)) return walk;
  const hashes = new Map<number, string>();
  for (let from = walk.from; from <= walk.tip; from += HEADERS_PER_CALL) {
    const headers = await moneroHeaders(o.daemon, from, Math.min(from + HEADERS_PER_CALL - 1, walk.tip));
    for (const h of headers) {
      hashes.set(h.height, h.hash);
      if (!(await walk.advance(h.height, h.hash))) return walk.cut();
    }
  }
  const hashAt = async (height: number) => hashes.get(height) ?? (await moneroHashAt(o.daemon, height));
  const byWallet = new Map<number, MoneroCharge[]>();
  for (const c of await watchedMoneroCharges(db, walk.lateSince)) byWallet.set(c.businessId, [...(byWallet.get(c.businessId) ?? []), c]);
  const sessions: { byIndex: Map<number, MoneroCharge>; seen: { in: MoneroTransfer[]; pool: MoneroTransfer[] } }[] = [];
  for (const [businessId, charges] of byWallet) {
    const byIndex = new Map(charges.map((c) => [c.index, c]));
    sessions.push({ byIndex, seen: await withMoneroWallet(db, o.wallet, businessId, (w) => w.incoming([...byIndex.keys()])) });
  }
  // A wallet keeps the double-spend flag it read when it first saw a pool transaction (0.18.0.0
  // does not refresh it): the daemon's pool says whether a conflict has been seen since.
  // Read at most once a tick, when needed: here, and by `locate` below.
  let read: Promise<PoolTx[]> | undefined;
  const pool = () => (read ??= moneroPool(o.daemon));
  const flagged = sessions.some((s) => s.seen.pool.length) ? new Set((await pool()).filter((p) => p.double_spend_seen).map((p) => p.id_hash)) : new Set<string>();
  const doubleSpent: { paymentId: string; txid: string }[] = [];
  for (const { byIndex, seen } of sessions) {
    for (const t of [...seen.in, ...seen.pool]) {
      const charge = byIndex.get(t.subaddr_index.minor);
      // The wallet names the subaddress it was paid to: a session that saw another wallet records nothing.
      if (!charge || t.subaddr_index.major !== 0 || t.address !== charge.address) continue;
      if (t.type === "pool" && (t.double_spend_seen || flagged.has(t.txid))) {
        doubleSpent.push({ paymentId: charge.paymentId, txid: t.txid });
        continue;
      }
      const block = t.type === "in" && t.height > 0 && t.height <= walk.tip ? { height: t.height, hash: await hashAt(t.height) } : null;
      await walk.record({ paymentId: charge.paymentId, address: charge.address, coin: "MONERO", status: charge.status }, { txId: t.txid, units: t.amount, block, held: heldReason(t, charge.requiredConfirmations) });
    }
  }
  if (doubleSpent.length) {
    const ids = await moneroTransferIds(db, [...new Set(doubleSpent.map((d) => d.paymentId))], [...new Set(doubleSpent.map((d) => d.txid))]);
    const touched = await dropTransfers(db, ids, walk.now());
    if (touched.length) log.warn({ component: "watcher", chain: "MONERO", dropped: ids.length }, `dropped ${ids.length} transfer(s) seen double-spent in the pool`);
    for (const id of touched) walk.touched.add(id);
  }
  await walk.drops.dropVanished((txid) => locate(o.daemon, txid, pool));
  return walk.finish();
}
