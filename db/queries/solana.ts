import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Tx } from "../client";
import type { CoinName } from "@/domain/coins";
import type { PaymentStatus } from "@/domain/statuses";
import { businesses, charges, payments, solanaReferences, solanaUnmatched, solanaWallets, transfers } from "../schema";
import { chargesWithBusiness, liveCharges } from "./chain-watch";

/** A business's Solana wallet address, or undefined when it gave none. */
export async function findSolanaWallet(tx: Tx, businessId: number): Promise<string | undefined> {
  const [row] = await tx.select({ address: solanaWallets.address }).from(solanaWallets).where(eq(solanaWallets.businessId, businessId)).limit(1);
  return row?.address;
}

/** Sets (or with null removes) a business's Solana wallet; a new address starts its sweep afresh. */
export async function setSolanaWallet(tx: Tx, businessId: number, address: string | null, at: Date): Promise<void> {
  if (address === null) {
    await tx.delete(solanaWallets).where(eq(solanaWallets.businessId, businessId));
    return;
  }
  await tx
    .insert(solanaWallets)
    .values({ businessId, address, updatedAt: at })
    .onConflictDoUpdate({
      target: solanaWallets.businessId,
      set: { address, updatedAt: at, sweptUntil: sql`case when ${solanaWallets.address} = ${address} then ${solanaWallets.sweptUntil} else '{}'::jsonb end` },
    });
}

/** The payment's Solana Pay reference: `fresh` stored when it has none yet, else the one it has. */
export async function claimSolanaReference(tx: Tx, paymentId: string, fresh: string, at: Date): Promise<string> {
  await tx.insert(solanaReferences).values({ paymentId, reference: fresh, createdAt: at }).onConflictDoNothing({ target: solanaReferences.paymentId });
  const [row] = await tx.select({ reference: solanaReferences.reference }).from(solanaReferences).where(eq(solanaReferences.paymentId, paymentId));
  return row.reference;
}

export async function findSolanaReference(tx: Tx, paymentId: string): Promise<string | undefined> {
  const [row] = await tx.select({ reference: solanaReferences.reference }).from(solanaReferences).where(eq(solanaReferences.paymentId, paymentId));
  return row?.reference;
}

/** A live Solana charge the watcher asks the node about, with its reference. */
export type WatchedReference = {
  paymentId: string;
  businessId: number;
  /** The recipient: the business's wallet when the coin was chosen. */
  address: string;
  coin: CoinName;
  status: PaymentStatus;
  reference: string;
  lastSignature: string | null;
  checkedAt: Date | null;
  /** When the coin was chosen: an older charge is asked about less often. */
  chosenAt: Date;
  quotedUnits: string;
};

/**
 * Live businesses' charges in `coins` with a reference, whose payment is open or closed since
 * `lateSince` (money after expiry is recorded as late), oldest check first.
 */
export async function watchedReferences(tx: Tx, coins: readonly CoinName[], lateSince: Date): Promise<WatchedReference[]> {
  return chargesWithBusiness(tx, {
    paymentId: charges.paymentId,
    businessId: businesses.id,
    address: charges.address,
    coin: sql<CoinName>`${charges.coin}`,
    status: payments.status,
    reference: solanaReferences.reference,
    lastSignature: solanaReferences.lastSignature,
    checkedAt: solanaReferences.checkedAt,
    chosenAt: charges.createdAt,
    quotedUnits: charges.quotedUnits,
  })
    .innerJoin(solanaReferences, eq(solanaReferences.paymentId, charges.paymentId))
    .where(liveCharges(coins, lateSince))
    .orderBy(sql`${solanaReferences.checkedAt} asc nulls first`, asc(charges.paymentId));
}

/** Notes that the references were asked about at `at`, each with the newest signature read for it (kept when none is newer): one statement. */
export async function markReferencesChecked(tx: Tx, checked: readonly { paymentId: string; lastSignature: string | null }[], at: Date): Promise<void> {
  if (!checked.length) return;
  const ids = checked.map((c) => c.paymentId).join(",");
  const sigs = checked.map((c) => c.lastSignature ?? "").join(",");
  await tx.execute(sql`update ${solanaReferences} set checked_at = ${at.toISOString()}::timestamptz, last_signature = coalesce(nullif(v.sig, ''), ${solanaReferences.lastSignature})
    from unnest(string_to_array(${ids}, ',')::uuid[], string_to_array(${sigs}, ',')) as v(id, sig)
    where ${solanaReferences.paymentId} = v.id`);
}

/** The live businesses' Solana wallets, for the sweep. */
export async function liveSolanaWallets(tx: Tx): Promise<{ businessId: number; address: string; sweptUntil: Record<string, string> }[]> {
  return tx
    .select({ businessId: solanaWallets.businessId, address: solanaWallets.address, sweptUntil: solanaWallets.sweptUntil })
    .from(solanaWallets)
    .innerJoin(businesses, eq(businesses.id, solanaWallets.businessId))
    .where(eq(businesses.mode, "live"));
}

/** Moves one account's sweep cursor of the business's wallet (only while the wallet is still `address`). */
export async function setSweptUntil(tx: Tx, businessId: number, address: string, account: string, signature: string): Promise<void> {
  await tx
    .update(solanaWallets)
    .set({ sweptUntil: sql`${solanaWallets.sweptUntil} || jsonb_build_object(${account}::text, ${signature}::text)` })
    .where(and(eq(solanaWallets.businessId, businessId), eq(solanaWallets.address, address)));
}

/** Keeps a payment to the wallet that matched no charge, for the merchant's review (once per signature and coin). */
export async function recordUnmatched(tx: Tx, row: typeof solanaUnmatched.$inferInsert): Promise<void> {
  await tx.insert(solanaUnmatched).values(row).onConflictDoNothing();
}

export async function listUnmatched(tx: Tx, businessId: number) {
  return tx.select().from(solanaUnmatched).where(eq(solanaUnmatched.businessId, businessId)).orderBy(sql`${solanaUnmatched.seenAt} desc`);
}

/** Which of `keys` are payments' references: a transaction naming one is the reference polling's, not the sweep's. */
export async function referencesAmong(tx: Tx, keys: readonly string[]): Promise<Set<string>> {
  if (!keys.length) return new Set();
  const rows = await tx.select({ reference: solanaReferences.reference }).from(solanaReferences).where(inArray(solanaReferences.reference, [...keys]));
  return new Set(rows.map((r) => r.reference));
}

/** Whether any payment already has a transfer by this signature (the reference polling recorded it). */
export async function signatureRecorded(tx: Tx, signature: string): Promise<boolean> {
  const [row] = await tx.select({ id: transfers.id }).from(transfers).where(eq(transfers.txId, signature)).limit(1);
  return row !== undefined;
}

/**
 * A live business's open charges in `coin` paid to `address` that still await money (no transfer
 * yet, or underpaid), with what they are due: quoted minus what their standing transfers brought.
 */
export async function openChargesDue(tx: Tx, businessId: number, coin: CoinName, address: string): Promise<(WatchedChargeRow & { due: bigint })[]> {
  const rows = await tx
    .select({
      paymentId: charges.paymentId,
      address: charges.address,
      coin: sql<CoinName>`${charges.coin}`,
      status: payments.status,
      quotedUnits: charges.quotedUnits,
      seen: sql<string>`coalesce((select sum(${transfers.amount}) from ${transfers} where ${transfers.paymentId} = ${charges.paymentId} and not ${transfers.dropped} and not ${transfers.late}), 0)`,
    })
    .from(charges)
    .innerJoin(payments, eq(payments.id, charges.paymentId))
    .innerJoin(businesses, eq(businesses.id, payments.businessId))
    .where(and(eq(sql`coalesce(${payments.onBehalfOfBusinessId}, ${payments.businessId})`, businessId), eq(businesses.mode, "live"), eq(charges.coin, coin), eq(charges.address, address), inArray(payments.status, ["AWAITING_PAYMENT", "UNDERPAID"])));
  return rows.map(({ quotedUnits, seen, ...c }) => ({ ...c, due: BigInt(quotedUnits) - BigInt(String(seen).split(".")[0]) }));
}

type WatchedChargeRow = { paymentId: string; address: string; coin: CoinName; status: PaymentStatus };
