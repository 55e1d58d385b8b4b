import type { RecordChargeRow, RecordTransferRow } from "@/db/queries/payments";
import { unitsToDecimal } from "@/lib/chains/amounts";
import { COINS, type CoinName } from "@/lib/chains/coins";
import { decideStatus } from "@/lib/chains/detection";
import { detectionInput } from "@/lib/chains/detection-input";
import type { PaymentStatus } from "./status";
import type { PaymentRecord } from "./schemas";

type Transaction = NonNullable<NonNullable<PaymentRecord["platformCryptoCharge"]>["transaction"]>;

/** Coin amounts leave the service as JSON numbers of whole coins (the spec's types). */
const coins = (units: bigint | string, coin: CoinName) => Number(unitsToDecimal(BigInt(units), COINS[coin].decimals));

function toTransaction(t: RecordTransferRow, coin: CoinName): Transaction {
  const network = COINS[coin].network;
  return {
    amount: coins(t.amount, coin),
    toAddress: t.toAddress,
    id: t.txId,
    confirmations: t.confirmations,
    blockNumber: t.blockNumber,
    ...(network ? { network } : {}),
    fromAddress: t.fromAddress,
    tokenName: coin,
  };
}

/**
 * `platformCryptoCharge` (native coins and tokens) or `contractCharge` (CONTRACT_* coins) of the
 * Payment record. `transaction` is the first transfer still standing; dropped transfers are not
 * listed.
 */
export function chargeRecord(
  status: PaymentStatus,
  charge: RecordChargeRow,
  transfers: RecordTransferRow[],
): Pick<PaymentRecord, "platformCryptoCharge" | "contractCharge"> {
  const coin = charge.coin as CoinName;
  const standing = transfers.filter((t) => !t.dropped);
  const decision = decideStatus(detectionInput({ status }, charge, transfers));
  const base = {
    amount: coins(charge.quotedUnits, coin),
    coinName: coin,
    exchangeRate: Number(charge.exchangeRate),
    isUnderpaid: decision.isUnderpaid,
    address: charge.address,
    ...(standing.length ? { transaction: toTransaction(standing[0], coin) } : {}),
    walletName: charge.walletName,
  };
  if (charge.chargeType === "PLATFORM_CRYPTO") {
    return { platformCryptoCharge: { ...base, transactions: standing.map((t) => toTransaction(t, coin)) } };
  }
  return { contractCharge: base };
}
