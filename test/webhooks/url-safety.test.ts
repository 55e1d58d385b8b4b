import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { listEndpoints, updateEndpoint } from "@/db/queries/webhook-endpoints";
import { config, loadConfig } from "@/lib/config";
import { postWebhook } from "@/lib/webhooks/send";
import { isPublicAddress, resolvePublic, UnsafeUrlError } from "@/lib/http/url-safety";
import { createPayment, newBusiness } from "../helpers";
import { attemptsOf, deliveriesOf, deliveryById, drain, oneWebhookFileAtATime, receivers } from "./support";

/**
 * D7 SSRF guard: a live business's webhook goes only to https addresses that resolve to public
 * addresses, checked at delivery time on the address actually connected to. Test businesses
 * may deliver to http://127.0.0.1 (every other webhook test does).
 */
oneWebhookFileAtATime();
const receiver = receivers();

const NOT_PUBLIC: [string, string][] = [
  ["127.0.0.1", "loopback"],
  ["127.255.255.254", "loopback"],
  ["::1", "IPv6 loopback"],
  ["0.0.0.0", "unspecified"],
  ["::", "IPv6 unspecified"],
  ["10.0.0.1", "private 10/8"],
  ["172.16.5.4", "private 172.16/12"],
  ["172.31.255.255", "private 172.16/12"],
  ["192.168.1.1", "private 192.168/16"],
  ["169.254.169.254", "link-local (cloud metadata)"],
  ["fe80::1", "IPv6 link-local"],
  ["100.64.0.1", "CGNAT 100.64/10"],
  ["100.127.255.254", "CGNAT 100.64/10"],
  ["fc00::1", "ULA fc00::/7"],
  ["fd12:3456:789a::1", "ULA fc00::/7"],
  ["::ffff:127.0.0.1", "IPv4-mapped loopback"],
  ["::ffff:7f00:1", "IPv4-mapped loopback, hex form"],
  ["::ffff:10.1.2.3", "IPv4-mapped private"],
  ["::ffff:169.254.169.254", "IPv4-mapped link-local"],
  ["::127.0.0.1", "IPv4-compatible loopback"],
  ["::7f00:1", "IPv4-compatible loopback, hex form"],
  ["::a01:203", "IPv4-compatible private, hex form"],
  ["64:ff9b::7f00:1", "NAT64 of loopback"],
  ["2002:7f00:1::1", "6to4 of loopback"],
  ["224.0.0.1", "multicast"],
  ["ff02::1", "IPv6 multicast"],
  ["255.255.255.255", "broadcast"],
  ["192.0.2.10", "documentation"],
  ["2001:db8::1", "IPv6 documentation"],
  ["198.18.0.1", "benchmarking"],
  ["240.0.0.1", "reserved"],
  ["not-an-ip", "not an address"],
];
const PUBLIC = ["8.8.8.8", "1.1.1.1", "93.184.216.34", "172.32.0.1", "100.128.0.1", "::ffff:8.8.8.8", "2606:4700:4700::1111", "2a00:1450:4001:82a::200e"];

describe("isPublicAddress", () => {
  it.each(NOT_PUBLIC)("refuses %s (%s)", (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });
  it.each(PUBLIC)("accepts the public address %s", (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });
  it("resolvePublic refuses names and literals that reach non-public addresses", async () => {
    await expect(resolvePublic("localhost")).rejects.toBeInstanceOf(UnsafeUrlError);
    await expect(resolvePublic("127.0.0.1")).rejects.toThrow(/non-public/);
    await expect(resolvePublic("[::1]")).rejects.toThrow(/non-public/);
    await expect(resolvePublic("8.8.8.8")).resolves.toEqual({ address: "8.8.8.8", family: 4 });
  });
});

/**
 * Points a live business's webhook at `url` directly in the database. The admin API checks the
 * URL when it is set, but a host name that was public then can resolve to a private address
 * later (a DNS change, or rebinding): setting the row simulates exactly that, and the check that
 * matters is the one made when connecting.
 */
async function repoint(businessId: number, url: string) {
  const db = await getDb();
  const [primary] = await listEndpoints(db, businessId);
  await updateEndpoint(db, businessId, primary.id, { url, updatedAt: new Date() });
}

describe("live deliveries refuse non-public targets at delivery time", () => {
  for (const host of ["localhost", "127.0.0.1", "[::ffff:127.0.0.1]"]) {
    it(`https://${host}:PORT is refused, recorded, and the receiver is never contacted`, async () => {
      const r = await receiver();
      const b = await newBusiness({ mode: "live", webhookUrl: "https://hooks.merchant.example/cryptopay" });
      await repoint(b.businessId, `https://${host}:${r.port}/hook`);
      const { id } = await createPayment(b);
      const [d] = await deliveriesOf(id);
      expect(d.url).toBe(`https://${host}:${r.port}/hook`);
      await drain();
      expect(r.connections()).toBe(0);
      expect(r.hits).toHaveLength(0);
      const [a] = await attemptsOf(d.id);
      expect(a).toMatchObject({ succeeded: false, statusCode: null, responseBody: null });
      expect(a.error).toMatch(/^refused: .*non-public address/);
      // A refusal is a failed attempt like any other: retried on schedule, visible in the log.
      expect(await deliveryById(d.id)).toMatchObject({ status: "pending", attempts: 1, lastStatusCode: null });
    });
  }

  it("a live business's http:// URL is refused at delivery time too", async () => {
    const r = await receiver();
    const b = await newBusiness({ mode: "live", webhookUrl: "https://hooks.merchant.example/cryptopay" });
    await repoint(b.businessId, r.url);
    const { id } = await createPayment(b);
    await drain();
    const [d] = await deliveriesOf(id);
    const [a] = await attemptsOf(d.id);
    expect(a.error).toMatch(/^refused: http: URLs are not allowed for a live business/);
    expect(r.connections()).toBe(0);
  });

  it("postWebhook in live mode refuses loopback, in test mode delivers to it", async () => {
    const r = await receiver();
    const live = await postWebhook(`https://localhost:${r.port}/hook`, "{}", {}, "live");
    expect(live).toMatchObject({ ok: false, statusCode: null });
    expect(live.error).toMatch(/^refused:/);
    expect(r.connections()).toBe(0);
    const test = await postWebhook(r.url, "{}", {}, "test");
    expect(test).toMatchObject({ ok: true, statusCode: 200 });
    expect(r.hits).toHaveLength(1);
  });

  it("WEBHOOK_ALLOW_PRIVATE_TARGETS lets a live business use and reach a private http:// receiver", async () => {
    const r = await receiver();
    const cfg = config();
    cfg.webhookPrivateTargets = true;
    try {
      const b = await newBusiness({ mode: "live", webhookUrl: r.url });
      const { id } = await createPayment(b);
      await drain();
      const [d] = await deliveriesOf(id);
      expect(await deliveryById(d.id)).toMatchObject({ status: "succeeded", attempts: 1 });
      expect(r.hits).toHaveLength(1);
    } finally {
      cfg.webhookPrivateTargets = false;
    }
    expect(loadConfig({ DATA_DIR: ":memory:", WEBHOOK_ALLOW_PRIVATE_TARGETS: "true" } as unknown as NodeJS.ProcessEnv).webhookPrivateTargets).toBe(true);
    expect(loadConfig({ DATA_DIR: ":memory:" } as unknown as NodeJS.ProcessEnv).webhookPrivateTargets).toBe(false);
    expect(() => loadConfig({ DATA_DIR: ":memory:", WEBHOOK_ALLOW_PRIVATE_TARGETS: "yes" } as unknown as NodeJS.ProcessEnv)).toThrow(
      /WEBHOOK_ALLOW_PRIVATE_TARGETS: must be 1, 0, true or false/,
    );
  });

  it("a test business delivers to http://127.0.0.1", async () => {
    const r = await receiver();
    const b = await newBusiness({ mode: "test", webhookUrl: r.url });
    const { id } = await createPayment(b);
    await drain();
    const [d] = await deliveriesOf(id);
    expect(r.hitsFor(d.messageId)).toHaveLength(1);
    expect((await deliveryById(d.id)).status).toBe("succeeded");
  });
});
