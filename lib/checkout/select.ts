import { createHash } from "node:crypto";
import { base58 } from "@scure/base";
import type { Db, Tx } from "@/db/client";
import { claimAddressIndex, listTransfers, upsertCharge } from "@/db/queries/charges";
import { claimSolanaReference } from "@/db/queries/solana";
import { newSolanaReference } from "@/lib/wallets/solana";
import { claimTonComment } from "@/db/queries/ton";
import { friendlyTonAddress, newTonComment } from "@/lib/wallets/ton";
import { watchedChainOf } from "@/domain/watched-chains";
import { setSelectedCoin } from "@/db/queries/payments-write";
import type { Business, PaymentRow } from "@/db/schema";
import { COINS, type CoinName } from "@/domain/coins";
import { requiredConfirmations } from "@/lib/chains/confirmations";
import { deriveAddressForCoin, keyFamilyOf, TEST_EXTENDED_PUBLIC_KEYS } from "@/lib/wallets/derive";
import { canServeNow, withWalletSources, type WalletSources } from "@/lib/payments/address-source";
import { moneroDepositFor } from "./monero-deposit";
import { liveCoins, type LiveCoin } from "@/lib/chains/health";
import { quotedUnits, quoteRate } from "@/lib/rates/quote";
import { conflict, invalidField } from "@/lib/http/errors";
import { recordEvent } from "@/lib/payments/state-machine";
import { loadForUpdate } from "@/lib/payments/lock";
import { inTransaction } from "@/db/transaction";

/** Coins this payment can be paid in now: offered at create, and for live businesses on a healthy chain (`live`). */
export function selectableCoins(payment: PaymentRow, business: Business & WalletSources, live: ReadonlyMap<CoinName, LiveCoin>): CoinName[] {
  return (payment.offeredCoins as CoinName[]).filter((coin) => canServeNow(business, coin, live));
}

/** The live chains' coins, read only for live businesses (test businesses pay on the simulated chain). */
export async function liveCoinsFor(db: Tx, business: Business): Promise<Map<CoinName, LiveCoin>> {
  return business.mode === "live" ? liveCoins(db) : new Map();
}

/**
 * A deposit address for a charge. Test businesses derive from the fixed test keys with one
 * counter shared by all test businesses (no two charges share an address); coins without an
 * xpub family (Solana, Monero, TON) get a simulated address, as only test businesses offer them.
 * Live businesses derive from their own account keys with a counter per key, encoded for the
 * network the coin's node serves; a live Solana charge is paid to the business's own wallet, the
 * payment told apart by its Solana Pay reference (selectCoin); a live TON charge likewise to the
 * business's TON wallet (its user-friendly non-bounceable form for the API's network), told apart
 * by its comment.
 */
async function depositAddress(tx: Tx, business: Business & WalletSources, coin: CoinName, liveChains: ReadonlyMap<CoinName, LiveCoin>) {
  if (business.mode === "live" && COINS[coin].network === "SOLANA") {
    if (!business.solanaWallet) throw invalidField("coin", `${coin} is not available: the business has no Solana wallet address`);
    return { address: business.solanaWallet, scope: null, index: null, walletName: "solana-wallet" };
  }
  if (business.mode === "live" && watchedChainOf(coin) === "TON") {
    if (!business.tonWallet) throw invalidField("coin", `${coin} is not available: the business has no TON wallet address`);
    return { address: friendlyTonAddress(business.tonWallet.address, liveChains.get(coin)?.network === "test"), scope: null, index: null, walletName: "ton-wallet" };
  }
  const family = keyFamilyOf(coin);
  const live = business.mode === "live";
  const key = family && (live ? business.extendedPublicKeys[family] : TEST_EXTENDED_PUBLIC_KEYS[family]);
  // One counter per wallet key, not per business: businesses given the same key (a shop and its
  // sub-business, say) still never hand out one address twice.
  const scope = live && key ? `xpub:${family}:${createHash("sha256").update(key.trim()).digest("hex").slice(0, 32)}` : `test:${family ?? coin}`;
  if (live && !key) throw invalidField("coin", `${coin} is not available: no deposit-address source is configured`);
  const index = await claimAddressIndex(tx, scope);
  if (!key) {
    const simulated = base58.encode(createHash("sha256").update(`simulated:${coin}:${index}`).digest());
    return { address: simulated, scope, index, walletName: "simulated-chain" };
  }
  const network = live ? (liveChains.get(coin)?.network ?? "main") : "main";
  return { address: deriveAddressForCoin(coin, key, index, network), scope, index, walletName: live ? `${family}-xpub` : "test-wallet" };
}

/**
 * D8: the customer picks a coin. Creates (or, while nothing is paid, replaces) the charge: the
 * coin amount at a rate locked now (with its source and the time its inputs were read), a
 * fresh deposit address, `selectedPaymentMethod`; and writes PAYMENT_METHOD_SELECTED — all in
 * one transaction. Choosing again makes a fresh quote.
 */
export async function selectCoin(db: Db, paymentId: string, coin: string): Promise<PaymentRow> {
  const monero = coin === "MONERO" ? await moneroDepositFor(db, paymentId) : null;
  return inTransaction(db, async (tx) => {
    const locked = await loadForUpdate(tx, paymentId);
    const { payment } = locked;
    const business = await withWalletSources(tx, locked.business);
    const live = await liveCoinsFor(tx, business);
    const coins = selectableCoins(payment, business, live);
    if (!coins.includes(coin as CoinName)) {
      throw invalidField("coin", `${coin} is not offered for this payment; offered: ${coins.join(", ") || "none"}`);
    }
    if (payment.status !== "AWAITING_PAYMENT") {
      throw conflict(`A coin can only be chosen while the payment awaits payment; it is ${payment.status}.`);
    }
    if ((await listTransfers(tx, paymentId)).length > 0) {
      throw conflict("A transfer has already been received for this payment; the coin can no longer change.");
    }
    const c = coin as CoinName;
    const info = COINS[c];
    const now = new Date();
    const quote = await quoteRate(tx, business, c, payment.currency, now);
    const quoted = quotedUnits(payment.amount, quote.rate, info.decimals);
    const deposit = (business.mode === "live" && monero) || (await depositAddress(tx, business, c, live));
    await upsertCharge(tx, {
      paymentId,
      coin: c,
      chargeType: info.chargeType,
      network: info.network,
      address: deposit.address,
      derivationScope: deposit.scope,
      derivationIndex: deposit.index,
      walletName: deposit.walletName,
      quotedUnits: quoted.toString(),
      exchangeRate: quote.rate,
      rateSource: quote.source,
      rateFetchedAt: quote.at,
      usdPerCurrencyUnit: quote.usdPerUnit,
      requiredConfirmations: business.confirmations[c] ?? requiredConfirmations(c),
      tolerancePercent: business.underpaymentTolerancePercent,
      createdAt: now,
      updatedAt: now,
    });
    // One reference per payment, kept when another Solana coin is chosen: wallets add it to the transfer, and the watcher asks the node for it.
    if (info.network === "SOLANA") await claimSolanaReference(tx, paymentId, newSolanaReference(), now);
    // One comment per payment, kept when another TON coin is chosen: the payer's wallet sends it with the money, and the watcher matches it.
    if (watchedChainOf(c) === "TON") await claimTonComment(tx, paymentId, newTonComment(), now);
    const row = await setSelectedCoin(tx, paymentId, { method: info.chargeType, coin: c, at: now });
    await recordEvent(tx, row, "PAYMENT_METHOD_SELECTED", row.status, now);
    return row;
  });
}
