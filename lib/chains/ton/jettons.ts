import { Address, beginCell, Cell } from "@ton/core";
import type { Db } from "@/db/client";
import type { CoinName } from "@/domain/coins";
import { TON_JETTON_MASTERS, type JettonCoin } from "@/domain/ton";
import { runGetMethod, type TonApi } from "./api";
import { creditByComment, type TonFollowOptions } from "./follower";
import { log } from "@/log/logger.mjs";

/**
 * Jettons (TEP-74) on TON. A jetton sent to a business moves from the payer's jetton wallet to
 * the business's jetton wallet of the same master with `internal_transfer`; only when the payer
 * forwards some TON does that wallet also send `transfer_notification` to the business's wallet.
 * The watcher therefore follows the business's jetton wallet itself and counts its successful
 * incoming `internal_transfer`s (with or without forwarded TON), the comment in their forward
 * payload. A notification on the business's wallet is the same transfer seen from the owner:
 * never counted on its own, and one from any contract but the derived jetton wallet is a fake
 * (any contract can send op 0x7362d09c), logged and ignored.
 */

/**
 * The jetton masters the API's network serves: on mainnet the built-in ones, each replaced by the
 * configured one; elsewhere only the configured ones. Each must answer get_jetton_data (exit code
 * 0): a master that does not is refused with a logged reason and its coin not offered.
 */
export async function acceptedJettons(api: TonApi, mainnet: boolean, configured: Partial<Record<JettonCoin, string>>): Promise<Map<CoinName, string>> {
  const all: Partial<Record<JettonCoin, string>> = { ...(mainnet ? TON_JETTON_MASTERS : {}), ...configured };
  const out = new Map<CoinName, string>();
  for (const [coin, master] of Object.entries(all) as [JettonCoin, string][]) {
    const raw = Address.parse(master).toRawString();
    const got = await runGetMethod(api, raw, "get_jetton_data", []).catch((e: Error) => e);
    if (got instanceof Error || got.exit_code !== 0) {
      const why = got instanceof Error ? got.message : `exit code ${got.exit_code}`;
      log.error({ component: "watcher", chain: "TON", coin, master }, `${coin} is not offered: the jetton master ${master} is refused: get_jetton_data failed (${why})`);
      continue;
    }
    out.set(coin, raw);
  }
  return out;
}

/**
 * The owner's jetton wallet of each accepted master, raw, asked from the master itself
 * (get_wallet_address through v2 runGetMethod, the TEP-74 way: the address depends on the
 * master's wallet code, which the service does not assume), cached per owner.
 */
export async function jettonWalletsOf(api: TonApi, masters: ReadonlyMap<CoinName, string>, owner: string, cache: Map<string, Map<CoinName, string>>): Promise<Map<CoinName, string>> {
  const hit = cache.get(owner);
  if (hit) return hit;
  const out = new Map<CoinName, string>();
  const arg = beginCell().storeAddress(Address.parseRaw(owner)).endCell().toBoc().toString("base64");
  for (const [coin, master] of masters) {
    const r = await runGetMethod(api, master, "get_wallet_address", [["tvm.Slice", arg]]);
    const top = r.stack[0];
    if (r.exit_code !== 0 || !top || top[0] !== "cell") throw new Error(`get_wallet_address on ${master} answered exit code ${r.exit_code}`);
    const bytes = (top[1] as { bytes: string }).bytes;
    out.set(coin, Cell.fromBase64(bytes).beginParse().loadAddress().toRawString());
  }
  cache.set(owner, out);
  return out;
}

/** The follower's jetton hook: counts internal transfers into the jetton wallets, passes over the notifications. */
export function jettonHandler(db: Db): NonNullable<TonFollowOptions["onJetton"]> {
  return async (walk, a, tx, ctx) => {
    const j = tx.jetton;
    if (!j) return;
    if (a.coin === "TON") {
      const genuine = [...ctx.jettonWallets.values()].includes(tx.source ?? "");
      if (!genuine && j.op === "transfer_notification") {
        log.warn({ component: "watcher", chain: "TON", businessId: ctx.businessId, txHash: tx.hash, source: tx.source }, `a jetton notification from ${tx.source}, which is no jetton wallet of this wallet's accepted masters, is ignored (${tx.hash})`);
      }
      return;
    }
    if (j.op !== "internal_transfer" || !tx.ok || j.amount <= 0n) return;
    await creditByComment(db, walk, { businessId: ctx.businessId, owner: a.owner, coin: a.coin, comment: j.comment, units: j.amount, tx, block: ctx.block, sender: j.sender });
  };
}
