import type { PaymentDetails, RecordChargeRow, RecordTransferRow } from "@/db/queries/payments-read";
import { unitsToDecimal } from "@/domain/amounts";
import { COINS, type CoinName } from "@/domain/coins";
import { decideStatus } from "@/lib/payments/detection";
import { detectionInput } from "@/lib/payments/detection-input";
import { toJsonNumber } from "@/domain/decimal";
import type { PaymentRecord } from "./schemas";
import type { PaymentStatus } from "@/domain/statuses";

/*
 * The one definition of the merchant-facing Payment record (PaymentSchema): fetch, note, the
 * simulator's answers, every webhook body (lib/webhooks/payload.ts maps this record to
 * PascalCase) and PGlite's list pages are built here from stored rows. PostgreSQL's list pages
 * are written by the database (db/queries/payment-records-sql.ts), held to this builder field
 * by field for every shape a record takes by test/payments-list-records.test.ts;
 * test/payments-record.test.ts parses this builder's output with PaymentSchema for every such
 * shape.
 */

type Transaction = NonNullable<NonNullable<PaymentRecord["platformCryptoCharge"]>["transaction"]>;

/** Coin amounts leave the service as JSON numbers of whole coins (the spec's types). */
const coins = (units: bigint | string, coin: CoinName) => Number(unitsToDecimal(BigInt(units), COINS[coin].decimals));

/**
 * One on-chain transaction as the record shows it: `id` is its hash (what an explorer finds), and
 * `amount` everything it paid to the charge's address. `group` holds the transaction's standing
 * transfers, oldest first: a transaction paying the address in two outputs (or two token logs) is
 * recorded as two transfers, each once by its own identity, and shown as one transaction
 * (docs/decisions.md, "A Transaction is an on-chain transaction"). Its other fields are the first
 * transfer's; they are the transaction's own, the same for each of its transfers.
 */
function toTransaction(group: RecordTransferRow[], coin: CoinName): Transaction {
  const [t] = group;
  const network = COINS[coin].network;
  return {
    amount: coins(group.reduce((sum, g) => sum + BigInt(g.amount), 0n), coin),
    toAddress: t.toAddress,
    id: t.txHash,
    confirmations: t.confirmations,
    blockNumber: t.blockNumber,
    ...(network ? { network } : {}),
    fromAddress: t.fromAddress,
    tokenName: coin,
  };
}

/** The standing (not dropped) transfers as transactions, in the order each transaction was first recorded. */
function transactionsOf(transfers: RecordTransferRow[], coin: CoinName): Transaction[] {
  const byHash = new Map<string, RecordTransferRow[]>();
  for (const t of transfers) {
    if (t.dropped) continue;
    const group = byHash.get(t.txHash);
    if (group) group.push(t);
    else byHash.set(t.txHash, [t]);
  }
  return [...byHash.values()].map((group) => toTransaction(group, coin));
}

/**
 * `platformCryptoCharge` (native coins and tokens) or `contractCharge` (CONTRACT_* coins).
 * `transaction` is the first transaction still standing; dropped transfers are not listed.
 * `isUnderpaid` is the detection's own verdict on the transfers (late ones never count).
 */
function chargePart(
  status: PaymentStatus,
  charge: RecordChargeRow,
  transfers: RecordTransferRow[],
): Pick<PaymentRecord, "platformCryptoCharge" | "contractCharge"> {
  const coin = charge.coin as CoinName;
  const standing = transactionsOf(transfers, coin);
  const decision = decideStatus(detectionInput({ status }, charge, transfers));
  const base = {
    amount: coins(charge.quotedUnits, coin),
    coinName: coin,
    exchangeRate: Number(charge.exchangeRate),
    isUnderpaid: decision.isUnderpaid,
    address: charge.address,
    ...(standing.length ? { transaction: standing[0] } : {}),
    walletName: charge.walletName,
  };
  if (charge.chargeType === "PLATFORM_CRYPTO") {
    return { platformCryptoCharge: { ...base, transactions: standing } };
  }
  return { contractCharge: base };
}

/**
 * The Payment record of a payment's stored rows: required fields always present, optional ones
 * only when they apply (decisions.md, "Fetch, list, note"), nothing else (no business id, coins,
 * URLs or internal columns). The charge is shown only once a coin is selected.
 */
export function paymentRecord({ payment: p, customer, charge }: PaymentDetails): PaymentRecord {
  const record: PaymentRecord = {
    id: p.id,
    name: p.name,
    description: p.description,
    endAmount: Number(p.endAmount),
    prePaymentAmount: Number(p.amount),
    currency: p.currency,
    status: p.status,
    createdAt: p.createdAt.toISOString(),
    expiresAt: p.expiresAt.toISOString(),
    timeline: p.timeline,
    metadata: p.metadata ?? null,
    platformFee: toJsonNumber(p.platformFee),
    note: p.note,
  };
  if (customer) {
    record.customer = {
      id: customer.id,
      email: customer.email,
      ipAddresses: customer.ips.map((ip) => ({
        city: ip.city,
        ip: ip.ip,
        country: ip.country,
        riskScore: ip.riskScore,
        connectionType: ip.connectionType as "Unknown",
        isp: ip.isp,
        dateCreated: ip.createdAt.toISOString(),
      })),
    };
  }
  if (p.selectedPaymentMethod) record.selectedPaymentMethod = p.selectedPaymentMethod as PaymentRecord["selectedPaymentMethod"];
  if (charge && p.selectedCoin !== null) Object.assign(record, chargePart(p.status, charge.charge, charge.transfers));
  if (p.onBehalfOfBusinessId !== null) record.onBehalfOfBusinessId = p.onBehalfOfBusinessId;
  if (p.netAmountUsd !== null) record.netAmountUsd = Number(p.netAmountUsd);
  return record;
}
