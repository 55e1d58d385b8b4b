import { beforeAll, describe, expect, it } from "vitest";
import { adminToken, createPayment, expectProblem, json, newBusiness, paymentsPath, request } from "./helpers";

/**
 * Inputs a hostile client found to reach a 500, to be rounded silently, or to be half-checked.
 * Each case failed before the fix it guards.
 */
type Biz = Awaited<ReturnType<typeof newBusiness>>;
let b: Biz;
let live: Biz;
beforeAll(async () => {
  b = await newBusiness();
  live = await newBusiness({ mode: "live" });
  await createPayment(b, { currency: "USD", amount: 10 });
});

const list = (query: string, biz: Biz = b) => request("GET", `${paymentsPath(biz.businessId)}?${query}`, { key: biz.apiKey });
const create = (body: unknown, biz: Biz = b, headers?: Record<string, string>) =>
  request("POST", paymentsPath(biz.businessId), { key: biz.apiKey, body, headers });

describe("time parameters are bounded to years 1-9999 UTC (one parser)", () => {
  it.each([
    ["fromTime", "0000-01-01T00:00:00Z"],
    ["toTime", "9999-12-31T23:59:59-14:00"],
    ["fromTime", "0001-01-01T00:00:00+01:00"],
    ["toTime", "10000-01-01T00:00:00Z"],
  ])("%s=%s → 400 naming it", async (name, value) => {
    await expectProblem(await list(`${name}=${encodeURIComponent(value)}`), 400, [name]);
  });

  it("accepts the first and last instants of the range", async () => {
    const res = await list(`fromTime=${encodeURIComponent("0001-01-01T00:00:00Z")}&toTime=${encodeURIComponent("9999-12-31T23:59:59+00:00")}`);
    expect(res.status, await res.clone().text()).toBe(200);
    expect((await json(res)).data.totalCount).toBe(1);
  });
});

describe("one text rule for every string input, query included", () => {
  it.each(["a%00b", "a%01b", "%1B%5B31m", "a%7Fb"])("searchString=%s → 400 naming it", async (v) => {
    await expectProblem(await list(`searchString=${v}`), 400, ["searchString"]);
  });

  it("a control character in a body string → 400 naming the field", async () => {
    await expectProblem(await create({ currency: "USD", amount: 10, name: "a\u001bb", description: "tab\tand\nnewline are fine" }), 400, ["name"]);
  });

  it("tab, line feed and carriage return are text", async () => {
    const res = await create({ currency: "USD", amount: 10, description: "line 1\r\nline\t2" });
    expect(res.status).toBe(200);
  });
});

describe("currencies are accepted only where a rate can be had", () => {
  it.each(["BOV", "CHE", "CLF", "VES", "ZWG", "IRR"])("%s → 400 naming currency, no payment", async (currency) => {
    const problem = await expectProblem(await create({ currency, amount: 10 }), 400, ["currency"]);
    expect(problem.errors.currency[0]).toMatch(/no exchange rate/);
  });

  it("XAU is an ISO code, refused for having no minor units, not as 'not ISO 4217'", async () => {
    const problem = await expectProblem(await create({ currency: "XAU", amount: 10 }), 400, ["currency"]);
    expect(problem.errors.currency[0]).toMatch(/no minor units/);
    const notIso = await expectProblem(await create({ currency: "ABC", amount: 10 }), 400, ["currency"]);
    expect(notIso.errors.currency[0]).toMatch(/not an ISO 4217/);
  });

  it("the document lists exactly the accepted currencies", async () => {
    const doc = (await import("@/lib/openapi/document")).buildOpenApiDocument() as any;
    const currency = doc.components.schemas.CreatePaymentRequest.properties.currency;
    const codes = currency.anyOf[0].enum as string[];
    expect(codes).toContain("EUR");
    expect(codes).not.toContain("BOV");
    expect(new RegExp(currency.anyOf[1].pattern).test("eUr")).toBe(true);
    expect(new RegExp(currency.anyOf[1].pattern).test("bov")).toBe(false);
    for (const code of codes) {
      expect((await create({ currency: code, amount: 10 })).status, code).toBe(200);
    }
  });
});

describe("amounts are read exactly from the body text", () => {
  const post = (amount: string, currency = "USD") =>
    request("POST", paymentsPath(b.businessId), {
      key: b.apiKey,
      rawBody: `{"currency":"${currency}","amount":${amount}}`,
      headers: { "content-type": "application/json" },
    });

  it.each(["0.499999999999999999999", "1.10000000000000000001", "10.000000000000000000001", "1e400"])("%s → 400 naming amount", async (amount) => {
    await expectProblem(await post(amount), 400, ["amount"]);
  });

  it("every wrong field is named together with an inexact amount", async () => {
    const res = await request("POST", paymentsPath(b.businessId), {
      key: b.apiKey,
      rawBody: '{"currency":"EURO","amount":0.499999999999999999999,"name":"a\\u0000b"}',
      headers: { "content-type": "application/json" },
    });
    await expectProblem(res, 400, ["currency", "amount", "name"]);
  });

  it.each([
    ["49.90", 49.9],
    ["1e2", 100],
    ["0.5", 0.5],
    ["1000000000", 1_000_000_000],
  ])("%s is exact and accepted as %d", async (text, value) => {
    const res = await post(text);
    expect(res.status, await res.clone().text()).toBe(200);
    const { id } = (await json(res)).data;
    const rec = (await json(await request("GET", `${paymentsPath(b.businessId)}/${id}`, { key: b.apiKey }))).data;
    expect(rec.prePaymentAmount).toBe(value);
  });

  it("an inexact number anywhere in a body is named (admin percentages too)", async () => {
    const res = await request("POST", "/admin/v1/businesses", {
      key: adminToken(),
      rawBody: '{"name":"Shop","feePercent":1.00000000000000000001}',
      headers: { "content-type": "application/json" },
    });
    await expectProblem(res, 400, ["feePercent"]);
  });
});

describe("a live business's URL rule is checked with the schema, every field at once", () => {
  it("both bad URLs are named, with the other errors", async () => {
    const problem = await expectProblem(
      await create({ currency: "USD", amount: 0.1, notifyUrl: "http://x/", redirectUrl: "http://y/" }, live),
      400,
      ["amount", "notifyUrl", "redirectUrl"],
    );
    expect(problem.errors.notifyUrl[0]).toMatch(/https/);
  });

  it("a private https address is refused, a public one accepted", async () => {
    await expectProblem(await create({ currency: "USD", amount: 1, notifyUrl: "https://10.0.0.1/h" }, live), 400, ["notifyUrl"]);
    expect((await create({ currency: "USD", amount: 1, notifyUrl: "https://shop.example.com/h" }, live)).status).toBe(200);
  });

  it("a malformed Idempotency-Key is named with the body's errors", async () => {
    await expectProblem(await create({ currency: "USD", amount: 0.1 }, b, { "Idempotency-Key": "" }), 400, ["amount", "Idempotency-Key"]);
  });
});

describe("integer query parameters take plain decimal digits only", () => {
  it.each(["PageSize=0x10", "PageSize=1e1", "PageSize=%2020", "PageSize=", "PageNumber=+1", "PageNumber=1.0", "fromAmount=0x10", "fromAmount=1e2", "fromAmount=", "toAmount=%2010"])(
    "%s → 400 naming it",
    async (q) => {
      await expectProblem(await list(q), 400, [q.split("=")[0]]);
    },
  );

  it("an out-of-range business id is reported once", async () => {
    const problem = await expectProblem(await list("onBehalfOfBusinessId=9223372036854775808"), 400, ["onBehalfOfBusinessId"]);
    expect(problem.errors.onBehalfOfBusinessId).toHaveLength(1);
  });

  it("plain values work, and an empty searchString applies no filter", async () => {
    const fresh = await newBusiness();
    await createPayment(fresh, { currency: "USD", amount: 10 });
    const res = await list("PageSize=10&PageNumber=1&fromAmount=5&toAmount=10.50&searchString=", fresh);
    expect(res.status, await res.clone().text()).toBe(200);
    expect((await json(res)).data.totalCount).toBe(1);
  });

  it("the admin delivery log reads its query with the same rules", async () => {
    const res = await request("GET", `/admin/v1/businesses/${b.businessId}/webhook-deliveries?PageSize=0x10`, { key: adminToken() });
    await expectProblem(res, 400, ["PageSize"]);
  });
});

describe("an optional body (POST …/api-keys)", () => {
  const post = (rawBody: string, headers: Record<string, string>) =>
    request("POST", `/admin/v1/businesses/${b.businessId}/api-keys`, { key: adminToken(), rawBody, headers });

  it("JSON null is not an object: 400 naming body, no key issued", async () => {
    await expectProblem(await post("null", { "content-type": "text/json" }), 400, ["body"]);
  });

  it("an empty body is accepted under a JSON content type, or none", async () => {
    expect((await post("", { "content-type": "application/json" })).status).toBe(201);
    expect((await post("  ", {})).status).toBe(201);
  });

  it("a body that is present must be JSON", async () => {
    await expectProblem(await post("{}", { "content-type": "text/plain" }), 415);
  });
});

describe("sums and ids at the edges", () => {
  it("fee transfers adding up to exactly 100 in decimals are accepted (no float sum)", async () => {
    const feeTransfers = [0.2, 83.9, 15.9].map((percent) => ({ businessId: b.businessId, percent }));
    const res = await create({ currency: "USD", amount: 10, feeTransfers });
    expect(res.status, await res.clone().text()).toBe(200);
    await expectProblem(await create({ currency: "USD", amount: 10, feeTransfers: [...feeTransfers, { businessId: 1, percent: 0.1 }] }), 400, ["feeTransfers"]);
  });

  it("a delivery id past 2^53-1 is a 400 naming it, not a 404", async () => {
    const res = await request("POST", `/admin/v1/businesses/${b.businessId}/webhook-deliveries/9007199254740993/redeliver`, { key: adminToken() });
    await expectProblem(res, 400, ["deliveryId"]);
  });
});

describe("what the fuzzer found in the document's own terms", () => {
  it("a simulated transfer of more coins than the column holds is a 400, not a 500", async () => {
    const { id } = await createPayment(b, { currency: "USD", amount: 10 });
    const sim = (body: unknown) => request("POST", `${paymentsPath(b.businessId)}/${id}/simulate`, { key: b.apiKey, body });
    expect((await sim({ action: "select", coin: "BITCOIN" })).status).toBe(200);
    await expectProblem(await sim({ action: "pay", amount: 4.2916555475688667e105 }), 400, ["amount"]);
  });

  it("a business name is at most 200 characters as sent, before trimming", async () => {
    const res = await request("PATCH", `/admin/v1/businesses/${b.businessId}`, { key: adminToken(), body: { name: `\t${"x".repeat(200)}` } });
    await expectProblem(res, 400, ["name"]);
  });

  it("every URL the document's pattern admits is accepted; one it refuses is refused by the server too", async () => {
    const { URL_SCHEME_PATTERN } = await import("@/lib/http/rules");
    const re = new RegExp(URL_SCHEME_PATTERN, "u");
    for (const url of ["http://localhost:4000/hook", "HTTPS://Shop.Example.com:8443/a?b=c#d", "http://10.0.0.1/x", "https://a-b.c0m"]) {
      expect(re.test(url), url).toBe(true);
      expect((await create({ currency: "USD", amount: 10, notifyUrl: url })).status, url).toBe(200);
    }
    expect(re.test("HtTP:n.83")).toBe(false);
    await expectProblem(await create({ currency: "USD", amount: 10, notifyUrl: "HtTP:n.83" }), 400, ["notifyUrl"]);
  });
});
