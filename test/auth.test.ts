import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { eq } from "drizzle-orm";
import { SignJWT, decodeJwt, generateKeyPair } from "jose";
import { getDb } from "@/db/client";
import { CREDENTIALS_CACHE_MS } from "@/db/queries/api-keys";
import { apiKeys } from "@/db/schema";
import { config } from "@/lib/config";
import { adminToken, createPayment, json, newBusiness, paymentsPath, request } from "./helpers";

/**
 * D6: API keys are HS256 JWTs issued by the service. Missing, malformed, wrongly signed, expired
 * or revoked → 401; valid but not for the addressed business → 403.
 */

type Biz = Awaited<ReturnType<typeof newBusiness>>;

const b64url = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url");
const nowSec = () => Math.floor(Date.now() / 1000);

function listWith(b: Biz, headers: Record<string, string>) {
  return request("GET", paymentsPath(b.businessId), { headers });
}
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function expectProblem(res: Response, status: number, title: string) {
  const body = await json(res);
  expect(res.status, JSON.stringify(body)).toBe(status);
  expect(res.headers.get("content-type")).toMatch(/^application\/problem\+json/);
  expect(body).toMatchObject({ type: expect.stringMatching(/\S/), title, status, detail: expect.stringMatching(/\S/) });
  expect(body).not.toHaveProperty("data");
  return body as { type: string; title: string; status: number; detail: string };
}

async function expect401(res: Response, detail?: RegExp) {
  const body = await expectProblem(res, 401, "Unauthorized");
  expect(res.headers.get("www-authenticate")).toMatch(/^Bearer\b/);
  if (detail) expect(body.detail).toMatch(detail);
  return body;
}

const expect403 = (res: Response) => expectProblem(res, 403, "Forbidden");

async function newKey(owner: Biz, body: Record<string, unknown> = {}) {
  const res = await request("POST", `/admin/v1/businesses/${owner.businessId}/api-keys`, { key: adminToken(), body });
  const payload = await json(res);
  expect(res.status, JSON.stringify(payload)).toBe(201);
  return payload.data as { keyId: string; apiKey: string; expiresAt: string | null };
}

/** A token signed with the service's own secret, so only the claim under test is wrong. */
function signWithServiceSecret(claims: Record<string, unknown>, opts: { jti?: string; iss?: string; exp?: number } = {}) {
  let jwt = new SignJWT(claims).setProtectedHeader({ alg: "HS256", typ: "JWT" }).setIssuedAt(nowSec() - 120);
  if (opts.jti) jwt = jwt.setJti(opts.jti);
  if (opts.iss) jwt = jwt.setIssuer(opts.iss);
  if (opts.exp !== undefined) jwt = jwt.setExpirationTime(opts.exp);
  return jwt.sign(config().apiKeySecret);
}

describe("401: missing or invalid credentials", () => {
  let b: Biz;
  beforeAll(async () => {
    b = await newBusiness();
  });

  it("accepts the business's own key (control)", async () => {
    expect((await listWith(b, bearer(b.apiKey))).status).toBe(200);
  });

  it("missing Authorization header", async () => {
    await expect401(await listWith(b, {}), /missing/i);
    await expect401(await request("POST", paymentsPath(b.businessId), { body: { currency: "USD", amount: 10 } }));
  });

  it("non-Bearer scheme", async () => {
    await expect401(await listWith(b, { authorization: `Basic ${Buffer.from("user:pass").toString("base64")}` }));
    await expect401(await listWith(b, { authorization: `Token ${b.apiKey}` }));
    await expect401(await listWith(b, { authorization: b.apiKey })); // no scheme at all
    await expect401(await listWith(b, { authorization: "Bearer" }));
    await expect401(await listWith(b, { authorization: "Bearer " }));
  });

  it.each([["not-a-jwt"], ["a.b.c"], ["eyJhbGciOiJIUzI1NiJ9.e30"], ["eyJhbGciOiJIUzI1NiJ9.%%%.sig"]])("malformed token %s", async (token) => {
    await expect401(await listWith(b, bearer(token)));
  });

  it("a key with extra bytes appended or truncated", async () => {
    await expect401(await listWith(b, bearer(`${b.apiKey}x`)));
    await expect401(await listWith(b, bearer(b.apiKey.slice(0, -2))));
  });

  it("alg: none (unsigned) token with otherwise valid claims", async () => {
    // Built by hand: jose refuses to produce unsigned JWS. Claims name a real key id and business.
    const token = `${b64url({ alg: "none", typ: "JWT" })}.${b64url({
      bids: [b.businessId],
      jti: b.keyId,
      iss: "cryptopay",
      iat: nowSec(),
    })}.`;
    await expect401(await listWith(b, bearer(token)));
    // The same with the signature of a genuine key glued on.
    const sig = b.apiKey.split(".")[2];
    await expect401(await listWith(b, bearer(`${token}${sig}`)));
  });

  it("wrong signature (another secret)", async () => {
    const token = await new SignJWT({ bids: [b.businessId] })
      .setProtectedHeader({ alg: "HS256", typ: "JWT" })
      .setJti(b.keyId)
      .setIssuer("cryptopay")
      .setIssuedAt()
      .sign(new TextEncoder().encode("another-secret-that-is-long-enough-1234567890"));
    await expect401(await listWith(b, bearer(token)), /signature/i);
  });

  it("tampered payload (claims changed after signing)", async () => {
    const other = await newBusiness();
    const [h, , s] = b.apiKey.split(".");
    const claims = decodeJwt(b.apiKey);
    const forged = `${h}.${b64url({ ...claims, bids: [other.businessId] })}.${s}`;
    await expect401(await listWith(other, bearer(forged)));
  });

  it("HS512 token, even signed with the service's own secret", async () => {
    const token = await new SignJWT({ bids: [b.businessId] })
      .setProtectedHeader({ alg: "HS512", typ: "JWT" })
      .setJti(b.keyId)
      .setIssuer("cryptopay")
      .setIssuedAt()
      .sign(config().apiKeySecret);
    await expect401(await listWith(b, bearer(token)), /algorithm/i);
  });

  it("RS256 token", async () => {
    const { privateKey } = await generateKeyPair("RS256");
    const token = await new SignJWT({ bids: [b.businessId] })
      .setProtectedHeader({ alg: "RS256", typ: "JWT" })
      .setJti(b.keyId)
      .setIssuer("cryptopay")
      .setIssuedAt()
      .sign(privateKey);
    await expect401(await listWith(b, bearer(token)));
  });

  it("correctly signed tokens the service never issued", async () => {
    // Unknown key id.
    await expect401(
      await listWith(b, bearer(await signWithServiceSecret({ bids: [b.businessId] }, { jti: "key_neverissued", iss: "cryptopay" }))),
      /not known/i,
    );
    // Wrong issuer, missing jti, bids missing or malformed.
    await expect401(await listWith(b, bearer(await signWithServiceSecret({ bids: [b.businessId] }, { jti: b.keyId, iss: "someone-else" }))));
    await expect401(await listWith(b, bearer(await signWithServiceSecret({ bids: [b.businessId] }, { iss: "cryptopay" }))));
    await expect401(await listWith(b, bearer(await signWithServiceSecret({}, { jti: b.keyId, iss: "cryptopay" }))));
    await expect401(await listWith(b, bearer(await signWithServiceSecret({ bids: String(b.businessId) }, { jti: b.keyId, iss: "cryptopay" }))));
    await expect401(await listWith(b, bearer(await signWithServiceSecret({ bids: [0] }, { jti: b.keyId, iss: "cryptopay" }))));
  });

  it("authentication is checked before permission: a bad key on another business is 401, not 403", async () => {
    const other = await newBusiness();
    await expect401(await listWith(other, bearer("not-a-jwt")));
    await expect401(await listWith(other, {}));
  });
});

describe("401: expired keys", () => {
  let b: Biz;
  beforeAll(async () => {
    b = await newBusiness();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("a key issued with expiresInSeconds stops working once the time has passed", async () => {
    const key = await newKey(b, { expiresInSeconds: 60 });
    expect(decodeJwt(key.apiKey).exp).toBe(Math.floor(Date.parse(key.expiresAt!) / 1000));
    expect((await listWith(b, bearer(key.apiKey))).status).toBe(200);
    // Fake only Date (not setTimeout & co., which the database drivers rely on) and move the
    // clock past the expiry: jose's `exp` check and the stored expires_at both read Date.
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.parse(key.expiresAt!) + 1000);
    await expect401(await listWith(b, bearer(key.apiKey)), /expired/i);
    vi.useRealTimers();
    // Back in the present the key is valid again: the check is time-based, not a state change.
    expect((await listWith(b, bearer(key.apiKey))).status).toBe(200);
    // Other keys of the business are unaffected at the later time.
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.parse(key.expiresAt!) + 1000);
    expect((await listWith(b, bearer(b.apiKey))).status).toBe(200);
  });

  it("a token whose exp lies in the past (signed with the service secret for a real key id)", async () => {
    // Built directly with jose: the admin API cannot issue an already-expired key.
    const token = await signWithServiceSecret({ bids: [b.businessId] }, { jti: b.keyId, iss: "cryptopay", exp: nowSec() - 10 });
    await expect401(await listWith(b, bearer(token)), /expired/i);
  });

  it("the stored expiry is enforced too, also when changed directly in the database", async () => {
    const key = await newKey(b);
    expect((await listWith(b, bearer(key.apiKey))).status).toBe(200);
    // Fixture: expire the stored row only (the JWT has no exp), behind the service's back (as
    // an operator's SQL or another instance would): seen once the instance's copy of the row
    // is CREDENTIALS_CACHE_MS old.
    const db = await getDb();
    await db.update(apiKeys).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(apiKeys.id, key.keyId));
    await new Promise((r) => setTimeout(r, CREDENTIALS_CACHE_MS + 50));
    await expect401(await listWith(b, bearer(key.apiKey)), /expired/i);
  });
});

describe("401: revoked keys", () => {
  it("a revoked key is refused at once; the business's other keys keep working", async () => {
    const b = await newBusiness();
    const key = await newKey(b);
    const { id } = await createPayment({ businessId: b.businessId, apiKey: key.apiKey });
    expect((await listWith(b, bearer(key.apiKey))).status).toBe(200);

    const del = await request("DELETE", `/admin/v1/businesses/${b.businessId}/api-keys/${key.keyId}`, { key: adminToken() });
    expect(del.status).toBe(200);

    await expect401(await listWith(b, bearer(key.apiKey)), /revoked/i);
    await expect401(await request("GET", `${paymentsPath(b.businessId)}/${id}`, { key: key.apiKey }), /revoked/i);
    await expect401(
      await request("POST", paymentsPath(b.businessId), { key: key.apiKey, body: { currency: "USD", amount: 10 } }),
      /revoked/i,
    );
    await expect401(await request("PUT", `${paymentsPath(b.businessId)}/${id}/note`, { key: key.apiKey, body: { note: "x" } }), /revoked/i);
    expect((await listWith(b, bearer(b.apiKey))).status).toBe(200);
  });

  it("revoking the key a business was created with", async () => {
    const b = await newBusiness();
    const del = await request("DELETE", `/admin/v1/businesses/${b.businessId}/api-keys/${b.keyId}`, { key: adminToken() });
    expect(del.status).toBe(200);
    await expect401(await listWith(b, bearer(b.apiKey)), /revoked/i);
  });
});

describe("403: valid key, wrong business", () => {
  let a: Biz, b: Biz;
  let paymentOfA: string;
  beforeAll(async () => {
    a = await newBusiness();
    b = await newBusiness();
    paymentOfA = (await createPayment(a)).id;
  });

  it("a key for another business is refused on every endpoint", async () => {
    await expect403(await listWith(a, bearer(b.apiKey)));
    await expect403(await request("POST", paymentsPath(a.businessId), { key: b.apiKey, body: { currency: "USD", amount: 10 } }));
    await expect403(await request("GET", `${paymentsPath(a.businessId)}/${paymentOfA}`, { key: b.apiKey }));
    await expect403(await request("PUT", `${paymentsPath(a.businessId)}/${paymentOfA}/note`, { key: b.apiKey, body: { note: "x" } }));
    // Nothing was changed by the refused calls.
    const res = await request("GET", `${paymentsPath(a.businessId)}/${paymentOfA}`, { key: a.apiKey });
    expect((await json(res)).data.note).toBeNull();
    expect((await json(await listWith(a, bearer(a.apiKey)))).data.totalCount).toBe(1);
  });

  it("a business that does not exist is 403 as well (ids are not revealed)", async () => {
    await expect403(await request("GET", paymentsPath(9_000_000_000), { key: a.apiKey }));
  });

  it("another business's payment id is not reachable through one's own business path", async () => {
    const res = await request("GET", `${paymentsPath(b.businessId)}/${paymentOfA}`, { key: b.apiKey });
    expect(res.status).toBe(404);
  });
});

describe("sub-businesses", () => {
  let parent: Biz, sub: Biz, sibling: Biz;
  beforeAll(async () => {
    parent = await newBusiness();
    sub = await newBusiness({ parentBusinessId: parent.businessId });
    sibling = await newBusiness({ parentBusinessId: parent.businessId });
  });

  it("a parent-business key acts on its sub-business", async () => {
    const asParent = { businessId: sub.businessId, apiKey: parent.apiKey };
    const { id } = await createPayment(asParent);
    const get = await request("GET", `${paymentsPath(sub.businessId)}/${id}`, { key: parent.apiKey });
    expect(get.status).toBe(200);
    expect((await json(get)).data.onBehalfOfBusinessId).toBe(sub.businessId);
    const note = await request("PUT", `${paymentsPath(sub.businessId)}/${id}/note`, { key: parent.apiKey, body: { note: "by parent" } });
    expect(note.status).toBe(200);
    const listed = await json(await listWith(sub, bearer(parent.apiKey)));
    expect(listed.data.items.map((p: { id: string }) => p.id)).toContain(id);
    // The sub-business's own key sees it too.
    expect((await request("GET", `${paymentsPath(sub.businessId)}/${id}`, { key: sub.apiKey })).status).toBe(200);
  });

  it("a sub-business key cannot act on its parent", async () => {
    const { id } = await createPayment(parent);
    await expect403(await listWith(parent, bearer(sub.apiKey)));
    await expect403(await request("POST", paymentsPath(parent.businessId), { key: sub.apiKey, body: { currency: "USD", amount: 10 } }));
    await expect403(await request("GET", `${paymentsPath(parent.businessId)}/${id}`, { key: sub.apiKey }));
    await expect403(await request("PUT", `${paymentsPath(parent.businessId)}/${id}/note`, { key: sub.apiKey, body: { note: "x" } }));
  });

  it("a sub-business key cannot act on a sibling", async () => {
    await expect403(await listWith(sibling, bearer(sub.apiKey)));
    await expect403(await request("POST", paymentsPath(sibling.businessId), { key: sub.apiKey, body: { currency: "USD", amount: 10 } }));
  });

  it("a parent key restricted to one sub-business acts for that one only", async () => {
    const key = await newKey(parent, { businessIds: [sub.businessId] });
    expect((await listWith(sub, bearer(key.apiKey))).status).toBe(200);
    await expect403(await listWith(parent, bearer(key.apiKey)));
    await expect403(await listWith(sibling, bearer(key.apiKey)));
  });
});

describe("admin API authentication", () => {
  let b: Biz;
  beforeAll(async () => {
    b = await newBusiness();
  });

  const calls = (): [string, string, unknown][] => [
    ["POST", "/admin/v1/businesses", { name: "x" }],
    ["GET", `/admin/v1/businesses/${b.businessId}`, undefined],
    ["PATCH", `/admin/v1/businesses/${b.businessId}`, { name: "y" }],
    ["GET", `/admin/v1/businesses/${b.businessId}/api-keys`, undefined],
    ["POST", `/admin/v1/businesses/${b.businessId}/api-keys`, {}],
    ["DELETE", `/admin/v1/businesses/${b.businessId}/api-keys/${b.keyId}`, undefined],
    ["POST", `/admin/v1/businesses/${b.businessId}/webhook-secret/rotate`, undefined],
  ];

  it("missing admin token → 401 on every admin route", async () => {
    for (const [method, path, body] of calls()) {
      await expect401(await request(method, path, { body }));
    }
  });

  it("wrong admin token → 401 on every admin route", async () => {
    for (const [method, path, body] of calls()) {
      await expect401(await request(method, path, { body, key: `${adminToken()}x` }));
    }
    const res = await request("GET", `/admin/v1/businesses/${b.businessId}`, { key: "short" });
    await expect401(res);
  });

  it("a merchant API key is not an admin token", async () => {
    await expect401(await request("GET", `/admin/v1/businesses/${b.businessId}`, { key: b.apiKey }));
  });

  it("the admin token in a non-Bearer scheme → 401", async () => {
    await expect401(await request("GET", `/admin/v1/businesses/${b.businessId}`, { headers: { authorization: `Basic ${adminToken()}` } }));
  });

  it("nothing was changed by the refused calls; the key still works", async () => {
    const res = await request("GET", `/admin/v1/businesses/${b.businessId}`, { key: adminToken() });
    expect(res.status).toBe(200);
    expect((await json(res)).data.name).toBe(b.name);
    expect((await listWith(b, bearer(b.apiKey))).status).toBe(200);
  });

  it("the admin token is not a merchant API key", async () => {
    await expect401(await listWith(b, bearer(adminToken())));
  });
});
