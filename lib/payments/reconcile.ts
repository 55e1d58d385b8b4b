import type { Db, Tx } from "@/db/client";
import { findCharge, listTransfers } from "@/db/queries/charges";
import type { Business, ChargeRow, PaymentRow } from "@/db/schema";
import { loadForUpdate } from "@/lib/payments/lock";
import { minorUnits } from "@/domain/currencies";
import { Big } from "@/domain/decimal";
import { transition } from "@/lib/payments/state-machine";
import { isTerminal } from "@/domain/transitions";
import { fiatValue } from "@/domain/amounts";
import { COINS, type CoinName } from "@/domain/coins";
import { decideStatus } from "./detection";
import { detectionInput } from "./detection-input";
import { usdValue } from "@/lib/rates/rate-source";
import { inTransaction } from "@/db/transaction";

/**
 * D10 settlement, recorded on the way from PROCESSING to COMPLETED: `endAmount` is the fiat
 * value received at the locked rate, `platformFee` the business's fee rate of it, and
 * `netAmountUsd` what remains, in USD at the currency's USD value locked with the quote.
 */
async function settle(tx: Tx, payment: PaymentRow, business: Business, charge: ChargeRow, confirmed: bigint, at: Date) {
  const digits = minorUnits(payment.currency) ?? 2;
  const endAmount = fiatValue(confirmed, charge.exchangeRate, COINS[charge.coin as CoinName].decimals, digits);
  const fee = new Big(endAmount).times(business.feePercent).div(100).round(digits, Big.roundHalfUp);
  const net = new Big(endAmount).minus(fee).toFixed(digits);
  // The USD leg locked with the quote; charges quoted before it was stored use the built-in table.
  const netUsd = charge.usdPerCurrencyUnit ? new Big(net).times(charge.usdPerCurrencyUnit).toFixed(2, Big.roundHalfUp) : usdValue(net, payment.currency);
  return transition(tx, payment, "COMPLETED", {
    at,
    patch: { endAmount, platformFee: fee.toFixed(digits), netAmountUsd: new Big(netUsd).toFixed(2) },
  });
}

/**
 * The watcher's step for one payment, shared by the simulated chain and real chain watchers:
 * read the transfers seen on the charge's address, let the detection function decide, and
 * apply its decision through the state machine. Safe to run any number of times concurrently
 * (the payment row is locked; a decision that is no change does nothing).
 */
export async function reconcilePayment(db: Db, paymentId: string, at = new Date()): Promise<PaymentRow> {
  return inTransaction(db, async (tx) => {
    const { payment, business } = await loadForUpdate(tx, paymentId);
    return reconcileLocked(tx, payment, business, at);
  });
}

/**
 * The same step inside a transaction that already holds the payment's row lock — the one that
 * recorded the transfer — so nothing (an expiry sweep, say) can come between a transfer being
 * seen and the status it implies.
 */
export async function reconcileLocked(tx: Tx, payment: PaymentRow, business: Business, at = new Date()): Promise<PaymentRow> {
  const charge = await findCharge(tx, payment.id);
  if (!charge || isTerminal(payment.status)) return payment;
  const transfers = await listTransfers(tx, payment.id);
  const decision = decideStatus(detectionInput(payment, charge, transfers));
  let row = payment;
  if (decision.next) row = await transition(tx, row, decision.next, { at });
  if (row.status === "PROCESSING") row = await settle(tx, row, business, charge, decision.confirmed, at);
  return row;
}
