import { readdirSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import parsePrometheusTextFormat, { type MetricFamily } from "parse-prometheus-text-format";
import { getDb } from "@/db/client";
import { config } from "@/lib/config";
import { scrape } from "@/lib/health/scrape";
import { metrics } from "@/lib/metrics/registry.mjs";
import { ROUTE_PATTERNS, methodOf, routeOf } from "@/lib/metrics/routes.mjs";
import * as metricsRoute from "@/app/metrics/route";
import { adminToken, createPayment, expectProblem, json, request } from "../helpers";

const TOKEN = "metrics-token-0123456789";
const saved = config().metricsToken;
beforeAll(async () => {
  config().metricsToken = TOKEN;
  // Opened (and migrated) before the first scrape, which waits at most READY_TIMEOUT_MS for it.
  await getDb();
});
afterAll(() => void (config().metricsToken = saved));

function get(headers: Record<string, string> = {}) {
  return metricsRoute.GET(new Request("http://localhost:3000/metrics", { headers }));
}

async function scraped(): Promise<MetricFamily[]> {
  const res = await get({ authorization: `Bearer ${TOKEN}` });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  return parsePrometheusTextFormat(await res.text());
}

/** A sample's value (0 when the series is absent, as a counter not yet moved is). */
function value(families: MetricFamily[], name: string, labels: Record<string, string> = {}): number {
  const family = families.find((f) => f.name === name);
  const sample = family?.metrics.find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v));
  return sample ? Number(sample.value) : 0;
}

async function businessWithWebhook() {
  const body = { name: "Metrics Ltd", webhookUrl: "http://127.0.0.1:9/hook" };
  const res = await request("POST", "/admin/v1/businesses", { key: adminToken(), body });
  expect(res.status).toBe(201);
  return (await json(res)).data as { businessId: number; apiKey: string };
}

describe("/metrics", () => {
  it("is a 404 without METRICS_TOKEN, a 401 without the token or with a wrong one", async () => {
    config().metricsToken = undefined;
    await expectProblem(await get({ authorization: `Bearer ${TOKEN}` }), 404);
    config().metricsToken = TOKEN;
    const missing = await get();
    await expectProblem(missing, 401);
    expect(missing.headers.get("www-authenticate")).toBe('Bearer realm="metrics"');
    await expectProblem(await get({ authorization: `Bearer ${TOKEN}x` }), 401);
    await expectProblem(await get({ authorization: `Basic ${TOKEN}` }), 401);
  });

  it("exposes the process's metrics in the text format, which parses with the types and help declared", async () => {
    const families = await scraped();
    const byName = new Map(families.map((f) => [f.name, f]));
    expect(byName.get("process_cpu_user_seconds_total")?.type).toBe("COUNTER");
    expect(byName.get("nodejs_eventloop_lag_seconds")?.type).toBe("GAUGE");
    expect(byName.get("cryptopay_http_request_duration_seconds")?.type).toBe("HISTOGRAM");
    expect(byName.get("cryptopay_webhook_deliveries_pending")?.type).toBe("GAUGE");
    expect(value(families, "cryptopay_ready")).toBe(1);
    // PGlite's one connection; on PostgreSQL (DATABASE_URL) the main and the list pools, one or more each.
    if (process.env.DATABASE_URL) expect(value(families, "cryptopay_db_pool_max_connections")).toBeGreaterThanOrEqual(2);
    else expect(value(families, "cryptopay_db_pool_max_connections")).toBe(1);
    // The scrape's own statement is one active connection.
    expect(value(families, "cryptopay_db_connections", { state: "active" })).toBeGreaterThanOrEqual(1);
    // Every one of ours is named with the prefix and a unit or _total where it counts.
    for (const f of families.filter((f) => f.name.startsWith("cryptopay_"))) {
      if (f.type === "COUNTER") expect(f.name).toMatch(/_total$/);
      expect(f.help.length).toBeGreaterThan(10);
    }
    // The chains the tests configure (at an address where nothing listens) are reported, not healthy
    // in a database of this file's own; a shared PostgreSQL holds the cursors other files' nodes moved.
    expect(byName.get("cryptopay_chain_healthy")?.metrics.map((m) => m.labels?.chain).sort()).toEqual(["BITCOIN", "BITCOIN_CASH", "ETHEREUM", "LITECOIN", "TRON"]);
    if (process.env.DATABASE_URL) expect([0, 1]).toContain(value(families, "cryptopay_chain_healthy", { chain: "LITECOIN" }));
    else expect(value(families, "cryptopay_chain_healthy", { chain: "LITECOIN" })).toBe(0);
  });

  it("round-trips: the parsed text holds every series of ours the registry holds, with its labels and value", async () => {
    await createPayment(await businessWithWebhook());
    const families = await scraped();
    const held = (await metrics().registry.getMetricsAsJSON()).filter((m) => m.name.startsWith("cryptopay_") && String(m.type) !== "histogram");
    expect(held.length).toBeGreaterThan(15);
    for (const m of held) {
      const parsed = families.find((f) => f.name === m.name);
      expect(parsed?.type, m.name).toBe(String(m.type).toUpperCase());
      const series = (parsed?.metrics ?? []).map((s) => ({ labels: s.labels ?? {}, value: Number(s.value) }));
      const expected = m.values.map((v) => ({ labels: Object.fromEntries(Object.entries(v.labels).map(([k, l]) => [k, String(l)])), value: v.value }));
      expect(series, m.name).toEqual(expected);
    }
  });

  it("counts a payment created and its status changes, by coin, after they commit", async () => {
    const b = await businessWithWebhook();
    const before = await scraped();
    const pay = await createPayment(b, { currency: "USD", amount: 20 });
    for (const action of [{ action: "select", coin: "ETH_TETHER" }, { action: "pay", confirmations: 1 }, { action: "confirm" }]) {
      const res = await request("POST", `/v1/businesses/${b.businessId}/payments/${pay.id}/simulate`, { key: b.apiKey, body: action });
      expect(res.status).toBe(200);
    }
    const after = await scraped();
    const delta = (name: string, labels: Record<string, string>) => value(after, name, labels) - value(before, name, labels);
    expect(delta("cryptopay_payments_created_total", { coin: "none" })).toBe(1);
    expect(delta("cryptopay_payment_status_changes_total", { coin: "ETH_TETHER", status: "COMPLETED" })).toBe(1);
    // No runner runs in tests: every event's delivery waits in the outbox.
    const pending = value(after, "cryptopay_webhook_deliveries_pending") - value(before, "cryptopay_webhook_deliveries_pending");
    const changes = after
      .find((f) => f.name === "cryptopay_payment_status_changes_total")!
      .metrics.filter((m) => m.labels?.coin === "ETH_TETHER")
      .reduce((n, m) => n + Number(m.value), 0);
    expect(changes).toBeGreaterThanOrEqual(2);
    expect(pending).toBeGreaterThanOrEqual(1 + changes);
  });

  it("reads the webhook backlog's age at scrape time", async () => {
    const b = await businessWithWebhook();
    await createPayment(b);
    const later = new Date(Date.now() + 3_600_000);
    const families = parsePrometheusTextFormat((await scrape(getDb, later)).body);
    expect(value(families, "cryptopay_webhook_deliveries_pending")).toBeGreaterThanOrEqual(1);
    expect(value(families, "cryptopay_webhook_oldest_pending_delivery_age_seconds")).toBeGreaterThanOrEqual(3600);
    // This file's database holds no e-mail; a shared PostgreSQL holds other files' (which come and go
    // while it runs), so there the age must agree with the count the same scrape read.
    const emails = value(families, "cryptopay_customer_emails_pending");
    const age = value(families, "cryptopay_customer_email_oldest_pending_age_seconds");
    if (!process.env.DATABASE_URL) expect(emails).toBe(0);
    if (emails === 0) expect(age).toBe(0);
    else expect(age).toBeGreaterThanOrEqual(3600);
  });
});

describe("the request metrics' route label", () => {
  /** The app's API route modules as route patterns: `[businessId]` → `:id`. */
  function appRoutes(dir: string, prefix: string): string[] {
    const out: string[] = [];
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isFile() && entry.name === "route.ts") out.push(prefix);
      if (!entry.isDirectory() || entry.name.startsWith("[[")) continue;
      const segment = /^\[.+\]$/.test(entry.name) ? ":id" : entry.name;
      out.push(...appRoutes(path.join(dir, entry.name), `${prefix}/${segment}`));
    }
    return out;
  }

  it("has a pattern for every API route module", () => {
    const routes = [...appRoutes("app/v1", "/v1"), ...appRoutes("app/admin/v1", "/admin/v1")];
    expect(routes.length).toBeGreaterThan(15);
    expect(routes.filter((r) => !ROUTE_PATTERNS.includes(r))).toEqual([]);
  });

  it.each([
    ["/v1/businesses/12/payments", "/v1/businesses/:id/payments"],
    ["/v1/businesses/12/payments/5f0c2c1e-8d2b-4e4a-9d59-0a4c1f0e7b11?x=1".split("?")[0], "/v1/businesses/:id/payments/:id"],
    ["/admin/v1/businesses/3/webhook-endpoints/9/secret/rotate", "/admin/v1/businesses/:id/webhook-endpoints/:id/secret/rotate"],
    ["/pay/5f0c2c1e-8d2b-4e4a-9d59-0a4c1f0e7b11/state", "/pay/:id/state"],
    ["/v1/anything/else/7", "/v1/*"],
    ["/admin/v1/nope", "/admin/v1/*"],
    ["/dashboard/4/payments", "/dashboard"],
    ["/_next/static/chunks/a.js", "/_next"],
    ["/metrics", "/metrics"],
    ["/readyz/", "/readyz"],
    ["/", "/"],
    ["/wp-login.php", "other"],
  ])("%s is %s", (p, route) => expect(routeOf(p)).toBe(route));

  it("keeps methods to the seven dispatched", () => {
    expect(methodOf("GET")).toBe("GET");
    expect(methodOf("PROPFIND")).toBe("OTHER");
  });
});
