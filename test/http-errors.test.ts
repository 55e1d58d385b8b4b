import { beforeEach, describe, expect, it } from "vitest";
import { createPayment, expectProblem, json, newBusiness, paymentsPath, request } from "./helpers";

type Biz = Awaited<ReturnType<typeof newBusiness>>;

let b: Biz;
beforeEach(async () => {
  b = await newBusiness();
});

const valid = '{"currency":"USD","amount":10}';

function postRaw(rawBody: string | Uint8Array, headers: Record<string, string> = { "content-type": "application/json" }, biz: Biz = b) {
  return request("POST", paymentsPath(biz.businessId), { key: biz.apiKey, rawBody, headers });
}

async function totalCount(biz: Biz = b): Promise<number> {
  const res = await request("GET", paymentsPath(biz.businessId), { key: biz.apiKey });
  return (await json(res)).data.totalCount;
}

describe("request bodies that are not JSON", () => {
  it.each([
    ["plain text", "currency=USD&amount=10"],
    ["a truncated object", '{"currency":"USD","amount":10'],
    ["single quotes", "{'currency':'USD','amount':10}"],
    ["a trailing comma", '{"currency":"USD","amount":10,}'],
    ["NaN", '{"currency":"USD","amount":NaN}'],
    ["a comment", '{"currency":"USD", /* x */ "amount":10}'],
    ["two documents", `${valid}${valid}`],
    ["an HTML page", "<html><body>hi</body></html>"],
  ])("400 for %s, naming body", async (_what, raw) => {
    const problem = await expectProblem(await postRaw(raw), 400, ["body"]);
    expect(problem.errors.body.join(" ")).toMatch(/JSON/);
  });

  it("400 for an empty body, naming body", async () => {
    await expectProblem(await postRaw(""), 400, ["body"]);
  });

  it("400 for a whitespace-only body", async () => {
    await expectProblem(await postRaw("  \n\t "), 400, ["body"]);
  });

  it("400 for a POST without any body", async () => {
    const res = await request("POST", paymentsPath(b.businessId), { key: b.apiKey, headers: { "content-type": "application/json" } });
    await expectProblem(res, 400, ["body"]);
  });

  it("400 for invalid UTF-8, naming body", async () => {
    const bytes = new Uint8Array([...new TextEncoder().encode('{"currency":"USD","amount":10,"name":"'), 0xff, 0xfe, 0xc3, 0x28, ...new TextEncoder().encode('"}')]);
    const problem = await expectProblem(await postRaw(bytes), 400, ["body"]);
    expect(problem.errors.body.join(" ")).toMatch(/UTF-8/);
  });

  it("accepts multi-byte UTF-8 that is valid", async () => {
    const res = await postRaw(new TextEncoder().encode('{"currency":"USD","amount":10,"name":"Grüße 😀"}'));
    expect(res.status).toBe(200);
  });
});

describe("Content-Type (D12)", () => {
  it.each([
    "text/plain",
    "text/plain; charset=utf-8",
    "application/x-www-form-urlencoded",
    "multipart/form-data; boundary=x",
    "application/xml",
    "application/jsonp",
    "application/octet-stream",
    "json",
  ])("415 for %s", async (contentType) => {
    const problem = await expectProblem(await postRaw(valid, { "content-type": contentType }), 415);
    expect(problem.detail).toMatch(/JSON/);
    expect(await totalCount()).toBe(0);
  });

  it("415 without a Content-Type", async () => {
    await expectProblem(await postRaw(valid, {}), 415);
  });

  it.each([
    "application/json",
    "application/json; charset=utf-8",
    "application/json;charset=UTF-8",
    "APPLICATION/JSON",
    "text/json",
    "application/vnd.api+json",
    "application/merge-patch+json",
  ])("accepts %s", async (contentType) => {
    const res = await postRaw(valid, { "content-type": contentType });
    expect(res.status, await res.clone().text()).toBe(200);
    expect((await json(res)).data.url).toMatch(/^http:\/\/pay\.test\/pay\//);
  });

  it("applies to the note route too", async () => {
    const { id } = await createPayment(b);
    const path = `${paymentsPath(b.businessId)}/${id}/note`;
    await expectProblem(await request("PUT", path, { key: b.apiKey, rawBody: '{"note":"x"}', headers: { "content-type": "text/plain" } }), 415);
    const ok = await request("PUT", path, { key: b.apiKey, rawBody: '{"note":"x"}', headers: { "content-type": "application/vnd.api+json" } });
    expect(ok.status).toBe(200);
  });
});

describe("body size (D11a)", () => {
  const LIMIT = 64 * 1024;
  const padded = (size: number) => {
    // valid JSON padded with whitespace to exactly `size` bytes
    return valid.slice(0, -1) + " ".repeat(size - valid.length) + "}";
  };

  it("accepts a body of exactly 64 KB", async () => {
    const body = padded(LIMIT);
    expect(Buffer.byteLength(body)).toBe(LIMIT);
    const res = await postRaw(body);
    expect(res.status, await res.clone().text()).toBe(200);
  });

  it("413 for a body one byte over 64 KB, naming body", async () => {
    const problem = await expectProblem(await postRaw(padded(LIMIT + 1)), 413, ["body"]);
    expect(problem.detail).toContain(String(LIMIT));
    expect(await totalCount()).toBe(0);
  });

  it("413 for a 1 MB body", async () => {
    await expectProblem(await postRaw(`{"currency":"USD","amount":10,"name":"${"x".repeat(1024 * 1024)}"}`), 413, ["body"]);
  });

  it("413 from a declared Content-Length over the limit", async () => {
    const res = await postRaw(padded(LIMIT + 10), { "content-type": "application/json", "content-length": String(LIMIT + 10) });
    await expectProblem(res, 413, ["body"]);
  });

  it("413 when the body is larger than a (lying) small Content-Length", async () => {
    const res = await postRaw(padded(LIMIT * 2), { "content-type": "application/json", "content-length": "10" });
    await expectProblem(res, 413, ["body"]);
  });

  it("413 for multi-byte characters that exceed the limit in bytes, not characters", async () => {
    const name = "€".repeat(22_000); // 22,000 characters, 66,000 bytes
    await expectProblem(await postRaw(`{"currency":"USD","amount":10,"name":"${name}"}`), 413, ["body"]);
  });
});

describe("unknown routes under /v1 (D11)", () => {
  it.each([
    ["GET", "/v1/nothing"],
    ["POST", "/v1/payments"],
    ["GET", "/v1/businesses"],
    ["GET", "/v1/businesses/1"],
    ["DELETE", "/v1/businesses/1"],
    ["GET", "/v1/businesses/1/refunds"],
    ["PUT", "/v1/businesses/1/payments/00000000-0000-4000-8000-000000000000/note/extra"],
    ["PATCH", "/v1/businesses/1/payments/x/y/z"],
  ])("%s %s → 404 ProblemDetails", async (method, path) => {
    const res = await request(method, path, { key: b.apiKey });
    const problem = await expectProblem(res, 404);
    expect(problem.detail).toContain(path);
  });

  it("404 for an unknown route without a key too (no 401 leak of route existence)", async () => {
    await expectProblem(await request("GET", "/v1/definitely/not/here"), 404);
  });

  it("404 honours Accept", async () => {
    await expectProblem(await request("GET", "/v1/nothing", { headers: { accept: "text/plain" } }), 404, undefined, "text/plain");
  });
});

describe("wrong methods → 405 with Allow (D11)", () => {
  let id: string;
  beforeEach(async () => {
    id = (await createPayment(b)).id;
  });

  const cases = () => [
    ["DELETE", `${paymentsPath(b.businessId)}/${id}`, "GET"],
    ["POST", `${paymentsPath(b.businessId)}/${id}`, "GET"],
    ["PUT", `${paymentsPath(b.businessId)}/${id}`, "GET"],
    ["PATCH", `${paymentsPath(b.businessId)}/${id}`, "GET"],
    ["GET", `${paymentsPath(b.businessId)}/${id}/note`, "PUT"],
    ["POST", `${paymentsPath(b.businessId)}/${id}/note`, "PUT"],
    ["DELETE", `${paymentsPath(b.businessId)}/${id}/note`, "PUT"],
    ["PATCH", `${paymentsPath(b.businessId)}/${id}/note`, "PUT"],
    ["DELETE", paymentsPath(b.businessId), "GET, POST"],
    ["PUT", paymentsPath(b.businessId), "GET, POST"],
    ["PATCH", paymentsPath(b.businessId), "GET, POST"],
  ];

  it("answers every wrong method with a 405 ProblemDetails naming the allowed ones", async () => {
    for (const [method, path, allow] of cases()) {
      const res = await request(method, path, { key: b.apiKey });
      expect(res.headers.get("allow"), `${method} ${path}`).toBe(allow);
      const problem = await expectProblem(res, 405);
      expect(problem.detail).toContain(method);
      for (const m of allow.split(", ")) expect(problem.detail).toContain(m);
    }
  });

  it("405 also without a key and with a JSON body", async () => {
    const res = await request("DELETE", `${paymentsPath(b.businessId)}/${id}`, { body: { x: 1 } });
    expect(res.headers.get("allow")).toBe("GET");
    await expectProblem(res, 405);
  });

  it("DELETE did not delete the payment", async () => {
    await request("DELETE", `${paymentsPath(b.businessId)}/${id}`, { key: b.apiKey });
    const res = await request("GET", `${paymentsPath(b.businessId)}/${id}`, { key: b.apiKey });
    expect(res.status).toBe(200);
  });

  it("OPTIONS lists the allowed methods", async () => {
    const res = await request("OPTIONS", `${paymentsPath(b.businessId)}/${id}/note`);
    expect(res.status).toBe(204);
    expect(res.headers.get("allow")).toBe("PUT, OPTIONS");
  });
});

describe("hostile JSON never causes a 500", () => {
  const deep = (n: number, open = "[", close = "]") => open.repeat(n) + close.repeat(n);
  const deepObject = (n: number) => '{"a":'.repeat(n) + "1" + "}".repeat(n);

  const bodies: [string, string][] = [
    ["a 10,000-deep array as the body", deep(10_000)],
    ["a 10,000-deep object as the body", deepObject(10_000)],
    ["a deep array under an unknown field", `{"currency":"USD","amount":10,"junk":${deep(10_000)}}`],
    ["a deep array as a metadata value", `{"currency":"USD","amount":10,"metadata":{"a":${deep(10_000)}}}`],
    ["a deep array as a coin", `{"currency":"USD","amount":10,"paymentMethods":{"PLATFORM_CRYPTO":[${deep(10_000)}]}}`],
    ["a deep object as customerIp", `{"currency":"USD","amount":10,"customerIp":${deepObject(5_000)}}`],
    ["a deep array as amount", `{"currency":"USD","amount":${deep(10_000)}}`],
    ["a huge coin name", `{"currency":"USD","amount":10,"paymentMethods":{"PLATFORM_CRYPTO":["${"A".repeat(60_000)}"]}}`],
    ["thousands of unknown keys", `{"currency":"USD","amount":10,${Array.from({ length: 3000 }, (_, i) => `"k${i}":${i}`).join(",")}}`],
    ["a huge metadata object", `{"currency":"USD","amount":10,"metadata":{${Array.from({ length: 3000 }, (_, i) => `"k${i}":"v"`).join(",")}}}`],
    ["a NUL in a key", '{"currency":"USD","amount":10,"metadata":{"a\\u0000b":"v"}}'],
    ["a lone surrogate", '{"currency":"USD","amount":10,"name":"\\udc00"}'],
    ["a __proto__ key", '{"currency":"USD","amount":10,"__proto__":{"isAdmin":true}}'],
    ["constructor/prototype keys", '{"currency":"USD","amount":10,"constructor":{"prototype":{"x":1}}}'],
    ["a huge exponent", '{"currency":"USD","amount":1e999999}'],
    ["a long digit string", `{"currency":"USD","amount":${"9".repeat(5000)}}`],
  ];

  for (const withKey of [false, true]) {
    describe(withKey ? "with an Idempotency-Key" : "without an Idempotency-Key", () => {
      it.each(bodies)("%s → 400 ProblemDetails", async (_what, raw) => {
        const headers: Record<string, string> = { "content-type": "application/json" };
        if (withKey) headers["idempotency-key"] = `junk-${crypto.randomUUID()}`;
        const res = await postRaw(raw, headers);
        const problem = await expectProblem(res, 400);
        expect(Object.keys(problem.errors ?? {}).length).toBeGreaterThan(0);
        expect(problem.detail.length).toBeLessThan(70_000);
      });
    });
  }

  it("names body for nesting deeper than the limit", async () => {
    const problem = await expectProblem(await postRaw(deep(100)), 400, ["body"]);
    expect(problem.errors.body.join(" ")).toMatch(/nested/);
  });

  it("does not echo a huge invalid value back in full", async () => {
    const problem = await expectProblem(
      await postRaw(`{"currency":"USD","amount":10,"paymentMethods":{"PLATFORM_CRYPTO":["${"A".repeat(60_000)}"]}}`),
      400,
      ["paymentMethods.PLATFORM_CRYPTO[0]"],
    );
    expect(problem.detail.length).toBeLessThan(2_000);
  });

  it("refuses a NUL in a metadata key by name", async () => {
    await expectProblem(await postRaw('{"currency":"USD","amount":10,"metadata":{"a\\u0000b":"v"}}'), 400, ["metadata.a\u0000b"]);
  });

  it("refuses __proto__ as an unknown top-level field", async () => {
    const problem = await expectProblem(await postRaw('{"currency":"USD","amount":10,"__proto__":{"x":1}}'), 400);
    expect(Object.keys(problem.errors)).toContain("__proto__");
  });

  it("hostile bodies on the note route → 400 too", async () => {
    const { id } = await createPayment(b);
    const path = `${paymentsPath(b.businessId)}/${id}/note`;
    for (const raw of [deep(10_000), `{"note":${deep(10_000)}}`, '{"note":"\\u0000"}', '{"note":"\\ud800"}']) {
      const res = await request("PUT", path, { key: b.apiKey, rawBody: raw, headers: { "content-type": "application/json" } });
      await expectProblem(res, 400);
    }
  });

  it("nothing was created by any of them", async () => {
    for (const [, raw] of bodies) await postRaw(raw);
    expect(await totalCount()).toBe(0);
  });
});
