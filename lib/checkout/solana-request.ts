import type { Db } from "@/db/client";
import { findSolanaReference } from "@/db/queries/solana";
import type { Business, PaymentRow } from "@/db/schema";
import { fromBaseUnits } from "@/domain/amounts";
import { COINS, type CoinName } from "@/domain/coins";
import { isSplCoin, SPL_MINTS, splMintsOn } from "@/domain/solana";
import type { ChainHealth } from "@/lib/chains/health";
import { config } from "@/lib/config";
import { solanaPayUri } from "@/lib/wallets/solana";
import { displayNameOf } from "@/lib/businesses/brand";

/**
 * A Solana charge's Solana Pay transfer request: the merchant's wallet, the amount still due,
 * the token's mint, the payment's reference, and who is paid for what (label, message). The
 * mint is the one the watcher accepts on the node's cluster for a live business (the built-in
 * mainnet mint, or SOLANA_TOKEN_MINTS); a test business's request names mainnet's. Null for a
 * coin of another network.
 */
export async function solanaTransferRequest(
  db: Db,
  o: { payment: Pick<PaymentRow, "id" | "name">; business: Business; coin: CoinName; address: string; units: bigint; health: readonly ChainHealth[] },
): Promise<{ uri: string; mint: string | null } | null> {
  if (COINS[o.coin].network !== "SOLANA") return null;
  const chainId = o.health.find((h) => h.chain === "SOLANA")?.chainId ?? null;
  const mints = o.business.mode === "live" ? splMintsOn(chainId, config().chains.solana.tokenMints) : SPL_MINTS;
  const mint = isSplCoin(o.coin) ? (mints[o.coin] ?? null) : null;
  const uri = solanaPayUri({
    recipient: o.address,
    amount: fromBaseUnits(o.coin, o.units),
    splToken: mint ?? undefined,
    reference: await findSolanaReference(db, o.payment.id),
    label: displayNameOf(o.business),
    message: o.payment.name ?? undefined,
  });
  return { uri, mint: o.business.mode === "live" ? mint : null };
}
