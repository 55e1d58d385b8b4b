import { randomUUID } from "node:crypto";
import type { Db } from "@/db/client";
import { insertPaymentWithCustomer } from "@/db/queries/payments-write";
import { announceEvent } from "./state-machine";
import type { Business } from "@/db/schema";
import type { CoinName } from "@/domain/coins";
import { addressSourceProblem, hasAddressSource, withWalletSources, type WalletSources } from "@/lib/payments/address-source";
import { config } from "@/lib/config";
import { ipLocationColumns } from "@/lib/geo/ip-location";
import { ApiError, invalidField } from "@/lib/http/errors";
import { webhookUrlProblem } from "@/lib/http/url-safety";
import { claimIdempotencyKey, findIdempotencyKey } from "@/db/queries/idempotency";
import { decimalOf } from "@/domain/decimal";
import { webhookTargets } from "@/lib/payments/outbox";
import { listEndpoints } from "@/db/queries/webhook-endpoints";
import type { CreatePaymentRequest } from "./schemas";
import { inTransaction } from "@/db/transaction";

export type CreateResult = { id: string; url: string };

/** The coins `paymentMethods` names, each once, in its order. */
function requestedCoins(methods: NonNullable<CreatePaymentRequest["paymentMethods"]>): CoinName[] {
  return [...new Set([methods.PLATFORM_CRYPTO, methods.CONTRACT_CRYPTO, methods.CONTRACT_TRX].flatMap((l) => l ?? []))] as CoinName[];
}

/**
 * D8: the business's enabled coins that it has an address source for, narrowed by
 * `paymentMethods` when given.
 */
export function offeredCoins(business: Business & WalletSources, methods: CreatePaymentRequest["paymentMethods"]): CoinName[] {
  const enabled = (business.enabledCoins as CoinName[]).filter((c) => hasAddressSource(business, c));
  if (!methods) return enabled;
  const allowed = new Set<string>(requestedCoins(methods));
  return enabled.filter((c) => allowed.has(c));
}

/**
 * Why no coin is left to offer: each coin considered (the requested ones, else the enabled ones)
 * with the reason it is not offered, coins with the same reason together, so the merchant sees
 * what to change ("BITCOIN: no Bitcoin node is configured (BITCOIN_RPC_URL)").
 */
function noCoinProblem(business: Business & WalletSources, methods: CreatePaymentRequest["paymentMethods"]): string {
  const enabled = new Set<string>(business.enabledCoins);
  const considered = methods ? requestedCoins(methods) : (business.enabledCoins as CoinName[]);
  if (considered.length === 0) return "names no coin: name at least one coin this business has enabled";
  const byReason = new Map<string, CoinName[]>();
  for (const coin of considered) {
    const why = enabled.has(coin) ? addressSourceProblem(business, coin) : "not enabled for this business (enabledCoins)";
    if (why) byReason.set(why, [...(byReason.get(why) ?? []), coin]);
  }
  const reasons = [...byReason].map(([why, coins]) => `${coins.join(", ")}: ${why}`).join("; ");
  return `${methods ? "none of the requested coins" : "none of this business's enabled coins"} can be offered: ${reasons}`;
}

export function checkoutUrl(paymentId: string): string {
  return `${config().publicBaseUrl}/pay/${paymentId}`;
}

export type Idempotency = { key: string; requestHash: string };

/**
 * Creates the payment, its customer and its PAYMENT_CREATED event in one transaction. With an
 * idempotency key (D13) the key is claimed in that same transaction, so two identical requests
 * racing each other create one payment and both get its result.
 */
export async function createPayment(
  db: Db,
  business: Business,
  body: CreatePaymentRequest,
  idempotency?: Idempotency,
): Promise<CreateResult> {
  // D7 for a test business in production (a live one's URLs are checked by its schema).
  const notifyProblem = body.notifyUrl ? webhookUrlProblem(body.notifyUrl, business.mode) : null;
  if (notifyProblem) throw invalidField("notifyUrl", notifyProblem);
  const sources = await withWalletSources(db, business);
  const coins = offeredCoins(sources, body.paymentMethods);
  if (coins.length === 0) throw invalidField("paymentMethods", noCoinProblem(sources, body.paymentMethods));
  const id = randomUUID();
  const now = new Date();
  const expiresAt = new Date(now.getTime() + business.paymentLifetimeSeconds * 1000);
  const amount = decimalOf(body.amount).toFixed();
  // D9: where the customer's address is, looked up once here and stored with it.
  const location = await ipLocationColumns(body.customerIp ?? null);
  // A sub-business's payments belong to its parent's account, made on the sub-business's behalf.
  const accountId = business.parentBusinessId ?? business.id;
  // The endpoints are read once, before: whether there is any decides whether a transaction is needed.
  const endpoints = body.notifyUrl ? [] : await listEndpoints(db, business.id);

  const result = { id, url: checkoutUrl(id) };
  const write = async (tx: Db): Promise<CreateResult> => {
    if (idempotency) {
      // The response is known before the payment exists, so it is stored with the claim.
      const owned = await claimIdempotencyKey(tx, { businessId: business.id, ...idempotency, createdAt: now }, result);
      if (!owned) return replay(tx, business.id, idempotency);
    }
    const { payment, eventId } = await insertPaymentWithCustomer(
      tx,
      {
        id,
        businessId: accountId,
        onBehalfOfBusinessId: business.parentBusinessId !== null ? business.id : null,
        name: body.name ?? null,
        description: body.description ?? null,
        currency: body.currency,
        amount,
        endAmount: amount,
        status: "AWAITING_PAYMENT",
        offeredCoins: coins,
        paymentMethods: body.paymentMethods ?? null,
        metadata: body.metadata ?? null,
        feeTransfers: body.feeTransfers ?? null,
        redirectUrl: body.redirectUrl ?? null,
        notifyUrl: body.notifyUrl ?? null,
        customerIp: body.customerIp ?? null,
        customerUserAgent: body.customerUserAgent ?? null,
        timeline: [{ time: now.toISOString(), paymentStatus: "AWAITING_PAYMENT" }],
        createdAt: now,
        expiresAt,
        updatedAt: now,
      },
      {
        businessId: business.id,
        email: body.customerEmail ?? null,
        ip: body.customerIp ?? null,
        userAgent: body.customerUserAgent ?? null,
        location,
      },
    );
    await announceEvent(tx, payment, eventId, "PAYMENT_CREATED", now, { business, endpoints });
    return result;
  };
  // The payment, customer and event are one statement, atomic on its own. A transaction is
  // needed only to tie more to it: the idempotency claim, or the webhook outbox row (whose body
  // is built from the stored payment).
  const targeted = webhookTargets(body.notifyUrl, endpoints, "PAYMENT_CREATED").length > 0;
  return idempotency || targeted ? inTransaction(db, write) : write(db);
}

async function replay(tx: Db, businessId: number, idempotency: Idempotency): Promise<CreateResult> {
  const stored = await findIdempotencyKey(tx, businessId, idempotency.key);
  if (!stored || stored.requestHash !== idempotency.requestHash) {
    throw new ApiError(
      "idempotency-conflict",
      409,
      "This Idempotency-Key was already used with a different request body; use a new key for a new payment.",
    );
  }
  return stored.responseBody as CreateResult;
}
