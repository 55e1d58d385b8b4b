import path from "node:path";
import { expect, test } from "@playwright/test";
import { totp } from "./dashboard";
import { startSecondServer, type SecondServer } from "./second-server";

/**
 * A full run's log, grepped (docs/monitoring.md, "Logs"): a production server of the e2e build
 * (scripts/server.mjs) at LOG_LEVEL=debug, with secrets of every kind in its environment (node RPC
 * URLs with a password and a provider key, an SMTP URL with a password, METRICS_TOKEN, ADMIN_TOKEN,
 * API_KEY_SECRET, TRON_API_KEY), is driven through wrong and right sign-ins, two-factor set-up,
 * an API key made on the dashboard, payments made with it, a refused key, a webhook endpoint and
 * its secret, and a scrape of /metrics. Then everything it wrote to stdout and stderr is read:
 * no secret appears, every line is JSON (but the first run's banner, written for the operator's
 * terminal), and every request's lines carry its id, the one the response's X-Request-Id names,
 * also in lines written inside the route handlers.
 */

const ROOT = path.resolve(import.meta.dirname, "..");
const ENV = {
  LOG_LEVEL: "debug",
  ADMIN_TOKEN: "adm_logs_spec_admin_token_0123456789",
  METRICS_TOKEN: "metrics_logs_spec_token_0123456789",
  API_KEY_SECRET: "api-key-secret-of-the-logs-spec-0123456789",
  // Nodes that do not answer (port 9, discard): the watchers log their failures, with these URLs in reach.
  LITECOIN_RPC_URL: "http://ltcuser:ltc-rpc-password-0123@127.0.0.1:9/",
  ETHEREUM_RPC_URL: "http://127.0.0.1:9/v2/eth-provider-key-0123456789abcdef",
  TRON_RPC_URL: "http://127.0.0.1:9/",
  TRON_API_KEY: "tron-api-key-of-the-logs-spec-0123",
  SMTP_URL: "smtp://mailer:smtp-password-of-the-logs-spec@127.0.0.1:9",
  RATES_FILE: path.join(ROOT, "test/fixtures/pinned-rates.json"),
};
const admin = { authorization: `Bearer ${ENV.ADMIN_TOKEN}`, "content-type": "application/json" };

let server: SecondServer | undefined;

test.afterEach(async ({}, testInfo) => {
  if (testInfo.status !== testInfo.expectedStatus && server) await testInfo.attach("server-log", { body: server.log(), contentType: "text/plain" });
});
test.afterAll(async () => {
  await server?.stop();
});

type Line = { level: string; time: string; msg: string; requestId?: string; [field: string]: unknown };

/** The log's lines, with the first run's banner (the one text written past the logger, lib/businesses/bootstrap.ts) taken out. */
function split(log: string): { lines: string[]; banner: string[] } {
  const all = log.split("\n").filter((l) => l.trim() !== "");
  const start = all.findIndex((l) => l.startsWith("┌─ First run"));
  const end = all.findIndex((l) => l.startsWith("└─"));
  if (start < 0) return { lines: all, banner: [] };
  return { lines: [...all.slice(0, start), ...all.slice(end + 1)], banner: all.slice(start, end + 1) };
}

test("a full run's log holds no secret, is JSON lines, and carries each request's id", async ({ page }) => {
  test.setTimeout(180_000);
  server = await startSecondServer(ENV);
  const base = server.base;
  const secrets: Record<string, string> = {
    ...Object.fromEntries(Object.entries(ENV).filter(([name]) => /TOKEN|SECRET|_KEY$/.test(name))),
    "the LITECOIN_RPC_URL password": "ltc-rpc-password-0123",
    "the ETHEREUM_RPC_URL key": "eth-provider-key-0123456789abcdef",
    "the SMTP_URL password": "smtp-password-of-the-logs-spec",
  };

  // The operator: a business (its first API key and webhook secret), a dashboard user with a password.
  const created = await fetch(`${base}/admin/v1/businesses`, { method: "POST", headers: admin, body: JSON.stringify({ name: "Logs shop" }) });
  expect(created.status).toBe(201);
  const shop = (await created.json()).data as { businessId: number; apiKey: string; webhookSecret: string };
  secrets["the admin-made API key"] = shop.apiKey;
  secrets["the business's webhook secret"] = shop.webhookSecret;
  const userRes = await fetch(`${base}/admin/v1/users`, { method: "POST", headers: admin, body: JSON.stringify({ email: `owner-${Date.now()}@logs.example`, businessId: shop.businessId, role: "owner" }) });
  expect(userRes.status).toBe(201);
  const owner = (await userRes.json()).data as { email: string; password: string };
  secrets["the owner's password"] = owner.password;
  secrets["a wrong password"] = "wrong-password-typed-by-the-owner";

  // The owner: a wrong password, the right one, two-factor set-up, an API key made on the dashboard.
  const signIn = async (password: string) => {
    await page.goto(`${base}/dashboard/sign-in`);
    await page.getByLabel("Email").fill(owner.email);
    await page.getByLabel("Password").fill(password);
    await page.getByRole("button", { name: "Sign in" }).click();
  };
  await signIn(secrets["a wrong password"]);
  await expect(page.locator("#sign-in-error")).toHaveText("The email or password is incorrect.");
  await signIn(owner.password);
  await expect(page).toHaveURL(new RegExp(`/dashboard/${shop.businessId}$`));

  await page.goto(`${base}/dashboard/security`);
  await page.getByLabel("Password, to set it up").fill(owner.password);
  await page.getByRole("button", { name: "Set up two-factor sign-in" }).click();
  const totpSecret = (await page.getByTestId("totp-secret").textContent())!.trim();
  secrets["the TOTP secret"] = totpSecret;
  const backupCodes = await page.getByTestId("backup-codes").locator("li").allTextContents();
  backupCodes.forEach((code, i) => (secrets[`backup code ${i}`] = code.trim()));
  await page.getByLabel("The 6-digit code from the app").fill(await totp(totpSecret));
  await page.getByRole("button", { name: "Turn on" }).click();
  await expect(page.getByTestId("two-factor-status")).toContainText("on");

  await page.goto(`${base}/dashboard/${shop.businessId}/developers`);
  await page.getByRole("button", { name: "Create API key" }).click();
  const apiKey = (await page.getByTestId("new-api-key-value").textContent())!.trim();
  secrets["the dashboard-made API key"] = apiKey;
  const cookies = await page.context().cookies(base);
  for (const c of cookies) if (c.value.length >= 16) secrets[`cookie ${c.name}`] = c.value;

  // The merchant's server: payments with the key, one request with an id of its own, one with an id refused, a revoked-looking key.
  const payments = `${base}/v1/businesses/${shop.businessId}/payments`;
  const auth = { authorization: `Bearer ${apiKey}`, "content-type": "application/json" };
  const traced = await fetch(payments, { method: "POST", headers: { ...auth, "x-request-id": "merchant-trace.0001" }, body: JSON.stringify({ currency: "USD", amount: 12, name: "Traced" }) });
  expect(traced.status, await traced.clone().text()).toBe(200);
  expect(traced.headers.get("x-request-id")).toBe("merchant-trace.0001");
  const payment = (await traced.json()).data as { id: string };
  const odd = await fetch(`${payments}/${payment.id}`, { headers: { ...auth, "x-request-id": "not a token; <script>" } });
  expect(odd.status).toBe(200);
  const oddId = odd.headers.get("x-request-id")!;
  expect(oddId).toMatch(/^[0-9a-f-]{36}$/);
  const forged = `${apiKey.slice(0, -4)}AAAA`;
  secrets["a forged API key"] = forged;
  const refused = await fetch(payments, { headers: { authorization: `Bearer ${forged}` } });
  expect(refused.status).toBe(401);
  const refusedId = refused.headers.get("x-request-id")!;

  // A webhook endpoint and its own secret; a scrape of /metrics with its token.
  const endpoint = await fetch(`${base}/admin/v1/businesses/${shop.businessId}/webhook-endpoints`, { method: "POST", headers: admin, body: JSON.stringify({ url: "https://merchant.example/hooks" }) });
  expect(endpoint.status, await endpoint.clone().text()).toBe(201);
  const endpointId = ((await endpoint.json()).data as { endpointId: number }).endpointId;
  const secretRes = await fetch(`${base}/admin/v1/businesses/${shop.businessId}/webhook-endpoints/${endpointId}/secret`, { headers: admin });
  const endpointSecret = ((await secretRes.json()).data as { secret: string }).secret;
  expect(endpointSecret).toMatch(/^whsec_/);
  secrets["the endpoint's secret"] = endpointSecret;
  const scrape = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${ENV.METRICS_TOKEN}` } });
  expect(scrape.status).toBe(200);
  await new Promise((r) => setTimeout(r, 1_000)); // the last access lines are written once the responses close

  await server.stop();
  const { lines, banner } = split(server.log());
  server = undefined;

  // The first run's banner is the operator's (an embedded database, never production): it names its own business only.
  expect(banner.join("\n")).not.toContain(apiKey);

  // No secret, anywhere in what the process wrote but the banner.
  const text = lines.join("\n");
  for (const [what, secret] of Object.entries(secrets)) expect(text.includes(secret), `${what} is in the log`).toBe(false);
  expect(text).toContain("[REDACTED]");

  // Every line is a JSON object with a level, a time and a message.
  const parsed: Line[] = lines.map((l) => {
    let line: Line | undefined;
    expect(() => (line = JSON.parse(l)), `not JSON: ${l}`).not.toThrow();
    return line!;
  });
  for (const line of parsed) {
    expect(line.level).toMatch(/^(trace|debug|info|warn|error|fatal)$/);
    expect(Date.parse(line.time)).not.toBeNaN();
    expect(typeof line.msg).toBe("string");
  }

  // Each request: one access line with its id; the traced one also the route handler's own line.
  const access = parsed.filter((l) => l.msg === "request");
  const tracedLines = parsed.filter((l) => l.requestId === "merchant-trace.0001");
  expect(tracedLines.map((l) => l.msg)).toEqual(["API key accepted", "request"]);
  expect(tracedLines[1]).toMatchObject({ level: "info", method: "POST", route: "/v1/businesses/:id/payments", path: `/v1/businesses/${shop.businessId}/payments`, status: 200, durationMs: expect.any(Number) });
  expect(parsed.filter((l) => l.requestId === oddId).map((l) => l.msg)).toEqual(["API key accepted", "request"]);
  const refusal = parsed.filter((l) => l.requestId === refusedId);
  expect(refusal.map((l) => [l.level, l.msg])).toEqual([["debug", "The API key's signature is invalid."], ["info", "request"]]);
  expect(access.length).toBeGreaterThan(10);
  for (const line of access) expect(line.requestId).toEqual(expect.any(String));
  expect(new Set(access.map((l) => l.requestId)).size).toBe(access.length);
  // The dashboard's pages and server actions, and Better Auth's routes, are requests like any other.
  expect(access.map((l) => l.route)).toEqual(expect.arrayContaining(["/api/auth", "/dashboard", "/metrics"]));
  // Lines outside any request carry no id: start-up, the watchers failing to reach their nodes.
  const ready = parsed.find((l) => l.msg.startsWith("ready on"))!;
  expect(ready.level).toBe("info");
  expect(ready.requestId).toBeUndefined();
  expect(parsed.some((l) => l.component === "watcher" && l.level === "error" && l.requestId === undefined)).toBe(true);
});
