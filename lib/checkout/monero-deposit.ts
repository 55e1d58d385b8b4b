import type { Db } from "@/db/client";
import { findBusiness } from "@/db/queries/businesses";
import { findMoneroWallet } from "@/db/queries/monero";
import { findPaymentById } from "@/db/queries/payments-read";
import { config } from "@/lib/config";
import { walletRpcAt, withMoneroWallet } from "@/lib/chains/monero/wallets";

export type MoneroDeposit = { address: string; scope: string; index: number; walletName: string };

/**
 * A fresh subaddress for a live business's Monero charge, made by the wallet-rpc in the
 * business's view-only wallet (`create_address`; a subaddress made anywhere else would be
 * invisible to it beyond its 200-index lookahead). Made before the coin choice's transaction, as
 * a wallet session waits its turn on the shared wallet-rpc; one a refused choice leaves unused
 * costs nothing. Null when the payment's business is not a live one with Monero keys.
 */
export async function moneroDepositFor(db: Db, paymentId: string): Promise<MoneroDeposit | null> {
  const url = config().chains.monero?.walletRpcUrl;
  const payment = await findPaymentById(db, paymentId);
  const business = payment && (await findBusiness(db, payment.onBehalfOfBusinessId ?? payment.businessId));
  if (!url || !business || business.mode !== "live") return null;
  const wallet = await findMoneroWallet(db, business.id);
  if (!wallet) return null;
  const sub = await withMoneroWallet(db, walletRpcAt(url), business.id, (w) => w.createSubaddress(`payment ${paymentId}`));
  return { address: sub.address, scope: `monero:${wallet.walletFile}`, index: sub.index, walletName: wallet.walletFile };
}
