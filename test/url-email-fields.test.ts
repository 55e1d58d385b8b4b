import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { checkoutView } from "@/lib/checkout/view";
import { setCustomerEmail } from "@/lib/checkout/customer";
import { createInvite } from "@/lib/dashboard/invites";
import { setWebhookUrl } from "@/lib/dashboard/developers";
import { EMAIL_PATTERN, emailField } from "@/lib/http/email-field";
import { URL_SCHEME_PATTERN } from "@/lib/http/rules";
import { urlField } from "@/lib/http/url-field";
import { deliveriesOf } from "./webhooks/support";
import { adminToken, createPayment, expectProblem, json, paymentsPath, request } from "./helpers";
import { rejects, team } from "./dashboard/support";

/**
 * URLs are RFC 3986 http(s) URIs with a host, stored as the WHATWG parser writes them; e-mail
 * addresses keep RFC 5321's limits (64 characters before the @, 254 in all). Both through the
 * API, the dashboard's services and the checkout's, against the real database.
 */

const NOT_URIS = [
  "httPs://example.com/a b?x[y]",
  "https://example.com/?x[y]=1",
  "https://example.com/a|b",
  "https://example.com/{id}",
  "https://example.com/a\\b",
  "https://example.com/\"q\"",
  "https://example.com/100%",
  "https://bücher.example/",
  "http:///example.com/",
  "http:example.com",
  "https://:443/",
  "https://example.com:99999/",
  "ftp://example.com/",
];
const NORMALISED: [string, string][] = [
  ["httPs://Shop.Example.COM:443/a/./b/../c?x=1#Top", "https://shop.example.com/a/c?x=1#Top"],
  ["HTTP://example.com:80", "http://example.com/"],
  ["http://example.com:8080/a%2fb?q=%7e", "http://example.com:8080/a%2fb?q=%7e"],
  ["https://example.com/?q='x'", "https://example.com/?q=%27x%27"],
  ["http://[::FFFF:7F00:1]:4000/hook", "http://[::ffff:7f00:1]:4000/hook"],
];

const local64 = `${"a".repeat(64)}@example.com`;
const local65 = `${"a".repeat(65)}@example.com`;
const total255 = `jane@${"d".repeat(60)}.${"e".repeat(60)}.${"f".repeat(60)}.${"g".repeat(63)}.com`;

describe("the URL field", () => {
  it.each(NOT_URIS)("refuses %s", (value) => {
    expect(urlField.safeParse(value).success).toBe(false);
  });

  it.each(NORMALISED)("stores %s as %s", (value, stored) => {
    expect(urlField.parse(value)).toBe(stored);
  });

  it("accepts every URL the document's pattern admits, and refuses what the issue found", () => {
    const re = new RegExp(URL_SCHEME_PATTERN, "u");
    fc.assert(
      fc.property(fc.stringMatching(re), (url) => {
        fc.pre(url.length <= 2048);
        expect(urlField.safeParse(url).success, url).toBe(true);
      }),
      { numRuns: 3000, seed: 40 },
    );
    for (const url of ["http://xn--a.example/", "http://a--b.example/"]) expect(re.test(url), url).toBe(false);
    for (const url of NOT_URIS) expect(re.test(url), url).toBe(false);
  });
});

describe("the e-mail field", () => {
  it("refuses a local part over 64 characters and an address over 254 (RFC 5321)", () => {
    expect(total255.length).toBe(255);
    expect(emailField.safeParse(local64).success).toBe(true);
    expect(emailField.safeParse(local65).error?.issues.map((i) => i.message)).toEqual(["the part before @ must be at most 64 characters (RFC 5321)"]);
    expect(emailField.safeParse(total255).error?.issues.map((i) => i.message)).toEqual(["must be at most 254 characters (RFC 5321)"]);
  });

  it("says in the document's pattern exactly what it checks", () => {
    const re = new RegExp(EMAIL_PATTERN, "u");
    const samples = [local64, local65, "jane@example.com", "j.a.n.e@example.co", ".jane@example.com", "ja..ne@example.com", "jane@example", "a@b.cd", `${"a.".repeat(32)}b@x.io`];
    const arb = fc.oneof(fc.emailAddress(), fc.constantFrom(...samples), fc.string());
    fc.assert(
      fc.property(arb, (v) => {
        fc.pre(v.length <= 254);
        expect(emailField.safeParse(v).success, v).toBe(re.test(v));
      }),
      { numRuns: 2000, seed: 40 },
    );
  });
});

describe("through the API, the dashboard and the checkout", () => {
  let t: Awaited<ReturnType<typeof team>>;
  beforeAll(async () => {
    t = await team();
  });
  const create = (body: Record<string, unknown>) => request("POST", paymentsPath(t.a.businessId), { key: t.a.apiKey, body });

  it("a payment's redirectUrl and notifyUrl that are not URIs are a 400 naming each", async () => {
    const bad = "httPs://example.com/a b?x[y]";
    await expectProblem(await create({ currency: "USD", amount: 10, redirectUrl: bad }), 400, ["redirectUrl"]);
    await expectProblem(await create({ currency: "USD", amount: 10, notifyUrl: bad }), 400, ["notifyUrl"]);
  });

  it("a payment keeps its URLs in the normalised form", async () => {
    const { id } = await createPayment(t.a, {
      currency: "USD",
      amount: 10,
      redirectUrl: "HTTPS://Shop.Example.COM:443/thanks/../done?o=1",
      notifyUrl: "httP://127.0.0.1:80/hook",
    });
    expect((await checkoutView(t.db, id))?.redirectUrl).toBe("https://shop.example.com/done?o=1");
    expect((await deliveriesOf(id)).map((d) => d.url)).toEqual(["http://127.0.0.1/hook"]);
  });

  it("a business's webhookUrl is checked and normalised by the admin API and the dashboard alike", async () => {
    const admin = (method: string, path: string, body: unknown) => request(method, path, { key: adminToken(), body });
    await expectProblem(await admin("POST", "/admin/v1/businesses", { name: "Shop", webhookUrl: "https://example.com/a b" }), 400, ["webhookUrl"]);
    const created = await admin("POST", "/admin/v1/businesses", { name: "Shop", webhookUrl: "HTTPS://Hooks.Example.com:443" });
    expect(created.status).toBe(201);
    const { data } = await json(created);
    expect(data.webhookUrl).toBe("https://hooks.example.com/");
    const path = `/admin/v1/businesses/${data.businessId}`;
    await expectProblem(await admin("PATCH", path, { webhookUrl: "https://example.com/?x[y]" }), 400, ["webhookUrl"]);
    expect((await json(await admin("PATCH", path, { webhookUrl: "https://Example.com/h?a=b" }))).data.webhookUrl).toBe("https://example.com/h?a=b");

    await rejects(setWebhookUrl(t.db, t.owner, t.a.businessId, "httPs://example.com/a b?x[y]"), 400, ["webhookUrl"]);
    expect(await setWebhookUrl(t.db, t.owner, t.a.businessId, "HTTPS://Example.com:443/hooks")).toEqual({ webhookUrl: "https://example.com/hooks" });
  });

  it("a customer e-mail over RFC 5321's limits is refused at create, on the checkout and in invitations", async () => {
    await expectProblem(await create({ currency: "USD", amount: 10, customerEmail: local65 }), 400, ["customerEmail"]);
    await expectProblem(await create({ currency: "USD", amount: 10, customerEmail: total255 }), 400, ["customerEmail"]);
    expect((await create({ currency: "USD", amount: 10, customerEmail: local64 })).status).toBe(200);

    const { id } = await createPayment(t.a);
    const e = await rejects(setCustomerEmail(t.db, id, local65), 400, ["email"]);
    expect(e.detail).toMatch(/part before @ must be at most 64 characters/);
    await setCustomerEmail(t.db, id, local64);
    const record = await json(await request("GET", `${paymentsPath(t.a.businessId)}/${id}`, { key: t.a.apiKey }));
    expect(record.data.customer.email).toBe(local64);

    await rejects(createInvite(t.db, t.owner, t.a.businessId, { email: local65, role: "viewer" }), 400, ["email"]);
    await rejects(createInvite(t.db, t.owner, t.a.businessId, { email: total255, role: "viewer" }), 400, ["email"]);
  });
});
