import type { Db } from "@/db/client";
import { chargeByComment, liveTonWallets, recordTonUnmatched, setFollowed } from "@/db/queries/ton";
import type { SeenBlock } from "@/db/schema";
import { COIN_NAMES, type CoinName } from "@/domain/coins";
import { normalizeTonComment, parseTonAddress } from "@/lib/wallets/ton";
import { CursorWalk, type FollowerOptions, type FollowResult } from "../cursor-walk";
import { masterchainBlock, masterchainInfo, transactionsSince, type TonApi, type V2Transaction } from "./api";
import { parseTransaction, type ParsedTx } from "./parse";
import { log } from "@/log/logger.mjs";

/** Every coin paid on TON: Toncoin and the jettons. */
export const TON_COINS: readonly CoinName[] = COIN_NAMES.filter((c) => c === "TON" || c.startsWith("TON_"));

/** TON is final after one masterchain block (docs.ton.org/payments/overview): what the API returns has one. */
export const TON_FINAL_CONFIRMATIONS = 1;

/** An account the watcher follows for a business: its wallet (Toncoin), or its jetton wallet of a jetton coin (`owner` its wallet). */
export type FollowedAccount = { account: string; coin: CoinName; owner: string };

export type TonFollowOptions = FollowerOptions & {
  api: TonApi;
  /** The business wallet's jetton wallets by coin: `jettonWallets(owner)` gives each accepted jetton's wallet of the owner (raw). */
  jettonWallets: (owner: string) => Promise<Map<CoinName, string>>;
  /** Handles a jetton wallet's or a notification's transaction (jettons.ts); null: no jetton accepted. */
  onJetton?: (walk: CursorWalk, a: FollowedAccount, tx: ParsedTx, ctx: MatchContext) => Promise<void>;
  pageSize?: number;
};

export type MatchContext = { businessId: number; block: SeenBlock; jettonWallets: ReadonlyMap<CoinName, string> };

/**
 * Where money with `comment` goes: the live charge of the payment with that comment, when it is
 * in `coin` and paid to `owner`'s wallet (compared raw); otherwise it is kept for the business's
 * review (no comment, an unknown one, another coin's or another wallet's).
 */
export async function creditByComment(db: Db, walk: CursorWalk, c: { businessId: number; owner: string; coin: CoinName; comment: string | null; units: bigint; tx: ParsedTx; block: SeenBlock; sender: string | null }): Promise<"recorded" | "review"> {
  const comment = c.comment === null ? null : normalizeTonComment(c.comment);
  const charge = comment ? await chargeByComment(db, comment, walk.lateSince) : undefined;
  const address = charge && parseTonAddress(charge.address);
  if (charge && charge.coin === c.coin && typeof address === "object" && address.raw === c.owner) {
    await walk.record(charge, { txId: c.tx.hash, units: c.units, block: c.block });
    return "recorded";
  }
  await recordTonUnmatched(db, { txHash: c.tx.hash, businessId: c.businessId, coin: c.coin, amount: c.units.toString(), comment: c.comment, sender: c.sender, lt: c.tx.lt.toString(), seenAt: walk.now() });
  log.warn(
    { component: "watcher", chain: "TON", businessId: c.businessId, coin: c.coin, txHash: c.tx.hash },
    `${c.units} base units of ${c.coin} arrived ${c.comment === null ? "without a comment" : `with the comment ${JSON.stringify(c.comment)}, which names no open payment of this wallet`} (${c.tx.hash}): kept for review`,
  );
  return "review";
}

/** A toncenter transaction decoded, its hash checked against the one the API gave (base64). */
function decode(t: V2Transaction): ParsedTx {
  const tx = parseTransaction(t.data);
  if (Buffer.from(tx.hash, "hex").toString("base64") !== t.transaction_id.hash) throw new Error(`the API's transaction ${t.transaction_id.hash} does not hash to its id`);
  return tx;
}

/** A Toncoin transaction on the merchant's wallet: money kept, sent by a person (a text comment or no body), is a payment. */
async function onWalletTx(db: Db, walk: CursorWalk, a: FollowedAccount, tx: ParsedTx, ctx: MatchContext, o: TonFollowOptions): Promise<void> {
  // A jetton notification's TON is the jetton sender's forwarded fee, not a payment: the jetton side decides.
  if (tx.jetton) return o.onJetton?.(walk, a, tx, ctx);
  if (tx.kept <= 0n || (tx.comment === null && !tx.emptyBody)) return;
  await creditByComment(db, walk, { businessId: ctx.businessId, owner: a.owner, coin: "TON", comment: tx.comment, units: tx.kept, tx, block: ctx.block, sender: tx.source });
}

/**
 * One tick of the TON watcher. TON is not followed block by block: every business is paid to its
 * own wallet, each payment told apart by its comment, so the watcher follows the businesses'
 * accounts by logical time. With the chain's lease (the cursor walk: one instance follows TON at a
 * time) it
 * 1. reads the masterchain's newest block, the walk's tip: what the API returns is in a
 *    masterchain block already, and TON is final after one (confirmations = 1);
 * 2. reads, for each live business's wallet and its jetton wallets, the transactions after the
 *    account's cursor (an account not read before: since the wallet was given), oldest first in
 *    pages, and matches each by its comment (creditByComment); each transaction moves the cursor;
 * 3. moves the walk to the tip and lets the detection step decide.
 * Money that bounced back or came in a bounce is never counted (parse.ts).
 */
export async function followTon(db: Db, o: TonFollowOptions): Promise<FollowResult> {
  const info = await masterchainInfo(o.api);
  const tip = info.last.seqno;
  const hashAt = async (seqno: number) => (seqno === tip ? info.last.root_hash : (await masterchainBlock(o.api, seqno)).root_hash);
  const chain = { key: o.cursor ?? "TON", label: "TON", coins: TON_COINS, tip: async () => tip, hashAt, finality: { height: tip, confirmations: TON_FINAL_CONFIRMATIONS } };
  let walk = await CursorWalk.begin(db, o, chain);
  // A chain's first tick only puts the cursor at the tip; the wallets are read at once, not a tick later.
  if (!(walk instanceof CursorWalk) && walk.followed) walk = await CursorWalk.begin(db, o, chain);
  if (!(walk instanceof CursorWalk)) return walk;
  const block: SeenBlock = { height: tip, hash: info.last.root_hash };
  for (const w of await liveTonWallets(db)) {
    const jettonWallets = await o.jettonWallets(w.address);
    const accounts: FollowedAccount[] = [{ account: w.address, coin: "TON", owner: w.address }, ...[...jettonWallets].map(([coin, account]) => ({ account, coin, owner: w.address }))];
    const ctx: MatchContext = { businessId: w.businessId, block, jettonWallets };
    for (const a of accounts) {
      const cursor = w.followed[a.account];
      const txs = await transactionsSince(o.api, a.account, cursor ? { lt: cursor.lt } : { since: w.since }, o.pageSize);
      for (const t of txs) {
        const tx = decode(t);
        if (a.coin === "TON") await onWalletTx(db, walk, a, tx, ctx, o);
        else await o.onJetton?.(walk, a, tx, ctx);
        await setFollowed(db, w.businessId, w.address, a.account, t.transaction_id);
      }
    }
  }
  if (tip > walk.last.height && !(await walk.advance(tip, info.last.root_hash))) return walk.cut();
  return walk.finish();
}
