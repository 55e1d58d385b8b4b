import { COINS, type ChargeType, type Network } from "@/domain/coins";
import type { EventType } from "@/domain/events";
import type { PaymentStatus } from "@/domain/statuses";
import type { WatchedChain } from "@/domain/watched-chains";
import { isCoin } from "./format";

/**
 * The words the dashboard shows for the API's enum values. A merchant reads "Underpaid" and
 * "Tether (TRON)"; a developer looking for the value in a webhook or a list filter finds it
 * beside the words (`api`), as secondary text or a tooltip. A value the dashboard does not know
 * (a newer API's) is shown as it is, never hidden.
 */

export type Named = {
  /** What a merchant reads. */
  label: string;
  /** The value as the API writes it. */
  api: string;
  /** One sentence on what it means, where the label alone may not say. */
  hint?: string;
};

const unknown = (api: string): Named => ({ label: api, api });

const STATUSES: Record<PaymentStatus, Omit<Named, "api">> = {
  AWAITING_PAYMENT: { label: "Awaiting payment", hint: "Nothing has arrived yet." },
  PENDING: { label: "Confirming", hint: "Money has arrived and waits for the chain's confirmations." },
  PROCESSING: { label: "Settling", hint: "Confirmed; the payment is being settled." },
  UNDERPAID: { label: "Underpaid", hint: "Less than the amount due has arrived and been confirmed." },
  COMPLETED: { label: "Completed", hint: "Paid in full and settled." },
  FAILED: { label: "Failed", hint: "Every transfer was dropped from the chain." },
  CANCELLED: { label: "Cancelled", hint: "The customer or the merchant cancelled it." },
  EXPIRED: { label: "Expired", hint: "The time to pay ran out." },
};

export function statusName(status: string): Named {
  const known = STATUSES[status as PaymentStatus];
  return known ? { ...known, api: status } : unknown(status);
}

const EVENTS: Record<EventType | "WEBHOOK_TEST", string> = {
  PAYMENT_CREATED: "Payment created",
  PAYMENT_METHOD_SELECTED: "Coin chosen",
  PAYMENT_PENDING: "Payment confirming",
  PAYMENT_PROCESSING: "Payment settling",
  PAYMENT_UNDERPAID: "Payment underpaid",
  PAYMENT_COMPLETED: "Payment completed",
  PAYMENT_FAILED: "Payment failed",
  PAYMENT_EXPIRED: "Payment expired",
  PAYMENT_CANCELLED: "Payment cancelled",
  WEBHOOK_TEST: "Test event",
};

/** A webhook's event kind. */
export function eventName(eventType: string): Named {
  const label = EVENTS[eventType as keyof typeof EVENTS];
  return label ? { label, api: eventType } : unknown(eventType);
}

const DELIVERY_STATES: Record<string, Omit<Named, "api">> = {
  pending: { label: "Sending", hint: "Not delivered yet; retried on schedule." },
  succeeded: { label: "Delivered", hint: "The endpoint answered with a 2xx status." },
  failed: { label: "Failed", hint: "Every scheduled attempt failed; redeliver it by hand." },
};

/** A webhook delivery's state. */
export function deliveryStateName(state: string): Named {
  const known = DELIVERY_STATES[state];
  return known ? { ...known, api: state } : unknown(state);
}

const CHARGE_TYPES: Record<ChargeType, Omit<Named, "api">> = {
  PLATFORM_CRYPTO: { label: "Crypto to a deposit address", hint: "The customer sends coins to an address made for this payment." },
  CONTRACT_CRYPTO: { label: "Ethereum contract payment" },
  CONTRACT_TRX: { label: "TRON contract payment" },
  NONE: { label: "No coin chosen" },
};

/** A payment method (charge type): `selectedPaymentMethod`, the keys of `paymentMethods`. */
export function chargeTypeName(type: string): Named {
  const known = CHARGE_TYPES[type as ChargeType];
  return known ? { ...known, api: type } : unknown(type);
}

/** A coin by the catalogue's name (domain/coins.ts): "Tether (TRON)", with its symbol as the hint. */
export function coinName(coin: string): Named {
  return isCoin(coin) ? { label: COINS[coin].name, api: coin, hint: COINS[coin].symbol } : unknown(coin);
}

const NETWORKS: Record<Network, string> = {
  BTC: "Bitcoin",
  LTC: "Litecoin",
  ETHEREUM: "Ethereum",
  TRON: "TRON",
  SOLANA: "Solana",
};

/**
 * The network a transfer was made on. The API's `network` says BTC for Bitcoin Cash (the spec
 * has no value of its own for it), so the coin, when known, names the network first.
 */
export function networkName(network: string | null | undefined, coin?: string | null): Named | null {
  if (coin === "BITCOIN_CASH") return { label: "Bitcoin Cash", api: network ?? coin };
  if (coin === "MONERO") return { label: "Monero", api: network ?? coin };
  if (coin === "TON") return { label: "TON", api: network ?? coin };
  if (!network) return null;
  const label = NETWORKS[network as Network];
  return label ? { label, api: network } : unknown(network);
}

const CHAINS: Record<WatchedChain, string> = {
  BITCOIN: "Bitcoin",
  LITECOIN: "Litecoin",
  BITCOIN_CASH: "Bitcoin Cash",
  ETHEREUM: "Ethereum",
  TRON: "TRON",
  SOLANA: "Solana",
  MONERO: "Monero",
  TON: "TON",
};

/** A chain the service watches (lib/chains/health.ts). */
export function chainName(chain: string): Named {
  const label = CHAINS[chain as WatchedChain];
  return label ? { label, api: chain } : unknown(chain);
}

const CHAIN_STATES: Record<string, Omit<Named, "api">> = {
  healthy: { label: "Following the chain", hint: "New blocks are read as they come." },
  starting: { label: "Starting", hint: "The watcher has not read the chain yet." },
  failing: { label: "Not following", hint: "The watcher has not read the chain for over a minute, or its node answers with errors." },
  stalled: { label: "Stalled", hint: "The node has shown no new block for longer than the chain ever takes." },
  "not configured": { label: "Not set up", hint: "No node is configured for this chain." },
};

/** A watched chain's state (ChainHealth.state). */
export function chainStateName(state: string): Named {
  const known = CHAIN_STATES[state];
  return known ? { ...known, api: state } : unknown(state);
}

const RATE_SOURCES: Record<string, string> = {
  providers: "Market prices",
  "rates-file": "A pinned rates file",
  "static-table": "The built-in test table",
};

/** Where quotes take their exchange rates from (RatesReport.source). */
export function rateSourceName(source: string): Named {
  const label = RATE_SOURCES[source];
  return label ? { label, api: source } : unknown(source);
}
