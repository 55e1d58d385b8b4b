import { beforeEach, describe, expect, it } from "vitest";
import { expectProblem, json, newBusiness, paymentsPath, request } from "./helpers";

type Biz = Awaited<ReturnType<typeof newBusiness>>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const base = { currency: "USD", amount: 10 };

let b: Biz;
beforeEach(async () => {
  // A business per test keeps every test far below the per-key rate limit and independent.
  b = await newBusiness();
});

const post = (body: unknown, biz: Biz = b) => request("POST", paymentsPath(biz.businessId), { key: biz.apiKey, body });

async function accepted(body: unknown, biz: Biz = b): Promise<{ id: string; url: string }> {
  const res = await post(body, biz);
  const text = await res.text();
  expect(res.status, text).toBe(200);
  return JSON.parse(text).data;
}

async function fetchRecord(id: string, biz: Biz = b) {
  const res = await request("GET", `${paymentsPath(biz.businessId)}/${id}`, { key: biz.apiKey });
  expect(res.status).toBe(200);
  return (await json(res)).data;
}

/** A 400 ProblemDetails whose `errors` names exactly `fields`, and whose `detail` names them too. */
async function rejected(body: unknown, fields: string[], biz: Biz = b) {
  const problem = await expectProblem(await post(body, biz), 400, fields);
  for (const f of fields) expect(problem.detail).toContain(f);
  return problem;
}

describe("POST /v1/businesses/{businessId}/payments — success", () => {
  it("returns 200 with the envelope { data: { id, url }, message: null, errors: null }", async () => {
    const res = await post(base);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    const body = await json(res);
    expect(Object.keys(body).sort()).toEqual(["data", "errors", "message"]);
    expect(body.message).toBeNull();
    expect(body.errors).toBeNull();
    expect(Object.keys(body.data).sort()).toEqual(["id", "url"]);
    expect(body.data.id).toMatch(UUID);
    expect(body.data.url).toBe(`http://pay.test/pay/${body.data.id}`);
  });

  it("gives every payment a new id", async () => {
    const a = await accepted(base);
    const c = await accepted(base);
    expect(a.id).not.toBe(c.id);
  });

  it("accepts every optional field at once and stores them", async () => {
    const full = {
      currency: "EUR",
      amount: 99.99,
      name: "Order #1",
      description: "internal",
      customerEmail: "buyer+tag@example.co.uk",
      customerIp: "203.0.113.7",
      customerUserAgent: "Mozilla/5.0",
      redirectUrl: "https://shop.example.com/thanks?order=1",
      notifyUrl: "http://localhost:4000/hook",
      metadata: { orderId: "1", sku: "A-1" },
      paymentMethods: { PLATFORM_CRYPTO: ["BITCOIN"], CONTRACT_CRYPTO: ["CONTRACT_ERC20_USDT"] },
      feeTransfers: [{ businessId: b.businessId, percent: 2.5 }],
    };
    const { id } = await accepted(full);
    const rec = await fetchRecord(id);
    expect(rec).toMatchObject({
      currency: "EUR",
      prePaymentAmount: 99.99,
      endAmount: 99.99,
      name: "Order #1",
      description: "internal",
      metadata: { orderId: "1", sku: "A-1" },
      status: "AWAITING_PAYMENT",
    });
    expect(rec.customer.email).toBe("buyer+tag@example.co.uk");
    expect(rec.customer.ipAddresses.map((i: { ip: string }) => i.ip)).toEqual(["203.0.113.7"]);
  });
});

describe("currency", () => {
  it("accepts a lowercase code and normalises it to upper case", async () => {
    const { id } = await accepted({ currency: "eur", amount: 5 });
    expect((await fetchRecord(id)).currency).toBe("EUR");
  });

  it("accepts a mixed-case code", async () => {
    const { id } = await accepted({ currency: "gBp", amount: 5 });
    expect((await fetchRecord(id)).currency).toBe("GBP");
  });

  it.each([
    ["an unknown three-letter code", "ABC"],
    ["a two-letter code", "US"],
    ["a four-letter code", "USDT"],
    ["a crypto ticker", "BTC"],
    ["the ISO test code", "XTS"],
    ["the no-currency code", "XXX"],
    ["gold", "XAU"],
    ["an empty string", ""],
    ["digits", "840"],
    ["a code with spaces", " USD"],
  ])("refuses %s (%j)", async (_what, currency) => {
    await rejected({ currency, amount: 10 }, ["currency"]);
  });

  it.each([
    ["a number", 840],
    ["null", null],
    ["an array", ["USD"]],
    ["an object", { code: "USD" }],
  ])("refuses %s as currency", async (_what, currency) => {
    await rejected({ currency, amount: 10 }, ["currency"]);
  });

  it("is required", async () => {
    await rejected({ amount: 10 }, ["currency"]);
  });
});

describe("amount and minor units (D10)", () => {
  it.each([
    ["USD", 10.01],
    ["USD", 0.5],
    ["EUR", 19.99],
    ["JPY", 1000],
    ["JPY", 1],
    ["KWD", 1.234],
    ["KWD", 0.5],
    ["BHD", 12.345],
  ])("accepts %s %d", async (currency, amount) => {
    const { id } = await accepted({ currency, amount });
    const rec = await fetchRecord(id);
    expect(rec.prePaymentAmount).toBe(amount);
    expect(rec.endAmount).toBe(amount);
    expect(rec.currency).toBe(currency);
  });

  it.each([
    ["USD", 10.001],
    ["USD", 0.501],
    ["EUR", 1.999],
    ["JPY", 1000.5],
    ["JPY", 0.5],
    ["KWD", 1.2345],
    ["BHD", 0.5001],
  ])("refuses %s %d (more decimals than the currency has), naming amount", async (currency, amount) => {
    const problem = await rejected({ currency, amount }, ["amount"]);
    expect(problem.errors.amount.join(" ")).toMatch(/decimal/);
  });

  it("normalises lowercase currency before checking minor units", async () => {
    await rejected({ currency: "jpy", amount: 10.5 }, ["amount"]);
    await accepted({ currency: "kwd", amount: 10.125 });
  });

  it("accepts the minimum 0.5 and refuses 0.49", async () => {
    await accepted({ currency: "USD", amount: 0.5 });
    const problem = await rejected({ currency: "USD", amount: 0.49 }, ["amount"]);
    expect(problem.errors.amount.join(" ")).toContain("0.5");
  });

  it.each([0, -1, -0.5, 0.1])("refuses %d", async (amount) => {
    await rejected({ currency: "USD", amount }, ["amount"]);
  });

  it("accepts the maximum and refuses more", async () => {
    await accepted({ currency: "USD", amount: 1_000_000_000 });
    await rejected({ currency: "USD", amount: 1_000_000_000.01 }, ["amount"]);
    await rejected({ currency: "USD", amount: 1e15 }, ["amount"]);
  });

  it.each([
    ["a numeric string", "10"],
    ["a non-numeric string", "ten"],
    ["null", null],
    ["a boolean", true],
    ["an array", [10]],
    ["an object", { value: 10 }],
  ])("refuses %s as amount", async (_what, amount) => {
    await rejected({ currency: "USD", amount }, ["amount"]);
  });

  it("refuses a JSON number too large for a double (1e400)", async () => {
    const res = await request("POST", paymentsPath(b.businessId), {
      key: b.apiKey,
      rawBody: '{"currency":"USD","amount":1e400}',
      headers: { "content-type": "application/json" },
    });
    await expectProblem(res, 400, ["amount"]);
  });

  it("is required", async () => {
    await rejected({ currency: "USD" }, ["amount"]);
  });

  it("names both required fields when both are missing", async () => {
    await rejected({}, ["amount", "currency"]);
  });
});

describe("body shape", () => {
  it.each([
    ["an array", [base]],
    ["null", null],
    ["a string", "USD 10"],
    ["a number", 10],
  ])("refuses %s as the body, naming body", async (_what, body) => {
    await rejected(body, ["body"]);
  });

  it("refuses unknown top-level fields, naming each", async () => {
    const problem = await rejected({ ...base, foo: 1, orderId: "x" }, ["foo", "orderId"]);
    expect(problem.errors.foo).toEqual(["unknown field"]);
    expect(problem.errors.orderId).toEqual(["unknown field"]);
  });

  it("refuses a wrongly cased field name as unknown", async () => {
    await rejected({ ...base, CustomerEmail: "a@example.com" }, ["CustomerEmail"]);
  });

  it("reports every invalid field of one body together", async () => {
    await rejected(
      { currency: "ZZZ", amount: 0.1, customerEmail: "nope", redirectUrl: "/relative", extra: true },
      ["amount", "currency", "customerEmail", "extra", "redirectUrl"],
    );
  });
});

describe("name, description, customerUserAgent", () => {
  it("accepts name of 200 and description of 1000 characters", async () => {
    const { id } = await accepted({ ...base, name: "n".repeat(200), description: "d".repeat(1000) });
    const rec = await fetchRecord(id);
    expect(rec.name).toHaveLength(200);
    expect(rec.description).toHaveLength(1000);
  });

  it("refuses name of 201 characters", async () => {
    await rejected({ ...base, name: "n".repeat(201) }, ["name"]);
  });

  it("refuses description of 1001 characters", async () => {
    await rejected({ ...base, description: "d".repeat(1001) }, ["description"]);
  });

  it("refuses customerUserAgent of 1025 characters", async () => {
    await accepted({ ...base, customerUserAgent: "u".repeat(1024) });
    await rejected({ ...base, customerUserAgent: "u".repeat(1025) }, ["customerUserAgent"]);
  });

  it.each(["name", "description", "customerUserAgent"])("refuses a non-string %s", async (field) => {
    await rejected({ ...base, [field]: 123 }, [field]);
    await rejected({ ...base, [field]: { x: 1 } }, [field]);
  });

  it("stores non-ASCII text unchanged", async () => {
    const name = "Café ☕ — 東京 😀";
    const { id } = await accepted({ ...base, name });
    expect((await fetchRecord(id)).name).toBe(name);
  });

  it("refuses text PostgreSQL cannot store (NUL, lone surrogate) with a 400, not a 500", async () => {
    await rejected({ ...base, name: "a\u0000b" }, ["name"]);
    await rejected({ ...base, description: "\ud800x" }, ["description"]);
    await rejected({ ...base, customerUserAgent: "UA\u0000", customerIp: "192.0.2.1" }, ["customerUserAgent"]);
  });
});

describe("customerEmail", () => {
  it.each(["buyer@example.com", "first.last+tag@sub.example.org", "UPPER@EXAMPLE.COM"])("accepts %s", async (email) => {
    await accepted({ ...base, customerEmail: email });
  });

  it.each(["not-an-email", "a@", "@example.com", "a b@example.com", "", "a@@example.com"])(
    "refuses %j",
    async (email) => {
      await rejected({ ...base, customerEmail: email }, ["customerEmail"]);
    },
  );

  it("refuses a non-string", async () => {
    await rejected({ ...base, customerEmail: 42 }, ["customerEmail"]);
  });
});

describe("customerIp", () => {
  it.each(["192.0.2.1", "10.0.0.1", "2001:db8::1", "::1", "::ffff:192.0.2.1", "fe80::1"])("accepts %s", async (ip) => {
    const { id } = await accepted({ ...base, customerIp: ip });
    const rec = await fetchRecord(id);
    expect(rec.customer.ipAddresses.map((x: { ip: string }) => x.ip)).toEqual([ip]);
  });

  it.each(["garbage", "999.1.1.1", "1.2.3", "1.2.3.4/24", "1.2.3.4:80", "2001:db8:::1", "", "localhost"])(
    "refuses %j",
    async (ip) => {
      await rejected({ ...base, customerIp: ip }, ["customerIp"]);
    },
  );

  it("refuses a number", async () => {
    await rejected({ ...base, customerIp: 3232235777 }, ["customerIp"]);
  });
});

describe("redirectUrl and notifyUrl", () => {
  it.each(["redirectUrl", "notifyUrl"])("%s accepts http and https URLs on a test business", async (field) => {
    await accepted({ ...base, [field]: "https://shop.example.com/a?b=c#d" });
    await accepted({ ...base, [field]: "http://localhost:3000/hook" });
    await accepted({ ...base, [field]: "http://127.0.0.1:8080/x" });
  });

  it.each(["redirectUrl", "notifyUrl"])("%s refuses relative, non-http and malformed URLs", async (field) => {
    for (const url of ["/thanks", "thanks", "ftp://example.com/file", "javascript:alert(1)", "mailto:a@example.com", "https://", "http//example.com", "", "data:text/html,hi"]) {
      await rejected({ ...base, [field]: url }, [field]);
    }
  });

  it.each(["redirectUrl", "notifyUrl"])("%s accepts 2048 characters and refuses 2049", async (field) => {
    const prefix = "https://example.com/";
    await accepted({ ...base, [field]: prefix + "a".repeat(2048 - prefix.length) });
    const problem = await rejected({ ...base, [field]: prefix + "a".repeat(2049 - prefix.length) }, [field]);
    expect(problem.errors[field].join(" ")).toContain("2048");
  });

  it("refuses non-string URLs", async () => {
    await rejected({ ...base, redirectUrl: 1, notifyUrl: { href: "https://x.test" } }, ["notifyUrl", "redirectUrl"]);
  });
});

describe("live-mode business (D7)", () => {
  let live: Biz;
  beforeEach(async () => {
    live = await newBusiness({ mode: "live" });
  });

  it("accepts https URLs", async () => {
    await accepted({ ...base, redirectUrl: "https://shop.example.com/thanks", notifyUrl: "https://shop.example.com/hook" }, live);
  });

  it("refuses an http:// redirectUrl, naming redirectUrl", async () => {
    const problem = await rejected({ ...base, redirectUrl: "http://shop.example.com/thanks" }, ["redirectUrl"], live);
    expect(problem.errors.redirectUrl.join(" ")).toContain("https");
  });

  it("refuses an http:// notifyUrl, naming notifyUrl", async () => {
    await rejected({ ...base, notifyUrl: "http://shop.example.com/hook" }, ["notifyUrl"], live);
  });

  it("accepts an upper-case HTTPS scheme", async () => {
    await accepted({ ...base, redirectUrl: "HTTPS://shop.example.com/thanks" }, live);
  });

  it.each([
    "https://localhost/hook",
    "https://LOCALHOST./hook",
    "https://app.localhost/hook",
    "https://127.0.0.1/hook",
    "https://0x7f.1/hook",
    "https://10.1.2.3/hook",
    "https://172.16.0.1/hook",
    "https://192.168.1.1/hook",
    "https://169.254.169.254/latest/meta-data",
    "https://0.0.0.0/hook",
    "https://[::1]/hook",
    "https://[fe80::1]/hook",
    "https://[fd00::1]/hook",
    "https://[::ffff:127.0.0.1]/hook",
  ])("refuses a loopback/private/link-local notifyUrl %s (SSRF guard)", async (url) => {
    await rejected({ ...base, notifyUrl: url }, ["notifyUrl"], live);
    await rejected({ ...base, redirectUrl: url }, ["redirectUrl"], live);
  });

  it("accepts a public IP literal", async () => {
    await accepted({ ...base, notifyUrl: "https://93.184.215.14/hook" }, live);
  });
});

describe("metadata", () => {
  it("accepts 50 keys, 40-character keys and 500-character values", async () => {
    const metadata: Record<string, string> = {};
    for (let i = 0; i < 49; i++) metadata[`k${i}`] = `v${i}`;
    metadata["k".repeat(40)] = "v".repeat(500);
    const { id } = await accepted({ ...base, metadata });
    expect((await fetchRecord(id)).metadata).toEqual(metadata);
  });

  it("accepts an empty object", async () => {
    const { id } = await accepted({ ...base, metadata: {} });
    expect((await fetchRecord(id)).metadata).toEqual({});
  });

  it("refuses 51 keys, naming metadata", async () => {
    const metadata = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, "v"]));
    await rejected({ ...base, metadata }, ["metadata"]);
  });

  it("refuses a 41-character key, naming it and saying why", async () => {
    const key = "k".repeat(41);
    const problem = await rejected({ ...base, metadata: { [key]: "v" } }, [`metadata.${key}`]);
    expect(problem.errors[`metadata.${key}`].join(" ")).toContain("40");
  });

  it("refuses a 501-character value, naming its key", async () => {
    const problem = await rejected({ ...base, metadata: { a: "ok", b: "v".repeat(501) } }, ["metadata.b"]);
    expect(problem.errors["metadata.b"].join(" ")).toContain("500");
  });

  it("refuses non-string values, naming each", async () => {
    await rejected(
      { ...base, metadata: { n: 1, t: true, z: null, o: { x: "y" }, a: ["x"], s: "fine" } },
      ["metadata.a", "metadata.n", "metadata.o", "metadata.t", "metadata.z"],
    );
  });

  it.each([
    ["an array", ["a"]],
    ["a string", "a=b"],
    ["null", null],
  ])("refuses %s as metadata", async (_what, metadata) => {
    await rejected({ ...base, metadata }, ["metadata"]);
  });

  it("refuses the key __proto__ rather than dropping it", async () => {
    const res = await request("POST", paymentsPath(b.businessId), {
      key: b.apiKey,
      rawBody: '{"currency":"USD","amount":10,"metadata":{"__proto__":"x","a":"b"}}',
      headers: { "content-type": "application/json" },
    });
    await expectProblem(res, 400, ["metadata.__proto__"]);
  });

  it("refuses values PostgreSQL cannot store with a 400, not a 500", async () => {
    await rejected({ ...base, metadata: { a: "x\u0000y" } }, ["metadata.a"]);
    await rejected({ ...base, metadata: { a: "\ud800" } }, ["metadata.a"]);
  });
});

describe("paymentMethods", () => {
  it("accepts coins of their own charge type", async () => {
    await accepted({
      ...base,
      paymentMethods: {
        PLATFORM_CRYPTO: ["BITCOIN", "ETHEREUM", "TON"],
        CONTRACT_CRYPTO: ["CONTRACT_ERC20_USDC"],
        CONTRACT_TRX: ["CONTRACT_TRC20_USDT"],
      },
    });
  });

  it("refuses an unknown charge type key", async () => {
    const problem = await rejected({ ...base, paymentMethods: { PLATFORM_CRYPTO: ["BITCOIN"], CARD: ["VISA"] } }, [
      "paymentMethods.CARD",
    ]);
    expect(problem.errors["paymentMethods.CARD"]).toEqual(["unknown field"]);
  });

  it("refuses a coin of another charge type (CONTRACT_ERC20_USDT under PLATFORM_CRYPTO)", async () => {
    const problem = await rejected({ ...base, paymentMethods: { PLATFORM_CRYPTO: ["BITCOIN", "CONTRACT_ERC20_USDT"] } }, [
      "paymentMethods.PLATFORM_CRYPTO[1]",
    ]);
    expect(problem.errors["paymentMethods.PLATFORM_CRYPTO[1]"].join(" ")).toContain("CONTRACT_ERC20_USDT");
  });

  it("refuses a platform coin under CONTRACT_CRYPTO and a TRC-20 coin under CONTRACT_CRYPTO", async () => {
    await rejected({ ...base, paymentMethods: { CONTRACT_CRYPTO: ["BITCOIN", "CONTRACT_TRC20_USDT"] } }, [
      "paymentMethods.CONTRACT_CRYPTO[0]",
      "paymentMethods.CONTRACT_CRYPTO[1]",
    ]);
  });

  it("refuses an unknown coin and UNKNOWN", async () => {
    await rejected({ ...base, paymentMethods: { PLATFORM_CRYPTO: ["DOGECOIN", "UNKNOWN"] } }, [
      "paymentMethods.PLATFORM_CRYPTO[0]",
      "paymentMethods.PLATFORM_CRYPTO[1]",
    ]);
  });

  it("refuses a lowercase coin name", async () => {
    await rejected({ ...base, paymentMethods: { PLATFORM_CRYPTO: ["bitcoin"] } }, ["paymentMethods.PLATFORM_CRYPTO[0]"]);
  });

  it("refuses NONE with coins", async () => {
    const problem = await rejected({ ...base, paymentMethods: { PLATFORM_CRYPTO: ["BITCOIN"], NONE: ["BITCOIN"] } }, [
      "paymentMethods.NONE",
    ]);
    expect(problem.errors["paymentMethods.NONE"].join(" ")).toContain("no coins");
  });

  it.each([
    ["a list that is not an array", { PLATFORM_CRYPTO: "BITCOIN" }, "paymentMethods.PLATFORM_CRYPTO"],
    ["a non-string coin", { PLATFORM_CRYPTO: [1] }, "paymentMethods.PLATFORM_CRYPTO[0]"],
  ])("refuses %s", async (_what, paymentMethods, field) => {
    await rejected({ ...base, paymentMethods }, [field]);
  });

  it.each([
    ["an array", ["BITCOIN"]],
    ["a string", "PLATFORM_CRYPTO"],
    ["null", null],
  ])("refuses %s as paymentMethods", async (_what, paymentMethods) => {
    await rejected({ ...base, paymentMethods }, ["paymentMethods"]);
  });

  describe("intersection with the business's enabledCoins (D8)", () => {
    let narrow: Biz;
    beforeEach(async () => {
      narrow = await newBusiness({ enabledCoins: ["BITCOIN", "CONTRACT_ERC20_USDT"] });
    });

    it("refuses an empty intersection, naming paymentMethods", async () => {
      const problem = await rejected({ ...base, paymentMethods: { PLATFORM_CRYPTO: ["ETHEREUM", "LITECOIN"] } }, ["paymentMethods"], narrow);
      expect(problem.errors.paymentMethods.join(" ")).toMatch(/enabled/);
    });

    it("refuses NONE alone (nothing left to offer)", async () => {
      await rejected({ ...base, paymentMethods: { NONE: [] } }, ["paymentMethods"], narrow);
    });

    it("accepts a partial intersection", async () => {
      await accepted({ ...base, paymentMethods: { PLATFORM_CRYPTO: ["ETHEREUM", "BITCOIN"] } }, narrow);
      await accepted({ ...base, paymentMethods: { CONTRACT_CRYPTO: ["CONTRACT_ERC20_USDT"] } }, narrow);
    });

    it("accepts no paymentMethods (every enabled coin)", async () => {
      await accepted(base, narrow);
    });
  });
});

describe("feeTransfers", () => {
  it("accepts a valid list and an empty list", async () => {
    await accepted({ ...base, feeTransfers: [{ businessId: b.businessId, percent: 10 }, { businessId: 1, percent: 90 }] });
    await accepted({ ...base, feeTransfers: [] });
  });

  it.each([
    ["percent 0", [{ businessId: 1, percent: 0 }], ["feeTransfers[0].percent"]],
    ["percent over 100", [{ businessId: 1, percent: 101 }], ["feeTransfers", "feeTransfers[0].percent"]],
    ["a missing percent", [{ businessId: 1 }], ["feeTransfers[0].percent"]],
    ["a string percent", [{ businessId: 1, percent: "5" }], ["feeTransfers[0].percent"]],
    ["a negative businessId", [{ businessId: -1, percent: 5 }], ["feeTransfers[0].businessId"]],
    ["a fractional businessId", [{ businessId: 1.5, percent: 5 }], ["feeTransfers[0].businessId"]],
    ["an unknown item field", [{ businessId: 1, percent: 5, wallet: "x" }], ["feeTransfers[0].wallet"]],
    ["a non-object item", ["x"], ["feeTransfers[0]"]],
    ["percentages summing over 100", [{ businessId: 1, percent: 60 }, { businessId: 2, percent: 41 }], ["feeTransfers"]],
    ["more than 10 items", Array.from({ length: 11 }, () => ({ businessId: 1, percent: 1 })), ["feeTransfers"]],
  ])("refuses %s", async (_what, feeTransfers, fields) => {
    await rejected({ ...base, feeTransfers }, fields);
  });

  it("refuses a non-array", async () => {
    await rejected({ ...base, feeTransfers: { businessId: 1, percent: 5 } }, ["feeTransfers"]);
  });
});
