import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { customerIps } from "@/db/schema";
import { cancelPayment } from "@/lib/checkout/cancel";
import { recordVisit } from "@/lib/checkout/customer";
import { LIST_RECORDS_WRITERS } from "@/lib/payments/list-records";
import { createPayment, json, newBusiness, paymentsPath, request } from "../helpers";
import { drain, oneWebhookFileAtATime, receivers, restPayment, verifyHit, type Receiver } from "./support";

/*
 * D9: a captured IP address carries its city and country, and its ISP (the organisation of its
 * autonomous system), from the bundled databases (lib/geo/ip-location.ts, lib/geo/ip-isp.ts),
 * stored with the address, so the REST record (fetch and list, both list writers) and every
 * webhook body show the same values. `riskScore` stays null and `connectionType` `Unknown`:
 * nothing bundled says otherwise.
 */
oneWebhookFileAtATime();
const receiver = receivers();

const MOUNTAIN_VIEW = { city: "Mountain View", country: "US", isp: "Google LLC", riskScore: null, connectionType: "Unknown" };
const RIPE_NCC = "Reseaux IP Europeens Network Coordination Centre (RIPE NCC)";
const AMSTERDAM = { city: "Amsterdam", country: "NL", isp: RIPE_NCC, riskScore: null, connectionType: "Unknown" };
const NOWHERE = { city: null, country: null, isp: null, riskScore: null, connectionType: "Unknown" };

async function nextBody(r: Receiver, secret: string, eventType: string) {
  const before = r.hits.length;
  await drain();
  const fresh = r.hits.slice(before);
  expect(fresh.map((h) => JSON.parse(h.body).EventType)).toEqual([eventType]);
  return verifyHit(secret, fresh[0]).ForPaymentEvents;
}

/** The record as each list writer writes it (the SQL-written one is what PostgreSQL's list pages use). */
async function listed(id: string) {
  const db = await getDb();
  const out: Record<string, unknown> = {};
  for (const [name, writer] of Object.entries(LIST_RECORDS_WRITERS)) out[name] = JSON.parse((await writer(db, [id]))[0]);
  return out;
}

/** A webhook body's IP entry as the REST entry it must equal (the spec's PascalCase names). */
const pascal = (ip: Record<string, unknown>) => ({
  City: ip.city,
  Ip: ip.ip,
  Country: ip.country,
  RiskScore: ip.riskScore,
  ConnectionType: ip.connectionType,
  ISP: ip.isp,
  DateCreated: ip.dateCreated,
});

describe("customer IP location", () => {
  it("an address given at create: stored located; fetch, list and PAYMENT_CREATED show it alike", async () => {
    const r = await receiver();
    const b = await newBusiness({ webhookUrl: r.url });
    const { id } = await createPayment(b, { currency: "USD", amount: 10, customerEmail: "geo@example.com", customerIp: "8.8.8.8" });

    const rest = await restPayment(b, id);
    expect(rest.customer.ipAddresses).toEqual([{ ip: "8.8.8.8", ...MOUNTAIN_VIEW, dateCreated: expect.any(String) }]);

    const res = await request("GET", paymentsPath(b.businessId), { key: b.apiKey });
    expect((await json(res)).data.items).toEqual([rest]);
    for (const [writer, record] of Object.entries(await listed(id))) expect(record, writer).toEqual(rest);

    const body = await nextBody(r, b.webhookSecret, "PAYMENT_CREATED");
    expect(body.Customer.IpAddresses).toEqual(rest.customer.ipAddresses.map(pascal));
    expect(body.Customer.IpAddresses[0]).toMatchObject({ City: "Mountain View", Country: "US", ISP: "Google LLC", ConnectionType: "Unknown" });
  });

  it("an address captured on the first checkout visit (IPv6): stored located; later webhooks carry it", async () => {
    const r = await receiver();
    const b = await newBusiness({ webhookUrl: r.url });
    const { id } = await createPayment(b, { currency: "USD", amount: 10 });
    expect((await nextBody(r, b.webhookSecret, "PAYMENT_CREATED")).Customer.IpAddresses).toEqual([]);

    const db = await getDb();
    await recordVisit(db, id, "2001:67c:2e8:22::c100:68b", "Mozilla/5.0");
    await recordVisit(db, id, "8.8.8.8", "Mozilla/5.0"); // not the first visit: nothing recorded
    const rest = await restPayment(b, id);
    expect(rest.customer.ipAddresses).toEqual([{ ip: "2001:67c:2e8:22::c100:68b", ...AMSTERDAM, dateCreated: expect.any(String) }]);
    for (const [writer, record] of Object.entries(await listed(id))) expect(record, writer).toEqual(rest);

    await cancelPayment(db, id);
    const cancelled = await restPayment(b, id);
    const body = await nextBody(r, b.webhookSecret, "PAYMENT_CANCELLED");
    expect(body.Customer.IpAddresses).toEqual(cancelled.customer.ipAddresses.map(pascal));
    expect(body.Customer.IpAddresses[0]).toMatchObject({ City: "Amsterdam", Country: "NL", ISP: RIPE_NCC });
  });

  it("private and documentation addresses are stored without a location", async () => {
    const b = await newBusiness();
    const db = await getDb();
    const { id } = await createPayment(b, { currency: "USD", amount: 10, customerIp: "192.168.1.20" });
    const visited = await createPayment(b, { currency: "USD", amount: 10 });
    await recordVisit(db, visited.id, "::1", null);
    const doc = await createPayment(b, { currency: "USD", amount: 10, customerIp: "2001:db8::7" });
    for (const [p, ip] of [[id, "192.168.1.20"], [visited.id, "::1"], [doc.id, "2001:db8::7"]] as const) {
      const rest = await restPayment(b, p);
      expect(rest.customer.ipAddresses).toEqual([{ ip, ...NOWHERE, dateCreated: expect.any(String) }]);
      for (const [writer, record] of Object.entries(await listed(p))) expect(record, writer).toEqual(rest);
    }
  });

  it("a returning customer's known address keeps the location stored when it was first seen", async () => {
    const b = await newBusiness();
    const db = await getDb();
    const first = await createPayment(b, { currency: "USD", amount: 10, customerEmail: "again@example.com", customerIp: "8.8.8.8" });
    const { customer } = await restPayment(b, first.id);
    await db.update(customerIps).set({ city: "Stored City" }).where(eq(customerIps.customerId, customer.id));
    const second = await createPayment(b, { currency: "USD", amount: 10, customerEmail: "again@example.com", customerIp: "8.8.8.8" });
    const rest = await restPayment(b, second.id);
    expect(rest.customer.ipAddresses).toEqual([{ ip: "8.8.8.8", ...MOUNTAIN_VIEW, city: "Stored City", dateCreated: expect.any(String) }]);
  });
});
