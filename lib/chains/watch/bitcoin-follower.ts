import type { Db } from "@/db/client";
import { advanceChainCursor, claimChainLease } from "@/db/queries/chain-cursors";
import { recordChainTransfer, refreshConfirmations, watchedCharges, type WatchedCharge } from "@/db/queries/chain-watch";
import { inTransaction } from "@/db/transaction";
import { isTerminal } from "@/lib/payments/transitions";
import { matchOutputs, scriptPubKeyOf, type VerboseTx } from "../bitcoin/scan";
import type { CoinName } from "../coins";
import type { ChainNet } from "../derive";
import { reconcilePayment } from "../reconcile";
import type { BitcoinRpc } from "../rpc/bitcoin-rpc";

export type BitcoinChain = "BITCOIN" | "LITECOIN" | "BITCOIN_CASH";

export type FollowOptions = {
  chain: BitcoinChain;
  rpc: BitcoinRpc;
  net: ChainNet;
  /** This instance's name in the chain's lease. */
  owner: string;
  /** How long money is still watched for after a payment closed (LATE_PAYMENT_WINDOW). */
  lateWindowMs: number;
  leaseMs?: number;
  now?: () => Date;
};

export type FollowResult = { followed: boolean; from: number | null; to: number | null; transfers: number; reconciled: number };

/** A script's own address and the payment it pays, for every watched charge (addresses derive one per charge). */
async function watchSet(db: Db, chain: BitcoinChain, since: Date) {
  const byScript = new Map<string, WatchedCharge>();
  for (const c of await watchedCharges(db, [chain as CoinName], since)) {
    try {
      byScript.set(scriptPubKeyOf(c.address), c);
    } catch {
      // An address of another network (a charge made before the node was configured) is nobody's here.
    }
  }
  return byScript;
}

/**
 * One tick of a Bitcoin-family chain's watcher: with the chain's lease, reads every block after
 * the cursor up to the node's tip (no cap: after any downtime it catches up), records each output
 * paying a watched charge once by its outpoint with the block's height and hash, moves the cursor
 * block by block, sets every transfer's confirmations from the tip and lets the detection step
 * (the one the simulator uses) decide each touched payment's status. On its first tick a chain
 * starts at the tip. Without the lease (another instance follows the chain) it does nothing.
 */
export async function followBitcoinChain(db: Db, o: FollowOptions): Promise<FollowResult> {
  const now = o.now ?? (() => new Date());
  const leaseMs = o.leaseMs ?? 30_000;
  const idle: FollowResult = { followed: false, from: null, to: null, transfers: 0, reconciled: 0 };
  const cursor = await claimChainLease(db, o.chain, o.net, o.owner, now(), leaseMs);
  if (!cursor) return idle;
  const tip = await o.rpc.call<number>("getblockcount");
  if (cursor.height === null) {
    const hash = await o.rpc.call<string>("getblockhash", [tip]);
    await advanceChainCursor(db, o.chain, o.owner, { network: o.net, height: tip, blockHash: hash }, now());
    return { ...idle, followed: true, to: tip };
  }
  const touched = new Set<string>();
  let recorded = 0;
  const watched = await watchSet(db, o.chain, new Date(now().getTime() - o.lateWindowMs));
  for (let height = cursor.height + 1; height <= tip; height++) {
    const hash = await o.rpc.call<string>("getblockhash", [height]);
    if (watched.size > 0) {
      const block = await o.rpc.call<{ tx: VerboseTx[] }>("getblock", [hash, 2]);
      for (const m of matchOutputs(block.tx, new Set(watched.keys()), o.chain)) {
        const charge = watched.get(m.scriptPubKey)!;
        const changed = await recordChainTransfer(db, {
          paymentId: charge.paymentId,
          txId: m.outpoint,
          amount: m.units,
          toAddress: charge.address,
          blockNumber: height,
          blockHash: hash,
          confirmations: tip - height + 1,
          late: isTerminal(charge.status),
          at: now(),
        });
        if (changed) {
          recorded++;
          touched.add(charge.paymentId);
        }
      }
    }
    // Block by block: a tick cut short (a crash, a lost lease) resumes after the last block read.
    if (!(await advanceChainCursor(db, o.chain, o.owner, { network: o.net, height, blockHash: hash }, now()))) {
      return { followed: false, from: cursor.height + 1, to: height - 1, transfers: recorded, reconciled: 0 };
    }
  }
  for (const id of await inTransaction(db, (tx) => refreshConfirmations(tx, [o.chain], tip, now()))) touched.add(id);
  for (const id of touched) await reconcilePayment(db, id, now());
  return { followed: true, from: cursor.height + 1, to: tip, transfers: recorded, reconciled: touched.size };
}
