import { beforeAll, describe, expect, it, vi } from "vitest";

/**
 * D14: a token bucket per API key. Low limits for this file: 1 request/s, burst 3.
 *
 * `config()` parses the environment once per process, on first use. vitest runs every test file
 * in its own child process (pool "forks", isolation on), after test/setup.ts, so these values
 * reach this file's config and no other file's. vi.hoisted runs before the imports below (ES
 * imports are hoisted above ordinary statements), so nothing can have read the config earlier.
 */
vi.hoisted(() => {
  process.env.RATE_LIMIT_PER_SECOND = "1";
  process.env.RATE_LIMIT_BURST = "3";
});

import { config } from "@/lib/config";
import { adminToken, json, newBusiness, paymentsPath, request } from "./helpers";

const BURST = 3;
type Biz = Awaited<ReturnType<typeof newBusiness>>;

const list = (b: Biz, key = b.apiKey) => request("GET", paymentsPath(b.businessId), { key });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function expect429(res: Response) {
  const body = await json(res);
  expect(res.status, JSON.stringify(body)).toBe(429);
  expect(res.headers.get("content-type")).toMatch(/^application\/problem\+json/);
  expect(body).toMatchObject({
    type: expect.stringMatching(/\S/),
    title: expect.stringMatching(/\S/),
    status: 429,
    detail: expect.stringMatching(/\S/),
  });
  const retryAfter = res.headers.get("retry-after");
  expect(retryAfter).toMatch(/^\d+$/);
  expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
  return Number(retryAfter);
}

/** Uses up a fresh key's burst allowance; every request within it succeeds. */
async function exhaust(b: Biz, key = b.apiKey) {
  for (let i = 0; i < BURST; i++) {
    const res = await list(b, key);
    expect(res.status, `request ${i + 1} of the burst`).toBe(200);
  }
}

async function newKey(b: Biz): Promise<string> {
  const res = await request("POST", `/admin/v1/businesses/${b.businessId}/api-keys`, { key: adminToken() });
  expect(res.status).toBe(201);
  return (await json(res)).data.apiKey;
}

describe("rate limiting per API key (D14)", () => {
  let a: Biz, b: Biz;
  beforeAll(async () => {
    // Also opens (and migrates) the database, so no request below pays for that.
    a = await newBusiness();
    b = await newBusiness();
  });

  it("this file's limits are in effect", () => {
    expect(config().rateLimit).toEqual({ perSecond: 1, burst: BURST });
  });

  it("the burst succeeds, the next request → 429 with Retry-After", async () => {
    await exhaust(a);
    const retryAfter = await expect429(await list(a));
    expect(retryAfter).toBe(1); // one token at 1/s is at most 1 s away
    // Still limited right after, on any endpoint of the same key.
    await expect429(await request("POST", paymentsPath(a.businessId), { key: a.apiKey, body: { currency: "USD", amount: 10 } }));
  });

  it("other keys are unaffected: another business's key and a second key of the same business", async () => {
    const e = await newBusiness();
    const second = await newKey(e);
    await exhaust(e);
    await expect429(await list(e));
    // While e's first key is limited, its second key has a full burst of its own ...
    await exhaust(e, second);
    await expect429(await list(e, second));
    // ... and another business's key is untouched.
    expect((await list(b)).status).toBe(200);
  });

  it("after waiting Retry-After seconds, requests succeed again, at the refill rate", async () => {
    const c = await newBusiness();
    await exhaust(c);
    const retryAfter = await expect429(await list(c));
    await sleep(retryAfter * 1000 + 50);
    expect((await list(c)).status).toBe(200);
    // About one token was refilled, not the whole burst: a quick second request is limited.
    await expect429(await list(c));
  });

  it("an invalid key is answered 401, not 429, and does not use any key's allowance", async () => {
    const d = await newBusiness();
    for (let i = 0; i < BURST + 2; i++) {
      expect((await request("GET", paymentsPath(d.businessId), { key: "not-a-jwt" })).status).toBe(401);
    }
    await exhaust(d);
  });
});
