import type { Db } from "@/db/client";
import { findBusiness } from "@/db/queries/businesses";
import { findCharge, listTransfers } from "@/db/queries/charges";
import { findPaymentById } from "@/db/queries/payments-read";
import { unitsToDecimal } from "@/domain/amounts";
import { COINS, type CoinName } from "@/domain/coins";
import { decideStatus } from "@/lib/payments/detection";
import { paymentUri, type EvmTarget } from "@/lib/wallets/payment-uri";
import { isErc20Coin, isTrc20Coin } from "@/domain/token-contracts";
import { chainsHealth, liveCoinsOf, type ChainHealth } from "@/lib/chains/health";
import { tokenContractsOn, trc20ContractsOn } from "@/domain/watched-chains";
import { roundUpToShown, unquotableCoins } from "@/lib/rates/quote";
import { assetNameOf, NETWORK_NAMES, paymentNetworkOf, tokenStandardOf } from "@/domain/assets";
import { config } from "@/lib/config";
import { detectionInput } from "@/lib/payments/detection-input";
import type { PaymentStatus } from "@/domain/statuses";
import { isTerminal } from "@/domain/transitions";
import type { Business } from "@/db/schema";
import { selectableCoins } from "./select";
import { solanaTransferRequest } from "./solana-request";
import { tonTransferRequest } from "./ton-request";
import { brandOf, displayNameOf } from "@/lib/businesses/brand";
import { withWalletSources } from "@/lib/payments/address-source";

/**
 * What the customer's browser may see of a payment: display name, amount, status, the coins
 * offered and the charge. Never `description`, `note`, `metadata`, business settings or keys
 * (D8), beyond the brand the merchant set for customers to see — the page and the polling
 * endpoint both render only this object.
 */
export type CheckoutView = {
  id: string;
  /** The payment's own name (what is paid for), or null. */
  name: string | null;
  /** Who is paid: the business's display name (its name when none is set), its logo's address and accent colour. */
  merchant: { displayName: string; logoUrl: string | null; accentColor: string | null };
  amount: string;
  currency: string;
  status: PaymentStatus;
  createdAt: string;
  expiresAt: string;
  testMode: boolean;
  redirectUrl: string | null;
  needsEmail: boolean;
  /** Whether a receipt will be e-mailed (an SMTP server is configured and the business sends receipts): the e-mail field promises one only then. */
  sendsReceipt: boolean;
  canCancel: boolean;
  /** `available`: false while no fresh exchange rate can quote the coin (shown, but not selectable). */
  coins: { coin: CoinName; name: string; symbol: string; network: string | null; available: boolean }[];
  charge: null | {
    coin: CoinName;
    /** The asset as customers know it ("Tether"); the network is beside it. */
    name: string;
    symbol: string;
    /** The network to send on, as wallets name it ("TRON", "Bitcoin Cash"), and the token standard there ("TRC-20") or null. */
    networkName: string;
    standard: string | null;
    /** Whole coins, exactly the quoted base units: at most 8 decimals (lib/rates/quote.ts). */
    amount: string;
    exchangeRate: string;
    /** When the quote was made (ISO; choosing again makes a new one). */
    quotedAt: string;
    /** When the rate's inputs were read (ISO), or null when the charge predates recording it. */
    rateAt: string | null;
    address: string;
    uri: string;
    /** A Solana Pay transfer request (`uri` carries the payment's reference): a transfer sent by hand without it is matched by amount only. */
    transferRequest: boolean;
    /** A live token charge's contract (ERC-20 or TRC-20) or mint (SPL): the one token the watcher counts, for the customer to check in the wallet. */
    tokenContract: string | null;
    /** A live TON charge's comment: the payer's wallet must send it with the money, or the payment is not matched (it waits for the merchant's review). */
    comment: string | null;
    paid: string;
    /** What is still due, rounded up to the amount's precision so it can be typed; a wallet sending it leaves nothing due. */
    due: string;
    isUnderpaid: boolean;
    confirmations: number;
    requiredConfirmations: number;
    /** Whether a transfer's sender locked its money (Monero's unlock_time): it never completes on its own. */
    held: boolean;
    transfers: number;
    /** Money received after the payment closed (in coins), or null: recorded, but it changes nothing. */
    late: string | null;
  };
};

/**
 * The EVM chain a live charge is paid on (its chain id and the token's contract there), for the
 * wallet link; test businesses' links name Ethereum mainnet, as their addresses are simulated.
 */
function evmTarget(health: readonly ChainHealth[], business: Business, coin: CoinName): EvmTarget | undefined {
  if (business.mode !== "live" || COINS[coin].network !== "ETHEREUM") return undefined;
  const chainId = health.find((h) => h.chain === "ETHEREUM")?.chainId ?? 1;
  const tokenContract = isErc20Coin(coin) ? tokenContractsOn(chainId, config().chains.tokenContracts)[coin] : undefined;
  return { chainId, tokenContract };
}

/** The contract a live business's token charge is paid through on its chain's network, or null (a coin, or a test business). */
function tokenContractOf(health: readonly ChainHealth[], business: Business, coin: CoinName): string | null {
  if (business.mode !== "live") return null;
  if (isErc20Coin(coin)) return evmTarget(health, business, coin)?.tokenContract ?? null;
  const tronChainId = health.find((h) => h.chain === "TRON")?.chainId;
  if (!isTrc20Coin(coin) || tronChainId == null) return null;
  return trc20ContractsOn(tronChainId, config().chains.tron.tokenContracts)[coin] ?? null;
}

const trimZeros = (s: string) => (s.includes(".") ? s.replace(/0+$/, "").replace(/\.$/, "") : s);

export async function checkoutView(db: Db, paymentId: string): Promise<CheckoutView | null> {
  const payment = await findPaymentById(db, paymentId);
  if (!payment) return null;
  const business = await findBusiness(db, payment.onBehalfOfBusinessId ?? payment.businessId);
  if (!business) return null;
  const [charge, transfers] = await Promise.all([findCharge(db, paymentId), listTransfers(db, paymentId)]);
  // Live businesses are paid on real chains: which are healthy, on which network (test ones: the simulated chain).
  const health = business.mode === "live" ? await chainsHealth(db) : [];
  let chargeView: CheckoutView["charge"] = null;
  if (charge) {
    const coin = charge.coin as CoinName;
    const info = COINS[coin];
    const d = decideStatus(detectionInput(payment, charge, transfers));
    const pending = transfers.filter((t) => !t.dropped && !t.late);
    const late = transfers.filter((t) => !t.dropped && t.late).reduce((sum, t) => sum + BigInt(t.amount), 0n);
    const due = roundUpToShown(d.due, info.decimals);
    const solana = await solanaTransferRequest(db, { payment, business, coin, address: charge.address, units: due > 0n ? due : BigInt(charge.quotedUnits), health });
    const ton = await tonTransferRequest(db, { payment, business, coin, address: charge.address, units: due > 0n ? due : BigInt(charge.quotedUnits), health });
    chargeView = {
      coin,
      name: assetNameOf(info.symbol),
      symbol: info.symbol,
      networkName: NETWORK_NAMES[paymentNetworkOf(coin)],
      standard: tokenStandardOf(coin),
      amount: unitsToDecimal(BigInt(charge.quotedUnits), info.decimals),
      exchangeRate: trimZeros(charge.exchangeRate),
      quotedAt: charge.updatedAt.toISOString(),
      rateAt: charge.rateFetchedAt?.toISOString() ?? null,
      address: charge.address,
      // After a partial payment the wallet link asks for what is still due.
      uri: solana?.uri ?? ton?.uri ?? paymentUri(coin, charge.address, due > 0n ? due : BigInt(charge.quotedUnits), evmTarget(health, business, coin), { recipient: displayNameOf(business), description: payment.name ?? undefined }),
      transferRequest: solana !== null,
      tokenContract: solana ? solana.mint : ton ? ton.master : tokenContractOf(health, business, coin),
      comment: ton?.comment ?? null,
      paid: unitsToDecimal(d.seen, info.decimals),
      due: unitsToDecimal(due, info.decimals),
      isUnderpaid: d.isUnderpaid,
      // A held transfer (locked by its sender) counts as unconfirmed, as detection counts it.
      confirmations: pending.length ? Math.min(...pending.map((t) => (t.held ? 0 : t.confirmations))) : 0,
      // Money its sender locked never completes on its own: the customer is told to see the merchant.
      held: pending.some((t) => Boolean(t.held)),
      requiredConfirmations: charge.requiredConfirmations,
      transfers: pending.length,
      late: late > 0n ? unitsToDecimal(late, info.decimals) : null,
    };
  }
  const offered = selectableCoins(payment, await withWalletSources(db, business), liveCoinsOf(health));
  // While a coin can still be chosen (or changed), coins no fresh rate can price are shown as temporarily unavailable.
  const choosable = payment.status === "AWAITING_PAYMENT" && transfers.length === 0;
  const unquotable = choosable ? await unquotableCoins(db, business, offered, payment.currency) : new Set<CoinName>();
  return {
    id: payment.id,
    name: payment.name,
    merchant: brandOf(business),
    amount: trimZeros(payment.amount),
    currency: payment.currency,
    status: payment.status,
    createdAt: payment.createdAt.toISOString(),
    expiresAt: payment.expiresAt.toISOString(),
    testMode: business.mode === "test",
    redirectUrl: payment.redirectUrl,
    needsEmail: !payment.customerEmail && !isTerminal(payment.status),
    sendsReceipt: config().mail.smtpUrl !== undefined && business.emailNotifications.receipt,
    canCancel: payment.status === "AWAITING_PAYMENT" && transfers.length === 0,
    coins: offered.map((c) => ({
      coin: c,
      name: COINS[c].name,
      symbol: COINS[c].symbol,
      network: COINS[c].network,
      available: !unquotable.has(c),
    })),
    charge: chargeView,
  };
}
