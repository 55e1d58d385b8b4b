import type { Db } from "@/db/client";
import { databaseNow, watchedCharges, watchedChargesChangedSince, type WatchedCharge } from "@/db/queries/chain-watch";
import type { CoinName } from "@/domain/coins";

/** How often a kept watch set is read whole again: it drops the charges no longer watched (closed past the late-payment window). */
export const FULL_READ_EVERY_MS = 10 * 60_000;

/**
 * How far before the last read the changes are read again. A charge is stamped with the database's
 * clock when its transaction begins and seen by others only once it commits: a coin selection
 * still committing when the last read ran is caught by the next one, as long as its transaction
 * took less than this (it takes milliseconds). A longer one is caught by the next full read.
 */
export const CHANGE_OVERLAP_MS = 60_000;

/** Where a watched charge is looked up: a part of the set (e.g. Ether or token charges) and the key a block's item is matched on. */
export type WatchKey = { part: string; key: string };

/**
 * A chain watcher's watched charges, kept between ticks (the watcher's driver holds it): read whole
 * at first and every FULL_READ_EVERY_MS, and otherwise only the charges made or replaced since the
 * last read, by any instance (`charges.changed_at`, the database's clock; one indexed range
 * instead of every watched charge: at 100 000 watched addresses the whole read and its keys cost
 * 0.4-0.75 s a tick, docs/performance.md). Between full reads it may still hold charges no longer
 * watched (a payment closed past the late-payment window, a coin chosen again): a match is checked
 * against the database before it is recorded (`CursorWalk.record`), so such a charge records
 * nothing. Each charge is filed under `keyOf`'s key (null: nobody's on this chain, as an address
 * of another network).
 */
export class WatchList {
  private readonly byPayment = new Map<string, { charge: WatchedCharge; at: WatchKey }>();
  private readonly parts = new Map<string, Map<string, WatchedCharge[]>>();
  /** The database's clock at the last read, and this process's at the last full read. */
  private readAt: Date | null = null;
  private fullReadAt = 0;
  /** How many full and change reads it made: what the tests and the bench look at. */
  readonly reads = { full: 0, changes: 0 };

  constructor(
    readonly coins: readonly CoinName[],
    private readonly keyOf: (c: WatchedCharge) => WatchKey | null,
  ) {}

  /** Brings the set up to date for a tick at `now`: a full read when one is due, else the changes since the last read. */
  async refresh(db: Db, lateSince: Date, now: Date): Promise<void> {
    const full = this.readAt === null || Math.abs(now.getTime() - this.fullReadAt) >= FULL_READ_EVERY_MS;
    // Taken before the read: anything committed after it has a later stamp, or is within the overlap.
    const at = await databaseNow(db);
    if (full) {
      const rows = await watchedCharges(db, this.coins, lateSince);
      this.byPayment.clear();
      this.parts.clear();
      for (const c of rows) this.put(c);
      this.fullReadAt = now.getTime();
      this.reads.full++;
    } else {
      for (const c of await watchedChargesChangedSince(db, this.coins, lateSince, new Date(this.readAt!.getTime() - CHANGE_OVERLAP_MS))) this.put(c);
      this.reads.changes++;
    }
    this.readAt = at;
  }

  /** The charges of one part by key (an empty map when it has none). */
  part(name: string): ReadonlyMap<string, readonly WatchedCharge[]> {
    return this.parts.get(name) ?? EMPTY;
  }

  /** Files `c` under its key, in place of the same payment's charge as last read (its coin or address may have changed). */
  private put(c: WatchedCharge) {
    const old = this.byPayment.get(c.paymentId);
    if (old) {
      const part = this.parts.get(old.at.part)!;
      const left = part.get(old.at.key)!.filter((x) => x.paymentId !== c.paymentId);
      if (left.length) part.set(old.at.key, left);
      else part.delete(old.at.key);
      this.byPayment.delete(c.paymentId);
    }
    const at = this.keyOf(c);
    if (!at) return;
    let part = this.parts.get(at.part);
    if (!part) this.parts.set(at.part, (part = new Map()));
    part.set(at.key, [...(part.get(at.key) ?? []), c]);
    this.byPayment.set(c.paymentId, { charge: c, at });
  }
}

const EMPTY: ReadonlyMap<string, readonly WatchedCharge[]> = new Map();

/**
 * The watch set of a chain with a native coin and token contracts (Ethereum, TRON): charges by
 * address key, in two parts by how they are paid, "native" (the chain's own coin, a
 * transaction's value) and "token" (a Transfer log). Only token coins a configured contract pays
 * (`tokens`: contract → coins) are watched for logs: for the others nothing on the chain could
 * pay them. `keyOf` spells a charge's address as blocks name it (null: none of this chain's).
 */
export function nativeAndTokenWatchList(
  coins: readonly CoinName[],
  native: ReadonlySet<CoinName>,
  tokens: ReadonlyMap<string, readonly CoinName[]>,
  keyOf: (address: string) => string | null,
): WatchList {
  const paidByContract = new Set([...tokens.values()].flat());
  return new WatchList(coins, (c) => {
    const part = native.has(c.coin) ? "native" : paidByContract.has(c.coin) ? "token" : null;
    const key = part && keyOf(c.address);
    return part && key ? { part, key } : null;
  });
}

/**
 * The charges a native or token transfer to `to` pays (a nativeAndTokenWatchList's): the chain's
 * coin only its native charges, a contract's tokens only charges of a coin that contract pays.
 * Anything else sent to the address (the native coin to a token charge, another token) is not
 * the quoted coin: its base units are not the charge's, so it stays there for the merchant.
 */
export function chargesPaidBy(
  watch: WatchList,
  tokens: ReadonlyMap<string, readonly CoinName[]>,
  m: { to: string; contract: string | null },
): readonly WatchedCharge[] {
  if (m.contract === null) return watch.part("native").get(m.to) ?? [];
  const coins = tokens.get(m.contract) ?? [];
  return (watch.part("token").get(m.to) ?? []).filter((c) => coins.includes(c.coin));
}
