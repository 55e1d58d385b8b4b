import type { Tx } from "@/db/client";
import { findBusiness } from "@/db/queries/businesses";
import { findCharge, listTransfers } from "@/db/queries/charges";
import { insertCustomerEmails } from "@/db/queries/customer-emails";
import type { Business, CustomerEmailKind, PaymentRow } from "@/db/schema";
import { unitsToDecimal } from "@/domain/amounts";
import { paymentNetworkOf } from "@/domain/assets";
import { COINS, type CoinName } from "@/domain/coins";
import type { EventType } from "@/domain/events";
import { DEFAULT_LOCALE, isLocale } from "@/domain/locales";
import { config } from "@/lib/config";
import { composeEmail, type EmailFacts } from "@/lib/emails/compose";
import { roundUpToShown } from "@/lib/rates/quote";
import { decideStatus } from "./detection";
import { detectionInput } from "./detection-input";

/** The events a customer is told of by e-mail, and which e-mail tells each. */
const KIND_OF_EVENT: Partial<Record<EventType, CustomerEmailKind>> = {
  PAYMENT_COMPLETED: "receipt",
  PAYMENT_PENDING: "detected",
  PAYMENT_UNDERPAID: "underpaid",
  PAYMENT_EXPIRED: "expired",
};


/** The domain of MAIL_FROM, which the Message-IDs are made under. */
function senderDomain(from: string): string {
  return /@([^>\s]+)>?\s*$/.exec(from)?.[1] ?? "localhost";
}

/** What the e-mail of `kind` tells about the payment as it stands after the change (its charge and transfers read now). */
async function factsOf(tx: Tx, payment: PaymentRow, business: Business, kind: CustomerEmailKind, at: Date): Promise<EmailFacts> {
  const cfg = config();
  const charge = await findCharge(tx, payment.id);
  let coin: EmailFacts["coin"] = null;
  let transaction: EmailFacts["transaction"] = null;
  if (charge) {
    const name = charge.coin as CoinName;
    const info = COINS[name];
    const transfers = await listTransfers(tx, payment.id);
    const d = decideStatus(detectionInput(payment, charge, transfers));
    coin = { symbol: info.symbol, paid: unitsToDecimal(d.seen, info.decimals), due: unitsToDecimal(roundUpToShown(d.due, info.decimals), info.decimals) };
    const latest = transfers.filter((t) => !t.dropped && !t.late).at(-1);
    if (latest?.txHash) {
      const explorer = cfg.mail.explorerTxUrls[paymentNetworkOf(name)];
      transaction = { hash: latest.txHash, url: explorer ? explorer.replaceAll("{txid}", encodeURIComponent(latest.txHash)) : null };
    }
  }
  return {
    kind,
    locale: isLocale(payment.customerLocale) ? payment.customerLocale : DEFAULT_LOCALE,
    merchant: business.displayName ?? business.name,
    paymentId: payment.id,
    amount: payment.endAmount,
    currency: payment.currency,
    coin,
    transaction,
    checkoutUrl: `${cfg.publicBaseUrl}/pay/${payment.id}`,
    at,
  };
}

/**
 * The customer e-mail outbox rows of status-change events, written in the change's transaction
 * (as the webhook outbox's): one per event whose kind tells the customer, when the payment has a
 * customer e-mail and its business has that kind on. The message is rendered now, in the
 * customer's language, and sent as written by lib/emails/send.ts. The idempotency key (payment,
 * kind, event) keeps an event from ever having two.
 */
export async function enqueueCustomerEmails(tx: Tx, events: { payment: PaymentRow; eventId: number; at: Date }[], type: EventType): Promise<void> {
  const kind = KIND_OF_EVENT[type];
  if (!kind) return;
  const told = events.filter((e) => e.payment.customerEmail);
  if (told.length === 0) return;
  const domain = senderDomain(config().mail.from);
  const businesses = new Map<number, Business | undefined>();
  const rows = [];
  for (const { payment, eventId, at } of told) {
    const businessId = payment.onBehalfOfBusinessId ?? payment.businessId;
    if (!businesses.has(businessId)) businesses.set(businessId, await findBusiness(tx, businessId));
    const business = businesses.get(businessId);
    if (!business?.emailNotifications[kind]) continue;
    const facts = await factsOf(tx, payment, business, kind, at);
    const key = `${payment.id}:${kind}:${eventId}`;
    rows.push({
      paymentId: payment.id,
      businessId,
      eventId,
      kind,
      idempotencyKey: key,
      messageId: `<${payment.id}.${kind}.${eventId}@${domain}>`,
      recipient: payment.customerEmail!,
      locale: facts.locale,
      ...composeEmail(facts),
      status: "pending" as const,
      nextAttemptAt: at,
      createdAt: at,
      updatedAt: at,
    });
  }
  await insertCustomerEmails(tx, rows);
}
