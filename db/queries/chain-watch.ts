import { and, eq, gt, gte, inArray, isNotNull, isNull, notInArray, or, sql } from "drizzle-orm";
import { executeRows, type Tx } from "../client";
import type { CoinName } from "@/domain/coins";
import { TERMINAL_STATUSES, type PaymentStatus } from "@/domain/statuses";
import { businesses, charges, payments, transfers } from "../schema";

export type WatchedCharge = { paymentId: string; address: string; coin: CoinName; status: PaymentStatus };

/** Payments a watcher still looks at: open, or closed since `lateSince` (money after expiry is recorded as late). */
export function watchedSince(lateSince: Date) {
  return or(notInArray(payments.status, [...TERMINAL_STATUSES]), gte(payments.updatedAt, lateSince));
}

/**
 * Live businesses' charges in `coins` (the simulator's charges and transfers are test-mode's
 * own), and with `lateSince` only those whose payment is open or closed since then.
 */
export function liveCharges(coins: readonly CoinName[], lateSince?: Date) {
  return and(inArray(charges.coin, [...coins]), eq(businesses.mode, "live"), lateSince && watchedSince(lateSince));
}

/** Charges joined to their payment and its business, for `liveCharges` to filter. */
export function chargesWithBusiness<T extends Parameters<Tx["select"]>[0]>(tx: Tx, fields: NonNullable<T>) {
  return tx
    .select(fields)
    .from(charges)
    .innerJoin(payments, eq(payments.id, charges.paymentId))
    .innerJoin(businesses, eq(businesses.id, payments.businessId));
}

/**
 * The deposit addresses a chain watcher matches blocks against for `coins`: live businesses'
 * charges whose payment is still open, or closed since `lateSince` (money may still arrive
 * after expiry and is recorded as late). One statement per tick, whatever their number.
 */
export async function watchedCharges(tx: Tx, coins: readonly CoinName[], lateSince: Date): Promise<WatchedCharge[]> {
  // The coin column holds only catalogue names (a charge is made for a coin the business offers), typed as such here.
  const coin = sql<CoinName>`${charges.coin}`;
  return chargesWithBusiness(tx, { paymentId: charges.paymentId, address: charges.address, coin, status: payments.status }).where(
    liveCharges(coins, lateSince),
  );
}

/**
 * The watched charges (as `watchedCharges`) made or replaced after `since` by the database's
 * clock (`charges.changed_at`, indexed): what a watcher that keeps its watch set between ticks
 * reads each tick instead of the whole set.
 */
export async function watchedChargesChangedSince(tx: Tx, coins: readonly CoinName[], lateSince: Date, since: Date): Promise<WatchedCharge[]> {
  const coin = sql<CoinName>`${charges.coin}`;
  return chargesWithBusiness(tx, { paymentId: charges.paymentId, address: charges.address, coin, status: payments.status }).where(
    and(gt(charges.changedAt, since), liveCharges(coins, lateSince)),
  );
}

/** The watched charge of `paymentId` on `address` as it stands now, or undefined when it is no longer watched there. */
export async function watchedChargeNow(tx: Tx, paymentId: string, address: string, coins: readonly CoinName[], lateSince: Date): Promise<WatchedCharge | undefined> {
  const coin = sql<CoinName>`${charges.coin}`;
  const [row] = await chargesWithBusiness(tx, { paymentId: charges.paymentId, address: charges.address, coin, status: payments.status }).where(
    and(eq(charges.paymentId, paymentId), eq(charges.address, address), liveCharges(coins, lateSince)),
  );
  return row;
}

/** The database's clock (`now()`): the one clock every instance's `charges.changed_at` is written by. */
export async function databaseNow(tx: Tx): Promise<Date> {
  const [row] = await executeRows<{ now: string | Date }>(tx, sql`select now() as now`);
  return new Date(row.now);
}

export type ChainTransfer = {
  paymentId: string;
  /** The transfer's identity on its chain: an outpoint (`txid:vout`) or `txHash[:logIndex]`. */
  txId: string;
  amount: bigint;
  toAddress: string;
  blockNumber: number | null;
  blockHash: string | null;
  confirmations: number;
  late: boolean;
  at: Date;
  /** What the transaction uses up (its inputs' outpoints, or its sender and nonce): kept from the first sighting. */
  spends?: string[];
  /** Why the money cannot count whatever its confirmations (transfers.held); kept from the first sighting. */
  held?: string | null;
};

/**
 * Records a transfer seen on a chain once per identity: seen again (in a block after the mempool,
 * or in another block after a reorganisation) it takes the new block and is no longer dropped.
 * Returns whether anything changed.
 */
export async function recordChainTransfer(tx: Tx, t: ChainTransfer): Promise<boolean> {
  const block = { blockNumber: t.blockNumber === null ? null : String(t.blockNumber), blockHash: t.blockHash, confirmations: t.confirmations };
  const rows = await tx
    .insert(transfers)
    .values({ paymentId: t.paymentId, txId: t.txId, amount: t.amount.toString(), toAddress: t.toAddress, late: t.late, seenAt: t.at, updatedAt: t.at, spends: t.spends ?? null, held: t.held ?? null, ...block })
    .onConflictDoUpdate({
      target: [transfers.paymentId, transfers.txId],
      set: { ...block, dropped: false, updatedAt: t.at },
      setWhere: sql`${transfers.blockHash} is distinct from ${t.blockHash} or ${transfers.dropped}`,
    })
    .returning({ id: transfers.id });
  return rows.length > 0;
}

/** The payments of `liveCharges`, as a subquery. */
function liveChargePayments(tx: Tx, coins: readonly CoinName[], lateSince?: Date) {
  return chargesWithBusiness(tx, { id: charges.paymentId }).where(liveCharges(coins, lateSince));
}

/**
 * After a reorganisation: the coins' transfers in blocks above `height` (where the chains forked)
 * are unconfirmed again, until the watcher finds them in the new chain's blocks (or drops them).
 * Returns the payments touched.
 */
export async function unconfirmTransfersAbove(tx: Tx, coins: readonly CoinName[], height: number, at: Date): Promise<string[]> {
  const rows = await tx
    .update(transfers)
    .set({ blockNumber: null, blockHash: null, confirmations: 0, updatedAt: at })
    .where(
      and(
        isNotNull(transfers.blockNumber),
        sql`${transfers.blockNumber}::integer > ${height}`,
        inArray(transfers.paymentId, liveChargePayments(tx, coins)),
      ),
    )
    .returning({ paymentId: transfers.paymentId });
  return [...new Set(rows.map((r) => r.paymentId))];
}

/**
 * Sets the confirmations of watched charges' transfers in blocks from the chain's tip
 * (tip − height + 1) and returns the open payments whose transfers changed, for the watcher to
 * decide. Watched means open, or closed since `lateSince`: a late transfer's count keeps moving
 * in the record, but a closed payment has nothing left to decide, so it is not returned. One
 * statement driven by the transfers in blocks (a join per transfer), whatever the number of
 * watched addresses.
 */
export async function refreshConfirmations(
  tx: Tx,
  coins: readonly CoinName[],
  tip: number,
  lateSince: Date,
  at: Date,
  finality?: { height: number; confirmations: number },
): Promise<string[]> {
  const blocks = sql`greatest(${tip} - ${transfers.blockNumber}::integer + 1, 0)`;
  // lib/chains/cursor-walk.ts's confirmationsAt, in SQL: irreversible blocks count at least `confirmations`, the others fewer.
  // block_number is text: compared as a number, else "10" <= "2" would call a block irreversible 18 blocks early.
  const depth = finality
    ? sql`(case when ${transfers.blockNumber}::integer <= ${finality.height} then greatest(${blocks}, ${finality.confirmations}) else least(${blocks}, ${finality.confirmations - 1}) end)`
    : blocks;
  const rows = await executeRows<{ payment_id: string; status: PaymentStatus }>(
    tx,
    sql`update ${transfers} set ${sql.identifier(transfers.confirmations.name)} = ${depth}, ${sql.identifier(transfers.updatedAt.name)} = ${at.toISOString()}::timestamptz
      from ${charges}, ${payments}, ${businesses}
      where ${charges.paymentId} = ${transfers.paymentId} and ${payments.id} = ${transfers.paymentId} and ${businesses.id} = ${payments.businessId}
        and ${liveCharges(coins, lateSince)}
        and ${transfers.blockNumber} is not null and not ${transfers.dropped} and ${transfers.confirmations} <> ${depth}
      returning ${transfers.paymentId} as payment_id, ${payments.status} as status`,
  );
  return [...new Set(rows.filter((r) => !TERMINAL.has(r.status)).map((r) => r.payment_id))];
}

const TERMINAL: ReadonlySet<string> = new Set(TERMINAL_STATUSES);

export type UnconfirmedTransfer = { id: number; paymentId: string; txId: string; txHash: string; spends: string[] | null; updatedAt: Date };

/** The coins' live transfers in no block and not dropped: each is in the mempool, newly mined, or gone. */
export async function unconfirmedTransfers(tx: Tx, coins: readonly CoinName[]): Promise<UnconfirmedTransfer[]> {
  return tx
    .select({ id: transfers.id, paymentId: transfers.paymentId, txId: transfers.txId, txHash: transfers.txHash, spends: transfers.spends, updatedAt: transfers.updatedAt })
    .from(transfers)
    .where(and(isNull(transfers.blockNumber), eq(transfers.dropped, false), inArray(transfers.paymentId, liveChargePayments(tx, coins))));
}

/**
 * Marks transfers dropped, those still in no block: the money will not arrive (double-spent, or
 * evicted and never mined). Returns the payments of the transfers it dropped.
 */
export async function dropTransfers(tx: Tx, ids: number[], at: Date): Promise<string[]> {
  if (!ids.length) return [];
  const rows = await tx
    .update(transfers)
    .set({ dropped: true, confirmations: 0, updatedAt: at })
    .where(and(inArray(transfers.id, ids), isNull(transfers.blockNumber), eq(transfers.dropped, false)))
    .returning({ paymentId: transfers.paymentId });
  return [...new Set(rows.map((r) => r.paymentId))];
}
