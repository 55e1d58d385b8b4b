import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { findBusiness } from "@/db/queries/businesses";
import { findCharge, listTransfers } from "@/db/queries/charges";
import { payments } from "@/db/schema";
import { unitsToDecimal } from "@/lib/chains/amounts";
import { COINS, type CoinName } from "@/lib/chains/coins";
import { decideStatus } from "@/lib/chains/detection";
import { paymentUri } from "@/lib/chains/payment-uri";
import { detectionInput } from "@/lib/chains/detection-input";
import type { PaymentStatus } from "@/lib/payments/status";
import { isTerminal } from "@/lib/payments/transitions";
import { selectableCoins } from "./select";

/**
 * What the customer's browser may see of a payment: display name, amount, status, the coins
 * offered and the charge. Never `description`, `note`, `metadata`, business settings or keys
 * (D8) — the page and the polling endpoint both render only this object.
 */
export type CheckoutView = {
  id: string;
  name: string | null;
  amount: string;
  currency: string;
  status: PaymentStatus;
  createdAt: string;
  expiresAt: string;
  testMode: boolean;
  redirectUrl: string | null;
  needsEmail: boolean;
  canCancel: boolean;
  coins: { coin: CoinName; name: string; symbol: string; network: string | null }[];
  charge: null | {
    coin: CoinName;
    name: string;
    symbol: string;
    amount: string;
    exchangeRate: string;
    address: string;
    uri: string;
    paid: string;
    due: string;
    isUnderpaid: boolean;
    confirmations: number;
    requiredConfirmations: number;
    transfers: number;
  };
};

const trimZeros = (s: string) => (s.includes(".") ? s.replace(/0+$/, "").replace(/\.$/, "") : s);

export async function checkoutView(db: Db, paymentId: string): Promise<CheckoutView | null> {
  const [payment] = await db.select().from(payments).where(eq(payments.id, paymentId)).limit(1);
  if (!payment) return null;
  const business = await findBusiness(db, payment.onBehalfOfBusinessId ?? payment.businessId);
  if (!business) return null;
  const [charge, transfers] = await Promise.all([findCharge(db, paymentId), listTransfers(db, paymentId)]);
  let chargeView: CheckoutView["charge"] = null;
  if (charge) {
    const coin = charge.coin as CoinName;
    const info = COINS[coin];
    const d = decideStatus(detectionInput(payment, charge, transfers));
    const pending = transfers.filter((t) => !t.dropped && !t.late);
    chargeView = {
      coin,
      name: info.name,
      symbol: info.symbol,
      amount: unitsToDecimal(BigInt(charge.quotedUnits), info.decimals),
      exchangeRate: trimZeros(charge.exchangeRate),
      address: charge.address,
      // After a partial payment the wallet link asks for what is still due.
      uri: paymentUri(coin, charge.address, d.due > 0n ? d.due : BigInt(charge.quotedUnits)),
      paid: unitsToDecimal(d.seen, info.decimals),
      due: unitsToDecimal(d.due, info.decimals),
      isUnderpaid: d.isUnderpaid,
      confirmations: pending.length ? Math.min(...pending.map((t) => t.confirmations)) : 0,
      requiredConfirmations: charge.requiredConfirmations,
      transfers: pending.length,
    };
  }
  return {
    id: payment.id,
    name: payment.name,
    amount: trimZeros(payment.amount),
    currency: payment.currency,
    status: payment.status,
    createdAt: payment.createdAt.toISOString(),
    expiresAt: payment.expiresAt.toISOString(),
    testMode: business.mode === "test",
    redirectUrl: payment.redirectUrl,
    needsEmail: !payment.customerEmail && !isTerminal(payment.status),
    canCancel: payment.status === "AWAITING_PAYMENT" && transfers.length === 0,
    coins: selectableCoins(payment, business).map((c) => ({
      coin: c,
      name: COINS[c].name,
      symbol: COINS[c].symbol,
      network: COINS[c].network,
    })),
    charge: chargeView,
  };
}
