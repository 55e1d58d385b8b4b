import type { Db } from "@/db/client";
import { findTonComment } from "@/db/queries/ton";
import type { Business, PaymentRow } from "@/db/schema";
import type { CoinName } from "@/domain/coins";
import { TON_JETTON_MASTERS, type JettonCoin } from "@/domain/ton";
import { watchedChainOf } from "@/domain/watched-chains";
import type { ChainHealth } from "@/lib/chains/health";
import { config } from "@/lib/config";
import { tonTransferUri } from "@/lib/wallets/ton";

/**
 * A live TON charge's transfer link: the merchant's wallet, the amount still due (nanotons, or the
 * jetton's base units with its master), and the payment's comment, which the payer's wallet must
 * send with the money. The master is the one the watcher accepts on the API's network (the
 * built-in mainnet one, or TON_JETTON_MASTERS). Null for a test business (the simulator's chain)
 * and for a coin of another network.
 */
export async function tonTransferRequest(
  db: Db,
  o: { payment: Pick<PaymentRow, "id">; business: Business; coin: CoinName; address: string; units: bigint; health: readonly ChainHealth[] },
): Promise<{ uri: string; comment: string; master: string | null } | null> {
  if (o.business.mode !== "live" || watchedChainOf(o.coin) !== "TON") return null;
  const comment = await findTonComment(db, o.payment.id);
  if (!comment) return null;
  let master: string | null = null;
  if (o.coin !== "TON") {
    const mainnet = o.health.find((h) => h.chain === "TON")?.chainId === -239;
    const masters: Partial<Record<JettonCoin, string>> = { ...(mainnet ? TON_JETTON_MASTERS : {}), ...config().chains.ton?.jettonMasters };
    master = masters[o.coin as JettonCoin] ?? null;
  }
  return { uri: tonTransferUri({ address: o.address, units: o.units, comment, jettonMaster: master ?? undefined }), comment, master };
}
