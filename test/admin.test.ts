import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { decodeJwt, decodeProtectedHeader } from "jose";
import { getDb } from "@/db/client";
import { businesses } from "@/db/schema";
import { selectCoin } from "@/lib/checkout/select";
import { checkoutView } from "@/lib/checkout/view";
import { adminToken, createPayment, json, newBusiness, paymentsPath, request } from "./helpers";

/** Design §4: the operator's admin API under /admin/v1, authorised by the admin token. */

type Biz = Awaited<ReturnType<typeof newBusiness>>;

const admin = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
  request(method, `/admin/v1${path}`, { key: adminToken(), body, headers });

async function ok(res: Response, status = 200) {
  const body = await json(res);
  expect(res.status, JSON.stringify(body)).toBe(status);
  expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  expect(body.message).toBeNull();
  expect(body.errors).toBeNull();
  return body.data;
}

async function problem(res: Response, status: number) {
  const body = await json(res);
  expect(res.status, JSON.stringify(body)).toBe(status);
  expect(res.headers.get("content-type")).toMatch(/^application\/problem\+json/);
  expect(body).toMatchObject({ type: expect.stringMatching(/\S/), title: expect.stringMatching(/\S/), status, detail: expect.stringMatching(/\S/) });
  return body as { type: string; title: string; status: number; detail: string; errors?: Record<string, string[]> };
}

/** A 400 whose `errors` names `field`. */
async function invalid(res: Response, field: string) {
  const body = await problem(res, 400);
  expect(Object.keys(body.errors ?? {}), JSON.stringify(body)).toContain(field);
  expect(body.detail).toContain(field);
  return body;
}

/** The CryptoCoinName list of the spec without UNKNOWN (which no one can pay in). */
const SPEC_COINS = [
  "BITCOIN", "ETHEREUM", "LITECOIN", "BITCOIN_CASH", "ETH_USD_COIN", "ETH_TETHER", "MONERO", "BNB", "ETH_BUSD",
  "ETH_MATIC", "ETH_SHIBA_INU", "ETH_APE_COIN", "ETH_CRONOS", "ETH_DAI", "ETH_UNISWAP", "TRON", "TRX_TETHER",
  "TRX_USD_C", "CONTRACT_ERC20_ETH", "CONTRACT_ERC20_USDT", "CONTRACT_ERC20_USDC", "CONTRACT_TRC20_TRX",
  "CONTRACT_TRC20_USDT", "CONTRACT_TRC20_USDC", "SOLANA", "SOL_TETHER", "SOL_USD_COIN", "TON",
];

/** What a business offers when it does not choose: BTC, ETH, LTC, and USDT and USDC on Ethereum and TRON. */
const DEFAULT_COINS = ["BITCOIN", "ETHEREUM", "LITECOIN", "ETH_TETHER", "ETH_USD_COIN", "TRX_TETHER", "TRX_USD_C"];

function expectWebhookSecret(secret: unknown) {
  expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+={0,2}$/);
  const raw = Buffer.from((secret as string).slice("whsec_".length), "base64");
  expect(raw).toHaveLength(32);
  expect(raw.toString("base64")).toBe((secret as string).slice("whsec_".length));
}

async function works(businessId: number, apiKey: string) {
  const res = await request("GET", paymentsPath(businessId), { key: apiKey });
  return res.status;
}

describe("POST /admin/v1/businesses", () => {
  it("creates a test business: 201 envelope with id, key, webhook secret and default settings", async () => {
    const before = Date.now();
    const data = await ok(await admin("POST", "/businesses", { name: "Acme Shop" }), 201);
    expect(data).toMatchObject({
      businessId: expect.any(Number),
      name: "Acme Shop",
      mode: "test",
      webhookUrl: null,
      paymentLifetimeSeconds: 3600,
      feePercent: 0,
      underpaymentTolerancePercent: 0,
      parentBusinessId: null,
      keyId: expect.stringMatching(/^key_/),
    });
    expect(Number.isSafeInteger(data.businessId) && data.businessId > 0).toBe(true);
    expect(data.enabledCoins).toEqual(DEFAULT_COINS);
    expect(Date.parse(data.createdAt)).toBeGreaterThanOrEqual(before - 1000);
    expectWebhookSecret(data.webhookSecret);

    // The key is a JWT (HS256) naming the business.
    expect(data.apiKey.split(".")).toHaveLength(3);
    expect(decodeProtectedHeader(data.apiKey)).toMatchObject({ alg: "HS256", typ: "JWT" });
    expect(decodeJwt(data.apiKey)).toMatchObject({ bids: [data.businessId], jti: data.keyId, iss: "cryptopay" });
  });

  it("the returned apiKey works on /v1", async () => {
    const data = await ok(await admin("POST", "/businesses", { name: "Key check" }), 201);
    expect(await works(data.businessId, data.apiKey)).toBe(200);
    const { id } = await createPayment({ businessId: data.businessId, apiKey: data.apiKey }, { currency: "USD", amount: 5 });
    const res = await request("GET", `${paymentsPath(data.businessId)}/${id}`, { key: data.apiKey });
    expect(res.status).toBe(200);
  });

  it("every business gets its own key and webhook secret", async () => {
    const one = await ok(await admin("POST", "/businesses", { name: "One" }), 201);
    const two = await ok(await admin("POST", "/businesses", { name: "Two" }), 201);
    expect(two.businessId).not.toBe(one.businessId);
    expect(two.webhookSecret).not.toBe(one.webhookSecret);
    expect(two.apiKey).not.toBe(one.apiKey);
    expect(await works(two.businessId, one.apiKey)).toBe(403);
  });

  it("accepts every setting, and the limits of paymentLifetimeSeconds", async () => {
    const data = await ok(
      await admin("POST", "/businesses", {
        name: "Configured",
        mode: "test",
        webhookUrl: "http://127.0.0.1:8080/hooks",
        paymentLifetimeSeconds: 5,
        enabledCoins: ["BITCOIN", "ETH_TETHER", "MONERO"],
        feePercent: 1.5,
        underpaymentTolerancePercent: 0.5,
      }),
      201,
    );
    expect(data).toMatchObject({
      mode: "test",
      webhookUrl: "http://127.0.0.1:8080/hooks",
      paymentLifetimeSeconds: 5,
      enabledCoins: ["BITCOIN", "ETH_TETHER", "MONERO"],
      feePercent: 1.5,
      underpaymentTolerancePercent: 0.5,
    });
    const max = await ok(await admin("POST", "/businesses", { name: "Week", paymentLifetimeSeconds: 604800 }), 201);
    expect(max.paymentLifetimeSeconds).toBe(604800);
    // The short default leaves the rest of the catalogue one setting away: a test business can enable every coin.
    const every = await ok(await admin("POST", "/businesses", { name: "Everything", enabledCoins: SPEC_COINS }), 201);
    expect([...every.enabledCoins].sort()).toEqual([...SPEC_COINS].sort());
  });

  it("creates a live business with an https webhook; its default coins are the short set, and it can enable those live can serve", async () => {
    const byDefault = await ok(
      await admin("POST", "/businesses", { name: "Live", mode: "live", webhookUrl: "https://merchant.example/hooks" }),
      201,
    );
    expect(byDefault.mode).toBe("live");
    expect(byDefault.enabledCoins).toEqual(DEFAULT_COINS);
    // Every coin of the catalogue is on a watched chain (docs/real-chains.md), so each can be enabled,
    // TRON's too (offered once TRON_RPC_URL's node is healthy), and TON's with USDT on TON, the service's addition.
    const servable = [...SPEC_COINS, "TON_TETHER"];
    const data = await ok(
      await admin("POST", "/businesses", { name: "Live", mode: "live", webhookUrl: "https://merchant.example/hooks", enabledCoins: servable }),
      201,
    );
    expect([...data.enabledCoins].sort()).toEqual([...servable].sort());
  });

  it("takes a confirmation policy per coin, used by the coins chosen after it", async () => {
    const data = await ok(await admin("POST", "/businesses", { name: "Careful", confirmations: { BITCOIN: 3, ETHEREUM: 20 } }), 201);
    expect(data.confirmations).toEqual({ BITCOIN: 3, ETHEREUM: 20 });
    const b = { businessId: data.businessId, apiKey: data.apiKey };
    const { id } = await createPayment(b);
    const db = await getDb();
    await selectCoin(db, id, "BITCOIN");
    expect((await checkoutView(db, id))!.charge!.requiredConfirmations).toBe(3);
    // Coins not named keep their default; a PATCH replaces the whole policy.
    const other = await createPayment(b);
    await selectCoin(db, other.id, "LITECOIN");
    expect((await checkoutView(db, other.id))!.charge!.requiredConfirmations).toBe(2);
    const patched = await ok(await admin("PATCH", `/businesses/${data.businessId}`, { confirmations: {} }));
    expect(patched.confirmations).toEqual({});
    await invalid(await admin("POST", "/businesses", { name: "X", confirmations: { BITCOIN: 0 } }), "confirmations.BITCOIN");
    await invalid(await admin("POST", "/businesses", { name: "X", confirmations: { BITCOIN: 2.5 } }), "confirmations.BITCOIN");
    await invalid(await admin("POST", "/businesses", { name: "X", confirmations: { DOGECOIN: 2 } }), "confirmations.DOGECOIN");
  });

  it("creates a sub-business under a parent", async () => {
    const parent = await newBusiness();
    const data = await ok(await admin("POST", "/businesses", { name: "Sub", parentBusinessId: parent.businessId }), 201);
    expect(data.parentBusinessId).toBe(parent.businessId);
    // Only one level of sub-businesses, and the parent must exist.
    await invalid(await admin("POST", "/businesses", { name: "Subsub", parentBusinessId: data.businessId }), "parentBusinessId");
    await invalid(await admin("POST", "/businesses", { name: "Orphan", parentBusinessId: 9_000_000_000 }), "parentBusinessId");
  });

  describe("validation errors → 400 naming the field", () => {
    // A name no other test file (sharing a PostgreSQL database) uses, to check nothing was created.
    const X = `refused ${randomUUID()}`;

    it.each([[4], [604801], [0], [-1], [60.5], ["3600"]])("paymentLifetimeSeconds %s", async (v) => {
      await invalid(await admin("POST", "/businesses", { name: X, paymentLifetimeSeconds: v }), "paymentLifetimeSeconds");
    });

    it("an unknown coin (UNKNOWN is not payable either)", async () => {
      await invalid(await admin("POST", "/businesses", { name: X, enabledCoins: ["BITCOIN", "DOGECOIN"] }), "enabledCoins[1]");
      await invalid(await admin("POST", "/businesses", { name: X, enabledCoins: ["UNKNOWN"] }), "enabledCoins[0]");
      await invalid(await admin("POST", "/businesses", { name: X, enabledCoins: [] }), "enabledCoins");
    });

    it("live mode with an http webhookUrl", async () => {
      await invalid(
        await admin("POST", "/businesses", { name: X, mode: "live", webhookUrl: "http://merchant.example/hooks" }),
        "webhookUrl",
      );
    });

    it("unknown fields", async () => {
      const body = await invalid(await admin("POST", "/businesses", { name: X, color: "blue", apiKey: "mine" }), "color");
      expect(body.errors).toHaveProperty("apiKey");
      expect(body.errors!.color[0]).toMatch(/unknown/i);
      // Names of Object.prototype members are unknown fields like any other.
      const proto = await invalid(await admin("POST", "/businesses", { name: X, constructor: 1, toString: "x" }), "constructor");
      expect(Object.keys(proto.errors!)).toEqual(expect.arrayContaining(["constructor", "toString"]));
    });

    it("missing or empty name, bad mode, bad URLs, bad percentages", async () => {
      await invalid(await admin("POST", "/businesses", {}), "name");
      await invalid(await admin("POST", "/businesses", { name: "   " }), "name");
      await invalid(await admin("POST", "/businesses", { name: X, mode: "prod" }), "mode");
      await invalid(await admin("POST", "/businesses", { name: X, webhookUrl: "ftp://x.example" }), "webhookUrl");
      await invalid(await admin("POST", "/businesses", { name: X, webhookUrl: "not a url" }), "webhookUrl");
      await invalid(await admin("POST", "/businesses", { name: X, feePercent: 101 }), "feePercent");
      await invalid(await admin("POST", "/businesses", { name: X, underpaymentTolerancePercent: -1 }), "underpaymentTolerancePercent");
    });

    it("a body that is not JSON, or not sent as JSON", async () => {
      await problem(await request("POST", "/admin/v1/businesses", { key: adminToken(), rawBody: "{name:", headers: { "content-type": "application/json" } }), 400);
      await problem(await request("POST", "/admin/v1/businesses", { key: adminToken(), rawBody: "name=X", headers: { "content-type": "application/x-www-form-urlencoded" } }), 415);
    });

    it("nothing was created by the refused requests", async () => {
      const db = await getDb();
      const rows = await db.select({ name: businesses.name }).from(businesses).where(eq(businesses.name, X));
      expect(rows).toEqual([]);
    });
  });
});

describe("GET and PATCH /admin/v1/businesses/{id}", () => {
  let b: Biz;
  beforeAll(async () => {
    b = await newBusiness();
  });

  it("GET returns the settings, without secrets", async () => {
    const data = await ok(await admin("GET", `/businesses/${b.businessId}`));
    expect(data).toMatchObject({
      businessId: b.businessId,
      name: b.name,
      mode: "test",
      webhookUrl: null,
      paymentLifetimeSeconds: 3600,
      feePercent: 0,
      underpaymentTolerancePercent: 0,
      parentBusinessId: null,
      createdAt: b.createdAt,
    });
    expect(data.enabledCoins).toEqual(DEFAULT_COINS);
    expect(data).not.toHaveProperty("webhookSecret");
    expect(data).not.toHaveProperty("apiKey");
    expect(JSON.stringify(data)).not.toContain("whsec_");
  });

  it("PATCH changes the given settings and leaves the others", async () => {
    const data = await ok(
      await admin("PATCH", `/businesses/${b.businessId}`, {
        name: "Renamed",
        webhookUrl: "http://localhost:9999/hook",
        feePercent: 2.5,
        enabledCoins: ["BITCOIN", "LITECOIN"],
      }),
    );
    expect(data).toMatchObject({
      businessId: b.businessId,
      name: "Renamed",
      webhookUrl: "http://localhost:9999/hook",
      feePercent: 2.5,
      enabledCoins: ["BITCOIN", "LITECOIN"],
      paymentLifetimeSeconds: 3600,
      mode: "test",
      underpaymentTolerancePercent: 0,
    });
    expect(await ok(await admin("GET", `/businesses/${b.businessId}`))).toEqual(data);
    // null clears the webhook URL; an empty patch changes nothing.
    expect((await ok(await admin("PATCH", `/businesses/${b.businessId}`, { webhookUrl: null }))).webhookUrl).toBeNull();
    const same = await ok(await admin("PATCH", `/businesses/${b.businessId}`, {}));
    expect(same).toEqual({ ...data, webhookUrl: null });
  });

  it("a lifetime change is reflected in a new payment's expiresAt", async () => {
    const data = await ok(await admin("PATCH", `/businesses/${b.businessId}`, { paymentLifetimeSeconds: 120 }));
    expect(data.paymentLifetimeSeconds).toBe(120);
    const { id } = await createPayment(b);
    const payment = (await json(await request("GET", `${paymentsPath(b.businessId)}/${id}`, { key: b.apiKey }))).data;
    expect(Date.parse(payment.expiresAt) - Date.parse(payment.createdAt)).toBe(120_000);

    await ok(await admin("PATCH", `/businesses/${b.businessId}`, { paymentLifetimeSeconds: 604800 }));
    const { id: id2 } = await createPayment(b);
    const p2 = (await json(await request("GET", `${paymentsPath(b.businessId)}/${id2}`, { key: b.apiKey }))).data;
    expect(Date.parse(p2.expiresAt) - Date.parse(p2.createdAt)).toBe(604_800_000);
    // The earlier payment keeps its own expiry.
    const again = (await json(await request("GET", `${paymentsPath(b.businessId)}/${id}`, { key: b.apiKey }))).data;
    expect(again.expiresAt).toBe(payment.expiresAt);
  });

  it("PATCH validation errors → 400, and nothing changes", async () => {
    const before = await ok(await admin("GET", `/businesses/${b.businessId}`));
    await invalid(await admin("PATCH", `/businesses/${b.businessId}`, { paymentLifetimeSeconds: 4 }), "paymentLifetimeSeconds");
    await invalid(await admin("PATCH", `/businesses/${b.businessId}`, { paymentLifetimeSeconds: 604801 }), "paymentLifetimeSeconds");
    await invalid(await admin("PATCH", `/businesses/${b.businessId}`, { enabledCoins: ["NOPE"] }), "enabledCoins[0]");
    await invalid(await admin("PATCH", `/businesses/${b.businessId}`, { name: "ok", foo: 1 }), "foo");
    // parentBusinessId is set at creation only.
    await invalid(await admin("PATCH", `/businesses/${b.businessId}`, { parentBusinessId: 1 }), "parentBusinessId");
    expect(await ok(await admin("GET", `/businesses/${b.businessId}`))).toEqual(before);
  });

  it("switching to live checks the live rules against the resulting settings", async () => {
    const t = await newBusiness({ webhookUrl: "http://localhost:3001/hook", enabledCoins: ["BITCOIN", "TON"] });
    // Its http webhook is not allowed for live.
    await invalid(await admin("PATCH", `/businesses/${t.businessId}`, { mode: "live" }), "webhookUrl");
    const live = await ok(
      await admin("PATCH", `/businesses/${t.businessId}`, {
        mode: "live",
        webhookUrl: "https://shop.example/hook",
        enabledCoins: ["BITCOIN", "ETHEREUM"],
      }),
    );
    expect(live).toMatchObject({ mode: "live", webhookUrl: "https://shop.example/hook", enabledCoins: ["BITCOIN", "ETHEREUM"] });
    // Once live: no http webhook.
    await invalid(await admin("PATCH", `/businesses/${t.businessId}`, { webhookUrl: "http://shop.example/hook" }), "webhookUrl");
  });
});

describe("API keys", () => {
  let b: Biz;
  beforeAll(async () => {
    b = await newBusiness();
  });
  const keysPath = () => `/businesses/${b.businessId}/api-keys`;

  it("creates an extra key (201) that works on /v1", async () => {
    const data = await ok(await admin("POST", keysPath()), 201);
    expect(data).toMatchObject({ keyId: expect.stringMatching(/^key_/), businessIds: [b.businessId], expiresAt: null });
    expect(decodeJwt(data.apiKey)).toMatchObject({ jti: data.keyId, bids: [b.businessId] });
    expect(data.keyId).not.toBe(b.keyId);
    expect(await works(b.businessId, data.apiKey)).toBe(200);
    // The first key keeps working.
    expect(await works(b.businessId, b.apiKey)).toBe(200);
  });

  it("creates a key with an expiry", async () => {
    const before = Date.now();
    const data = await ok(await admin("POST", keysPath(), { expiresInSeconds: 3600 }), 201);
    const expiresAt = Date.parse(data.expiresAt);
    expect(expiresAt).toBeGreaterThanOrEqual(before + 3_599_000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 3_600_000);
    expect(decodeJwt(data.apiKey).exp).toBe(Math.floor(expiresAt / 1000));
    expect(await works(b.businessId, data.apiKey)).toBe(200);
  });

  it("key creation validation", async () => {
    const stranger = await newBusiness();
    await invalid(await admin("POST", keysPath(), { businessIds: [stranger.businessId] }), "businessIds[0]");
    await invalid(await admin("POST", keysPath(), { expiresInSeconds: 59 }), "expiresInSeconds");
    await invalid(await admin("POST", keysPath(), { businessIds: [] }), "businessIds");
    await invalid(await admin("POST", keysPath(), { scope: "all" }), "scope");
  });

  it("lists the business's keys without the secret tokens", async () => {
    const created = await ok(await admin("POST", keysPath()), 201);
    const keys = await ok(await admin("GET", keysPath()));
    const ids = keys.map((k: { keyId: string }) => k.keyId);
    expect(ids).toContain(b.keyId);
    expect(ids).toContain(created.keyId);
    const entry = keys.find((k: { keyId: string }) => k.keyId === created.keyId);
    expect(entry).toEqual({
      keyId: created.keyId,
      businessIds: [b.businessId],
      createdAt: expect.any(String),
      expiresAt: null,
      revokedAt: null,
    });
    expect(JSON.stringify(keys)).not.toContain(created.apiKey);
    // Another business's keys are not listed.
    const other = await newBusiness();
    expect(ids).not.toContain(other.keyId);
  });

  it("revokes a key: 401 on /v1 afterwards, listed as revoked, revoking twice → 404", async () => {
    const created = await ok(await admin("POST", keysPath()), 201);
    expect(await works(b.businessId, created.apiKey)).toBe(200);

    const revoked = await ok(await admin("DELETE", `${keysPath()}/${created.keyId}`));
    expect(revoked).toMatchObject({ keyId: created.keyId, revokedAt: expect.any(String) });
    expect(Number.isNaN(Date.parse(revoked.revokedAt))).toBe(false);

    expect(await works(b.businessId, created.apiKey)).toBe(401);
    expect(await works(b.businessId, b.apiKey)).toBe(200);

    const keys = await ok(await admin("GET", keysPath()));
    expect(keys.find((k: { keyId: string }) => k.keyId === created.keyId).revokedAt).toBe(revoked.revokedAt);

    await problem(await admin("DELETE", `${keysPath()}/${created.keyId}`), 404);
  });

  it("a key is revoked only through its own business", async () => {
    const other = await newBusiness();
    await problem(await admin("DELETE", `${keysPath()}/${other.keyId}`), 404);
    expect(await works(other.businessId, other.apiKey)).toBe(200);
    await problem(await admin("DELETE", `${keysPath()}/key_doesnotexist`), 404);
    await invalid(await admin("DELETE", `${keysPath()}/not-a-key-id`), "keyId");
  });
});

describe("webhook secret rotation", () => {
  it("returns a new, distinct whsec_ secret and stores it", async () => {
    const b = await newBusiness();
    const first = await ok(await admin("POST", `/businesses/${b.businessId}/webhook-secret/rotate`));
    expect(Object.keys(first)).toEqual(["webhookSecret"]);
    expectWebhookSecret(first.webhookSecret);
    expect(first.webhookSecret).not.toBe(b.webhookSecret);
    const second = await ok(await admin("POST", `/businesses/${b.businessId}/webhook-secret/rotate`));
    expectWebhookSecret(second.webhookSecret);
    expect(second.webhookSecret).not.toBe(first.webhookSecret);

    const db = await getDb();
    const [row] = await db.select({ s: businesses.webhookSecret }).from(businesses).where(eq(businesses.id, b.businessId));
    expect(row.s).toBe(second.webhookSecret);
    // Rotation does not touch API keys.
    expect(await works(b.businessId, b.apiKey)).toBe(200);
  });
});

describe("unknown businesses and routes", () => {
  const missing = 9_000_000_000;

  it("an unknown business → 404 on every business route", async () => {
    await problem(await admin("GET", `/businesses/${missing}`), 404);
    await problem(await admin("PATCH", `/businesses/${missing}`, { name: "x" }), 404);
    await problem(await admin("GET", `/businesses/${missing}/api-keys`), 404);
    await problem(await admin("POST", `/businesses/${missing}/api-keys`), 404);
    await problem(await admin("DELETE", `/businesses/${missing}/api-keys/key_abc`), 404);
    await problem(await admin("POST", `/businesses/${missing}/webhook-secret/rotate`), 404);
  });

  it("a malformed business id → 400", async () => {
    await invalid(await admin("GET", "/businesses/abc"), "businessId");
    await invalid(await admin("GET", "/businesses/0"), "businessId");
  });

  it("an unknown admin route → 404 ProblemDetails", async () => {
    for (const [method, path] of [
      ["GET", "/nothing"],
      ["POST", "/businesses/1/unknown"],
      ["GET", "/businesses/1/api-keys/key_abc/extra"],
      ["DELETE", "/webhooks"],
    ]) {
      const body = await problem(await admin(method, path), 404);
      expect(body.title).toBe("Not found");
    }
  });

  it("an unsupported method on a known route → 405 ProblemDetails with Allow", async () => {
    const res = await admin("DELETE", "/businesses");
    await problem(res, 405);
    expect(res.headers.get("allow")).toBe("POST");
    const res2 = await admin("PUT", "/businesses/1");
    await problem(res2, 405);
    expect(res2.headers.get("allow")).toBe("GET, PATCH");
  });
});
