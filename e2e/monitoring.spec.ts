import { expect, test } from "@playwright/test";
import parsePrometheusTextFormat, { type MetricFamily } from "parse-prometheus-text-format";
import { E2E_METRICS_TOKEN } from "../playwright.config";
import { createPayment, newBusiness } from "./helpers";

/**
 * The production build serves /healthz, /readyz and /metrics as an orchestrator and Prometheus
 * reach them: off the page proxy, under the API's Content-Security-Policy, and with one registry
 * for the whole process, so a scrape shows the requests scripts/server.mjs timed and the payments
 * a route handler's bundle created (docs/monitoring.md). The metrics themselves are
 * test/health/metrics.test.ts.
 */

const sample = (families: MetricFamily[], name: string, labels: Record<string, string>) =>
  families.find((f) => f.name === name)?.metrics.find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v));

test("health checks and metrics in the production build", async ({ request }) => {
  const health = await request.get("/healthz");
  expect(health.status()).toBe(200);
  expect(await health.json()).toEqual({ status: "ok" });
  expect(health.headers()["content-security-policy"]).toBe("default-src 'none'; frame-ancestors 'none'");

  const ready = await request.get("/readyz");
  expect(ready.status(), await ready.text()).toBe(200);
  expect((await ready.json()).status).toBe("ready");

  expect((await request.get("/metrics")).status()).toBe(401);

  const b = await newBusiness(request);
  await createPayment(request, b, { currency: "USD", amount: 10 });

  const res = await request.get("/metrics", { headers: { authorization: `Bearer ${E2E_METRICS_TOKEN}` } });
  expect(res.status()).toBe(200);
  expect(res.headers()["content-type"]).toMatch(/^text\/plain; version=0\.0\.4/);
  const text = await res.text();
  const families = parsePrometheusTextFormat(text);
  // Timed by the server script, exposed by the route handler: one registry. (The parser keeps no
  // labels of a histogram's series, so their _count lines are read as they are written.)
  expect(text).toMatch(/^cryptopay_http_request_duration_seconds_count\{method="GET",route="\/healthz",status="200"\} [1-9]/m);
  expect(text).toMatch(/^cryptopay_http_request_duration_seconds_count\{method="POST",route="\/v1\/businesses\/:id\/payments",status="200"\} [1-9]/m);
  // Counted by instrumentation's listener, from a payment the API's bundle created.
  expect(Number(sample(families, "cryptopay_payments_created_total", { coin: "none" })?.value)).toBeGreaterThanOrEqual(1);
  expect(Number(sample(families, "cryptopay_ready", {})?.value)).toBe(1);
  expect(Number(sample(families, "process_resident_memory_bytes", {})?.value)).toBeGreaterThan(0);
});
