import type { Db } from "@/db/client";
import { liveSolanaWallets, openChargesDue, recordUnmatched, referencesAmong, setSweptUntil, signatureRecorded } from "@/db/queries/solana";
import type { CoinName } from "@/domain/coins";
import type { CursorWalk } from "../cursor-walk";
import { accountKeysOf, creditOf, type Recipient } from "./credit";
import { readTransaction, signaturesSince, tokenAccountOf, TOKEN_PROGRAM, type SolanaClient } from "./rpc";
import { log } from "@/log/logger.mjs";

/** How often the merchants' wallets are swept: each sweep costs one call per wallet and accepted mint. */
export const SWEEP_EVERY_MS = 60_000;

export type SweepOptions = { rpc: SolanaClient; mints: ReadonlyMap<CoinName, string>; tip: number; hashAt: (slot: number) => Promise<string> };

/**
 * The sweep for payments that lost their reference: a customer who typed the address and amount
 * by hand, or a wallet that dropped the reference. For every live business's wallet it reads the
 * finalized signatures of the wallet (SOL) and of its associated token account for each accepted
 * mint, newer than the last one swept (a wallet's first sweep starts at its newest: history
 * before the service watched it is not the service's). A successful transaction that credited the
 * account, names no payment's reference and is recorded nowhere yet is matched by its amount: to
 * the one open charge of the business in that coin whose amount due is exactly what arrived, and
 * recorded there as the reference polling would; with none or several such charges it is kept
 * for the merchant's review (solana_unmatched) and logged. Returns how many it recorded either way.
 */
export async function sweepWallets(db: Db, walk: CursorWalk, o: SweepOptions): Promise<{ matched: number; unmatched: number }> {
  const out = { matched: 0, unmatched: 0 };
  for (const w of await liveSolanaWallets(db)) {
    const accounts: { account: string; coin: CoinName; to: Recipient }[] = [{ account: w.address, coin: "SOLANA", to: { wallet: w.address, kind: "lamports" } }];
    for (const [coin, mint] of o.mints) {
      const tokenAccount = await tokenAccountOf(w.address, mint);
      accounts.push({ account: tokenAccount, coin, to: { wallet: w.address, kind: "token", mint, tokenAccount, tokenProgram: TOKEN_PROGRAM } });
    }
    for (const a of accounts) {
      const until = w.sweptUntil[a.account];
      if (until === undefined) {
        // The first sweep of an account: from its newest signature on ("" when it has none yet).
        const rows = await signaturesSince(o.rpc, a.account, null);
        await setSweptUntil(db, w.businessId, w.address, a.account, rows.filter((r) => r.slot <= o.tip).at(-1)?.signature ?? "");
        continue;
      }
      const rows = (await signaturesSince(o.rpc, a.account, until || null)).filter((r) => r.slot <= o.tip);
      for (const row of rows) {
        if (row.err === null && !(await signatureRecorded(db, row.signature))) {
          const tx = await readTransaction(o.rpc, row.signature);
          const units = tx ? creditOf(tx, a.to) : 0n;
          if (tx && units > 0n && (await referencesAmong(db, accountKeysOf(tx))).size === 0) {
            const candidates = (await openChargesDue(db, w.businessId, a.coin, w.address)).filter((c) => c.due === units);
            if (candidates.length === 1) {
              await walk.record(candidates[0], { txId: row.signature, units, block: { height: Number(tx.slot), hash: await o.hashAt(Number(tx.slot)) } });
              out.matched++;
            } else {
              await recordUnmatched(db, { signature: row.signature, businessId: w.businessId, coin: a.coin, amount: units.toString(), slot: Number(tx.slot), seenAt: walk.now() });
              log.warn({ component: "watcher", chain: "SOLANA", businessId: w.businessId, coin: a.coin, signature: row.signature }, `${units} base units of ${a.coin} arrived without a payment's reference (${row.signature}); ${candidates.length ? `${candidates.length} open payments are due that amount` : "no open payment is due that amount"}: kept for review`);
              out.unmatched++;
            }
          }
        }
        await setSweptUntil(db, w.businessId, w.address, a.account, row.signature);
      }
    }
  }
  return out;
}
