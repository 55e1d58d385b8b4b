import type { Db } from "@/db/client";
import { markReferencesChecked, watchedReferences, type WatchedReference } from "@/db/queries/solana";
import type { SeenBlock } from "@/db/schema";
import { COIN_NAMES, COINS, type CoinName } from "@/domain/coins";
import { isTerminal } from "@/domain/transitions";
import { CursorWalk, type FollowerOptions, type FollowResult } from "../cursor-walk";
import { accountKeysOf, creditOf, type Recipient } from "./credit";
import { sweepWallets } from "./sweep";
import { blockhashAt, finalizedSlot, readTransaction, signaturesSince, tokenAccountOf, TOKEN_PROGRAM, type SolanaClient } from "./rpc";

/** Every coin paid on Solana: SOL and the SPL tokens. */
export const SOLANA_COINS: readonly CoinName[] = COIN_NAMES.filter((c) => COINS[c].network === "SOLANA");

/**
 * A finalized slot's confirmations (lib/chains/confirmations.ts: Solana's 32, the depth at which
 * a slot used to be rooted). The watcher reads finalized transactions only, and finalized is
 * final, so each counts this many from the moment it is seen.
 */
export const FINALIZED_CONFIRMATIONS = 32;

/**
 * How long after its coin was chosen a charge's reference is asked about at every tick; after
 * that less often, as a customer who has not paid in ten minutes rarely pays in the next five
 * seconds, and each question is one RPC call (docs/chain-performance.md).
 */
export function pollIntervalMs(chargeAgeMs: number, terminal: boolean): number {
  if (terminal) return 10 * 60_000; // closed: only late money, in the late-payment window
  if (chargeAgeMs < 10 * 60_000) return 0;
  if (chargeAgeMs < 60 * 60_000) return 30_000;
  if (chargeAgeMs < 24 * 3_600_000) return 2 * 60_000;
  return 10 * 60_000;
}

export function isDue(r: Pick<WatchedReference, "chosenAt" | "checkedAt" | "status">, now: Date): boolean {
  if (r.checkedAt === null) return true;
  return now.getTime() - r.checkedAt.getTime() >= pollIntervalMs(now.getTime() - r.chosenAt.getTime(), isTerminal(r.status));
}

/**
 * References asked about at once: the node answers them side by side (a provider's rate limit is
 * usually in the hundreds a second), so a tick with thousands due takes a fraction of the time.
 */
export const CONCURRENT_CALLS = 16;

/** Runs `work` for every item, at most `limit` at a time. */
async function inParallel<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

export type SolanaFollowOptions = FollowerOptions & {
  rpc: SolanaClient;
  /** The accepted mint of each SPL coin (identify() checked each for the SPL Token program and the coin's decimals). */
  mints: ReadonlyMap<CoinName, string>;
  /** Ask about every watched reference, whatever its backoff: the first tick after a start (downtime catch-up). */
  all?: boolean;
  /** Sweep the merchants' wallets for payments without a reference (sweep.ts) in this tick. */
  sweep?: boolean;
};

/** Where `r`'s coin is paid: its wallet's lamports, or its wallet's associated token account for the coin's mint. Null: no mint accepted for the coin. */
async function recipientOf(r: WatchedReference, mints: ReadonlyMap<CoinName, string>): Promise<Recipient | null> {
  if (r.coin === "SOLANA") return { wallet: r.address, kind: "lamports" };
  const mint = mints.get(r.coin);
  if (!mint) return null;
  return { wallet: r.address, kind: "token", mint, tokenAccount: await tokenAccountOf(r.address, mint), tokenProgram: TOKEN_PROGRAM };
}

/**
 * One tick of the Solana watcher. Solana is not followed block by block (about 2.5 blocks a
 * second, each heavy): every payment's transfer request carries its own reference key, which
 * wallets add to the transfer as a read-only account and the node indexes. With the chain's lease
 * (the cursor walk: one instance follows Solana at a time) it
 * 1. reads the finalized slot, the walk's tip (no reorganisation reaches a finalized slot);
 * 2. asks, for each watched charge whose turn it is (`isDue`; all of them with `all`),
 *    getSignaturesForAddress(reference) for signatures newer than the last one read, and reads
 *    each successful one's transaction: what it credited the charge's recipient (credit.ts) is
 *    recorded once as a transfer whose id is the signature, in the block of its slot;
 * 3. with `sweep`, reads the merchants' wallets for payments that came without a reference (sweep.ts);
 * 4. moves the cursor to the finalized slot and lets the detection step decide.
 * Transactions with `err` set (failed, fee paid, nothing moved) are passed over.
 */
export async function followSolana(db: Db, o: SolanaFollowOptions): Promise<FollowResult> {
  const tip = await finalizedSlot(o.rpc);
  const hashes = new Map<number, string>();
  const hashAt = async (slot: number) => {
    let hash = hashes.get(slot);
    if (hash === undefined) hashes.set(slot, (hash = await blockhashAt(o.rpc, slot)));
    return hash;
  };
  const chain = { key: o.cursor ?? "SOLANA", label: "SOLANA", coins: SOLANA_COINS, tip: async () => tip, hashAt, finality: { height: tip, confirmations: FINALIZED_CONFIRMATIONS } };
  let walk = await CursorWalk.begin(db, o, chain);
  // A chain's first tick only puts the cursor at the tip; the references are asked about at once, not a tick later.
  if (!(walk instanceof CursorWalk) && walk.followed) walk = await CursorWalk.begin(db, o, chain);
  if (!(walk instanceof CursorWalk)) return walk;
  const now = walk.now();
  const due = (await watchedReferences(db, SOLANA_COINS, walk.lateSince)).filter((r) => o.all || isDue(r, now));
  const checked: { paymentId: string; lastSignature: string | null }[] = [];
  await inParallel(due, CONCURRENT_CALLS, async (r) => {
    const to = await recipientOf(r, o.mints);
    if (!to) return;
    const rows = await signaturesSince(o.rpc, r.reference, r.lastSignature);
    for (const row of rows) {
      if (row.err !== null || row.slot > tip) continue;
      const tx = await readTransaction(o.rpc, row.signature);
      if (!tx || !accountKeysOf(tx).includes(r.reference)) continue;
      const units = creditOf(tx, to);
      if (units <= 0n) continue;
      const block: SeenBlock = { height: Number(tx.slot), hash: await hashAt(Number(tx.slot)) };
      await walk.record(r, { txId: row.signature, units, block });
    }
    checked.push({ paymentId: r.paymentId, lastSignature: rows.filter((row) => row.slot <= tip).at(-1)?.signature ?? null });
  });
  await markReferencesChecked(db, checked, now);
  if (o.sweep) await sweepWallets(db, walk, { rpc: o.rpc, mints: o.mints, tip, hashAt });
  if (tip > walk.last.height && !(await walk.advance(tip, await hashAt(tip)))) return walk.cut();
  return walk.finish();
}
