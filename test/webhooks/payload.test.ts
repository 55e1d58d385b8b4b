import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { cancelPayment } from "@/lib/checkout/cancel";
import { expirePaymentIfDue } from "@/lib/payments/expiry";
import { createPayment, newBusiness } from "../helpers";
import { drain, oneWebhookFileAtATime, receivers, restPayment, sim, verifyHit, type Receiver } from "./support";

/**
 * The spec's "Payload" section: PascalCase names, every field present, and values equal to the
 * REST fetch of the same payment at the moment of the event. The expected body is built here
 * from the REST record by the spec's table, independently of lib/webhooks/payload.ts.
 */
oneWebhookFileAtATime();
const receiver = receivers();

const FOR_PAYMENT_EVENTS = [
  "Id", "BusinessId", "Name", "Description", "EndAmount", "PrePaymentAmount", "Currency", "Status", "CreatedAt",
  "ExpiresAt", "Timeline", "Customer", "Metadata", "SelectedPaymentMethod", "PlatformCryptoCharge", "ContractCharge",
  "PlatformFee", "RedirectUrl",
];
const CHARGE = ["Amount", "CoinName", "ExchangeRate", "IsUnderpaid", "Address", "Transaction", "WalletName"];
const TRANSACTION = ["Amount", "ToAddress", "Id", "Confirmations", "BlockNumber", "Network", "FromAddress", "TokenName"];
const IP = ["City", "Ip", "Country", "RiskScore", "ConnectionType", "ISP", "DateCreated"];

type Rest = Record<string, any>;

function txOf(t: Rest | undefined) {
  if (!t) return null;
  return {
    Amount: t.amount,
    ToAddress: t.toAddress,
    Id: t.id,
    Confirmations: t.confirmations,
    BlockNumber: t.blockNumber ?? null,
    Network: t.network ?? null,
    FromAddress: t.fromAddress ?? null,
    TokenName: t.tokenName ?? null,
  };
}

function chargeOf(c: Rest | undefined) {
  if (!c) return null;
  return {
    Amount: c.amount,
    CoinName: c.coinName,
    ExchangeRate: c.exchangeRate,
    IsUnderpaid: c.isUnderpaid,
    Address: c.address,
    Transaction: txOf(c.transaction),
    WalletName: c.walletName,
  };
}

/** The spec's webhook body for `rest` (the REST Payment record), by the spec's field table. */
function expectedBody(eventType: string, rest: Rest, businessId: number, redirectUrl: string | null) {
  return {
    EventType: eventType,
    ForPaymentEvents: {
      Id: rest.id,
      BusinessId: businessId,
      Name: rest.name,
      Description: rest.description,
      EndAmount: rest.endAmount,
      PrePaymentAmount: rest.prePaymentAmount,
      Currency: rest.currency,
      Status: rest.status,
      CreatedAt: rest.createdAt,
      ExpiresAt: rest.expiresAt,
      Timeline: rest.timeline.map((t: Rest) => ({ Time: t.time, PaymentStatus: t.paymentStatus })),
      Customer: rest.customer
        ? {
            Id: rest.customer.id,
            Email: rest.customer.email,
            IpAddresses: (rest.customer.ipAddresses ?? []).map((ip: Rest) => ({
              City: ip.city,
              Ip: ip.ip,
              Country: ip.country,
              RiskScore: ip.riskScore,
              ConnectionType: ip.connectionType,
              ISP: ip.isp,
              DateCreated: ip.dateCreated,
            })),
          }
        : null,
      Metadata: rest.metadata ?? null,
      SelectedPaymentMethod: rest.selectedPaymentMethod ?? null,
      PlatformCryptoCharge: chargeOf(rest.platformCryptoCharge),
      ContractCharge: chargeOf(rest.contractCharge),
      PlatformFee: rest.platformFee ?? null,
      RedirectUrl: redirectUrl,
    },
  };
}

/** Every key of every object in the body starts with a capital letter, except Metadata's own keys. */
function expectPascalCase(value: unknown, path = "$") {
  if (Array.isArray(value)) return value.forEach((v, i) => expectPascalCase(v, `${path}[${i}]`));
  if (value === null || typeof value !== "object") return;
  for (const [k, v] of Object.entries(value)) {
    expect(k, `${path}.${k}`).toMatch(/^[A-Z][A-Za-z]*$/);
    if (k !== "Metadata") expectPascalCase(v, `${path}.${k}`);
  }
}

/** Delivers what is due and returns the one new body the receiver got, verified with svix. */
async function nextBody(r: Receiver, secret: string, eventType: string, clock?: () => Date) {
  const before = r.hits.length;
  await drain(clock);
  const fresh = r.hits.slice(before);
  expect(fresh.map((h) => JSON.parse(h.body).EventType)).toEqual([eventType]);
  const body = verifyHit(secret, fresh[0]);
  expect(body).toEqual(JSON.parse(fresh[0].body));
  expectPascalCase(body);
  expect(Object.keys(body)).toEqual(["EventType", "ForPaymentEvents"]);
  expect(Object.keys(body.ForPaymentEvents).sort()).toEqual([...FOR_PAYMENT_EVENTS].sort());
  return body as { EventType: string; ForPaymentEvents: Rest };
}

const REQUEST = {
  currency: "EUR",
  amount: 42.5,
  name: "Blue T-shirt",
  description: "internal: order 1001, size M",
  customerEmail: "ada@example.com",
  customerIp: "81.2.69.142",
  customerUserAgent: "Mozilla/5.0 (X11; Linux x86_64)",
  redirectUrl: "https://shop.example/thanks?order=1001",
  metadata: { orderId: "1001", channel: "web" },
};

describe("webhook payload", () => {
  it("every spec field, PascalCase, equal to the REST record at each event of a paid payment", async () => {
    const r = await receiver();
    const b = await newBusiness({ webhookUrl: r.url, feePercent: 1.5 });
    const { id } = await createPayment(b, REQUEST);

    const created = await nextBody(r, b.webhookSecret, "PAYMENT_CREATED");
    let rest = await restPayment(b, id);
    expect(created).toEqual(expectedBody("PAYMENT_CREATED", rest, b.businessId, REQUEST.redirectUrl));
    const p = created.ForPaymentEvents;
    // Spot checks against the request itself, so a shared mistake in REST and webhook shows too.
    expect(p).toMatchObject({
      Id: id,
      BusinessId: b.businessId,
      Name: "Blue T-shirt",
      Description: REQUEST.description,
      EndAmount: 42.5,
      PrePaymentAmount: 42.5,
      Currency: "EUR",
      Status: "AWAITING_PAYMENT",
      Metadata: REQUEST.metadata,
      SelectedPaymentMethod: null,
      PlatformCryptoCharge: null,
      ContractCharge: null,
      PlatformFee: null,
      RedirectUrl: REQUEST.redirectUrl,
    });
    expect(new Date(p.ExpiresAt).getTime() - new Date(p.CreatedAt).getTime()).toBe(3600_000);
    expect(p.Timeline).toEqual([{ Time: p.CreatedAt, PaymentStatus: "AWAITING_PAYMENT" }]);
    expect(p.Customer.Email).toBe("ada@example.com");
    expect(typeof p.Customer.Id).toBe("number");
    expect(p.Customer.IpAddresses).toHaveLength(1);
    expect(Object.keys(p.Customer.IpAddresses[0]).sort()).toEqual([...IP].sort());
    expect(p.Customer.IpAddresses[0].Ip).toBe("81.2.69.142");

    await sim(b, id, { action: "select", coin: "BITCOIN" });
    const selected = await nextBody(r, b.webhookSecret, "PAYMENT_METHOD_SELECTED");
    rest = await restPayment(b, id);
    expect(selected).toEqual(expectedBody("PAYMENT_METHOD_SELECTED", rest, b.businessId, REQUEST.redirectUrl));
    const charge = selected.ForPaymentEvents.PlatformCryptoCharge;
    expect(Object.keys(charge).sort()).toEqual([...CHARGE].sort());
    expect(charge).toMatchObject({ CoinName: "BITCOIN", IsUnderpaid: false, Transaction: null });
    expect(charge.Address).toMatch(/^bc1q/);
    expect(charge.Amount).toBeGreaterThan(0);
    expect(selected.ForPaymentEvents.SelectedPaymentMethod).toBe("PLATFORM_CRYPTO");

    await sim(b, id, { action: "pay" });
    const pending = await nextBody(r, b.webhookSecret, "PAYMENT_PENDING");
    rest = await restPayment(b, id);
    expect(pending).toEqual(expectedBody("PAYMENT_PENDING", rest, b.businessId, REQUEST.redirectUrl));
    const tx = pending.ForPaymentEvents.PlatformCryptoCharge.Transaction;
    expect(Object.keys(tx).sort()).toEqual([...TRANSACTION].sort());
    expect(tx).toMatchObject({ Amount: charge.Amount, ToAddress: charge.Address, Confirmations: 0, Network: "BTC", TokenName: "BITCOIN" });
    expect(tx.Id).toMatch(/^[0-9a-f]{64}$/);

    await sim(b, id, { action: "confirm" });
    const before = r.hits.length;
    await drain();
    const [processingHit, completedHit] = r.hits.slice(before);
    const processing = verifyHit(b.webhookSecret, processingHit);
    const completed = verifyHit(b.webhookSecret, completedHit);
    expect([processing.EventType, completed.EventType]).toEqual(["PAYMENT_PROCESSING", "PAYMENT_COMPLETED"]);
    rest = await restPayment(b, id);
    expect(completed).toEqual(expectedBody("PAYMENT_COMPLETED", rest, b.businessId, REQUEST.redirectUrl));
    expect(completed.ForPaymentEvents.PlatformFee).toBeCloseTo(completed.ForPaymentEvents.EndAmount * 0.015, 2);
    expect(completed.ForPaymentEvents.PlatformCryptoCharge.Transaction.Confirmations).toBeGreaterThan(0);
    expect(completed.ForPaymentEvents.PlatformCryptoCharge.Transaction.BlockNumber).toMatch(/^\d+$/);

    // PROCESSING was the record one step earlier: the same payment before settlement was recorded.
    const atProcessing = {
      ...rest,
      status: "PROCESSING",
      timeline: rest.timeline.slice(0, -1),
      endAmount: rest.prePaymentAmount,
      platformFee: null,
    };
    expect(processing).toEqual(expectedBody("PAYMENT_PROCESSING", atProcessing, b.businessId, REQUEST.redirectUrl));
    expect(rest.timeline.map((t: Rest) => t.paymentStatus)).toEqual(["AWAITING_PAYMENT", "PENDING", "PROCESSING", "COMPLETED"]);
  });

  it("minimal payment: optional fields are null, not missing", async () => {
    const r = await receiver();
    const b = await newBusiness({ webhookUrl: r.url });
    const { id } = await createPayment(b);
    const body = await nextBody(r, b.webhookSecret, "PAYMENT_CREATED");
    expect(body).toEqual(expectedBody("PAYMENT_CREATED", await restPayment(b, id), b.businessId, null));
    expect(body.ForPaymentEvents).toMatchObject({ Name: null, Description: null, Metadata: null, RedirectUrl: null });
    expect(body.ForPaymentEvents.Customer).toMatchObject({ Email: null, IpAddresses: [] });
  });

  it("a CONTRACT_* coin fills ContractCharge (with its Transaction) and leaves PlatformCryptoCharge null", async () => {
    const r = await receiver();
    const b = await newBusiness({ webhookUrl: r.url, enabledCoins: ["BITCOIN", "CONTRACT_ERC20_USDT"] });
    const { id } = await createPayment(b, { currency: "USD", amount: 25, paymentMethods: { CONTRACT_CRYPTO: ["CONTRACT_ERC20_USDT"] } });
    await nextBody(r, b.webhookSecret, "PAYMENT_CREATED");
    await sim(b, id, { action: "select", coin: "CONTRACT_ERC20_USDT" });
    const selected = await nextBody(r, b.webhookSecret, "PAYMENT_METHOD_SELECTED");
    expect(selected).toEqual(expectedBody("PAYMENT_METHOD_SELECTED", await restPayment(b, id), b.businessId, null));
    expect(selected.ForPaymentEvents.SelectedPaymentMethod).toBe("CONTRACT_CRYPTO");
    expect(selected.ForPaymentEvents.PlatformCryptoCharge).toBeNull();
    expect(Object.keys(selected.ForPaymentEvents.ContractCharge).sort()).toEqual([...CHARGE].sort());
    expect(selected.ForPaymentEvents.ContractCharge.CoinName).toBe("CONTRACT_ERC20_USDT");

    await sim(b, id, { action: "pay", confirmations: 12 });
    const before = r.hits.length;
    await drain();
    const bodies = r.hits.slice(before).map((h) => verifyHit(b.webhookSecret, h));
    expect(bodies.map((x) => x.EventType)).toEqual(["PAYMENT_PROCESSING", "PAYMENT_COMPLETED"]);
    const completed = bodies[1];
    expect(completed).toEqual(expectedBody("PAYMENT_COMPLETED", await restPayment(b, id), b.businessId, null));
    const t = completed.ForPaymentEvents.ContractCharge.Transaction;
    expect(Object.keys(t).sort()).toEqual([...TRANSACTION].sort());
    expect(t).toMatchObject({ Confirmations: 12, Network: "ETHEREUM", TokenName: "CONTRACT_ERC20_USDT" });
    expect(t.ToAddress).toBe(completed.ForPaymentEvents.ContractCharge.Address);
  });

  it("UNDERPAID, EXPIRED, CANCELLED and FAILED bodies equal the REST record", async () => {
    const db = await getDb();
    const r = await receiver();
    const b = await newBusiness({ webhookUrl: r.url, paymentLifetimeSeconds: 5 });

    const under = await createPayment(b, { currency: "USD", amount: 100 });
    await nextBody(r, b.webhookSecret, "PAYMENT_CREATED");
    await sim(b, under.id, { action: "select", coin: "LITECOIN" });
    await nextBody(r, b.webhookSecret, "PAYMENT_METHOD_SELECTED");
    await sim(b, under.id, { action: "pay", amount: 0.001, confirmations: 6 });
    const underpaid = await nextBody(r, b.webhookSecret, "PAYMENT_UNDERPAID");
    expect(underpaid).toEqual(expectedBody("PAYMENT_UNDERPAID", await restPayment(b, under.id), b.businessId, null));
    expect(underpaid.ForPaymentEvents.PlatformCryptoCharge.IsUnderpaid).toBe(true);
    expect(underpaid.ForPaymentEvents.PlatformCryptoCharge.Transaction.Amount).toBe(0.001);
    // An underpaid payment that runs out of time expires.
    const later = Date.now() + 10_000;
    expect(await expirePaymentIfDue(db, under.id, new Date(later))).toBe(true);
    // The event happened at expiresAt (5 s after create, still ahead of the wall clock): deliver then.
    const expired = await nextBody(r, b.webhookSecret, "PAYMENT_EXPIRED", () => new Date(later));
    expect(expired).toEqual(expectedBody("PAYMENT_EXPIRED", await restPayment(b, under.id), b.businessId, null));
    expect(expired.ForPaymentEvents.Timeline.map((t: Rest) => t.PaymentStatus)).toEqual(["AWAITING_PAYMENT", "UNDERPAID", "EXPIRED"]);

    const cancel = await createPayment(b);
    await nextBody(r, b.webhookSecret, "PAYMENT_CREATED");
    await cancelPayment(db, cancel.id);
    const cancelled = await nextBody(r, b.webhookSecret, "PAYMENT_CANCELLED");
    expect(cancelled).toEqual(expectedBody("PAYMENT_CANCELLED", await restPayment(b, cancel.id), b.businessId, null));

    const fail = await createPayment(b);
    await nextBody(r, b.webhookSecret, "PAYMENT_CREATED");
    await sim(b, fail.id, { action: "select", coin: "BITCOIN" });
    await nextBody(r, b.webhookSecret, "PAYMENT_METHOD_SELECTED");
    await sim(b, fail.id, { action: "pay" });
    await nextBody(r, b.webhookSecret, "PAYMENT_PENDING");
    await sim(b, fail.id, { action: "fail" });
    const failed = await nextBody(r, b.webhookSecret, "PAYMENT_FAILED");
    expect(failed).toEqual(expectedBody("PAYMENT_FAILED", await restPayment(b, fail.id), b.businessId, null));
    expect(failed.ForPaymentEvents.PlatformCryptoCharge.Transaction).toBeNull();
  });
});
