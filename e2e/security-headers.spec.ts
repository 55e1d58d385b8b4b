import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test, type Page, type Response } from "@playwright/test";
import { newUser, signIn } from "./dashboard";
import { createPayment, newBusiness } from "./helpers";
import { startSecondServer } from "./second-server";

/**
 * The pages under their security headers, in chromium: each page kind runs its scripts under its
 * nonce-based Content-Security-Policy with no violation (the checkout with its QR code, the
 * dashboard with its chart); a page on another origin cannot frame the checkout or the sign-in
 * page (unless CHECKOUT_FRAME_ANCESTORS names it, for the checkout alone); HSTS over https; and the
 * production server's answers to an undecodable path and to a server action from another origin.
 * The policies themselves are test/page-guard.test.ts.
 */

/** Collects what the browser reports about the page's policies: violation events and console lines. */
async function watchPolicies(page: Page): Promise<() => Promise<string[]>> {
  const messages: string[] = [];
  page.on("console", (m) => {
    if (/Content.Security.Policy|Refused to|Permissions.Policy|nonce/i.test(m.text())) messages.push(`${m.type()}: ${m.text()}`);
  });
  await page.addInitScript(() => {
    const seen: string[] = ((window as any).__violations = []);
    document.addEventListener("securitypolicyviolation", (e) => seen.push(`${e.violatedDirective} ${e.blockedURI} at ${e.sourceFile}:${e.lineNumber}`));
  });
  return async () => [...messages, ...(await page.evaluate(() => (window as any).__violations as string[]).catch(() => []))];
}

function expectPageHeaders(res: Response | null, what: string) {
  const h = res!.headers();
  expect(h["content-security-policy"], what).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'/);
  expect(h["content-security-policy"], what).toContain("frame-ancestors 'none'");
  expect(h["x-content-type-options"], what).toBe("nosniff");
  expect(h["referrer-policy"], what).toBe("same-origin");
  expect(h["permissions-policy"], what).toContain("camera=()");
  expect(h["strict-transport-security"], what).toBeUndefined(); // PUBLIC_BASE_URL is http here
}

test("every kind of page runs under its Content-Security-Policy without a violation", async ({ page, request }) => {
  test.setTimeout(120_000);
  const violations = await watchPolicies(page);
  const b = await newBusiness(request, { name: "CSP shop" });
  const payment = await createPayment(request, b, { currency: "USD", amount: 10, name: "Poster" });
  const owner = await newUser(request, b.businessId, "owner");

  for (const path of ["/", "/docs", "/no-such-page", "/dashboard/sign-in"]) expectPageHeaders(await page.goto(path), path);

  // The checkout: choosing a coin is a server action run by the page's scripts; then the QR code shows.
  expectPageHeaders(await page.goto(`/pay/${payment.id}`), "checkout");
  await page.getByRole("button", { name: /^Bitcoin BTC/ }).click();
  await expect(page.getByTestId("payment-qr")).toBeVisible();
  expect(await page.getByTestId("payment-qr").evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);

  // Signing in takes the form's script and lands on the overview; the payments page draws its chart in the browser.
  await signIn(page, owner);
  await expect(page).toHaveURL(new RegExp(`/dashboard/${b.businessId}$`));
  const base = `/dashboard/${b.businessId}`;
  await page.goto(`${base}/payments`);
  await expect(page.locator(".recharts-wrapper > svg.recharts-surface")).toBeVisible();
  for (const path of [base, `${base}/payments`, `${base}/payments/${payment.id}`, `${base}/developers`, `${base}/members`, `${base}/settings`, "/dashboard/security"]) {
    expectPageHeaders(await page.goto(path), path);
    await page.waitForLoadState("networkidle");
  }
  expect(await violations()).toEqual([]);
  // The watch does see a violation: an image from another site.
  await page.evaluate(() => document.body.append(Object.assign(document.createElement("img"), { src: "https://example.invalid/x.png" })));
  await expect.poll(async () => (await violations()).join("\n")).toContain("img-src");
});

/** A page on another origin (127.0.0.1 against the server's localhost) that frames the URLs `frames` holds when it is asked. */
async function framingSite() {
  const frames: string[] = [];
  const server = http.createServer((_req, res) => {
    const html = `<!doctype html><title>Another site</title>${frames.map((u, i) => `<iframe id="f${i}" src="${u}" width="600" height="400"></iframe>`).join("")}`;
    res.writeHead(200, { "content-type": "text/html" }).end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, frames, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** The frame `index` of the page; chromium shows its error page in a frame it refused. */
async function frame(page: Page, index: number) {
  const f = await (await page.$(`#f${index}`))!.contentFrame();
  return f!;
}

/** Counts chromium's reports of frames it refused for their frame-ancestors. */
function refusedFrames(page: Page): string[] {
  const refused: string[] = [];
  page.on("console", (m) => {
    if (/frame-ancestors/.test(m.text())) refused.push(m.text());
  });
  return refused;
}

test("a page on another origin cannot frame the checkout or the sign-in page", async ({ page, request, baseURL }) => {
  const b = await newBusiness(request, { name: "Framed shop" });
  const payment = await createPayment(request, b, { currency: "USD", amount: 10 });
  const refused = refusedFrames(page);
  const site = await framingSite();
  site.frames.push(`${baseURL}/pay/${payment.id}`, `${baseURL}/dashboard/sign-in`);
  try {
    await page.goto(site.url);
    // chromium names the framed origin only: one report per frame.
    await expect.poll(() => refused.length, { message: "chromium reports both frames refused" }).toBe(2);
    expect(refused.every((m) => m.includes(`'${baseURL}/'`) && m.includes("frame-ancestors 'none'"))).toBe(true);
    expect(await (await frame(page, 0)).getByTestId("payment-status").count()).toBe(0);
    expect(await (await frame(page, 1)).getByRole("button", { name: "Sign in" }).count()).toBe(0);
  } finally {
    await site.close();
  }
});

test("CHECKOUT_FRAME_ANCESTORS lets a named site frame the checkout, never the sign-in page", async ({ page }) => {
  test.setTimeout(180_000);
  const site = await framingSite();
  const token = "adm_second_server_e2e_token";
  const server = await startSecondServer({ CHECKOUT_FRAME_ANCESTORS: site.url, ADMIN_TOKEN: token });
  try {
    const admin = { authorization: `Bearer ${token}`, "content-type": "application/json" };
    const b = (await (await fetch(`${server.base}/admin/v1/businesses`, { method: "POST", headers: admin, body: '{"name":"Embedding shop"}' })).json()).data;
    const created = await fetch(`${server.base}/v1/businesses/${b.businessId}/payments`, {
      method: "POST",
      headers: { authorization: `Bearer ${b.apiKey}`, "content-type": "application/json" },
      body: '{"currency":"USD","amount":10}',
    });
    const payment = (await created.json()).data;
    const refused = refusedFrames(page);
    site.frames.push(`${server.base}/pay/${payment.id}`, `${server.base}/dashboard/sign-in`);
    await page.goto(site.url);
    await expect((await frame(page, 0)).getByTestId("payment-status")).toBeVisible();
    await expect.poll(() => refused.length).toBe(1);
    expect(refused[0]).toContain("frame-ancestors 'none'");
    expect(await (await frame(page, 1)).getByRole("button", { name: "Sign in" }).count()).toBe(0);
  } finally {
    await server.stop();
    await site.close();
  }
});

test("over https every response carries HSTS", async () => {
  test.setTimeout(180_000);
  const server = await startSecondServer({ PUBLIC_BASE_URL: "https://pay.example.test" });
  try {
    for (const path of ["/", "/dashboard/sign-in", "/v1/openapi.json", "/api/auth/sign-in/email", "/no-such-page"]) {
      const res = await fetch(`${server.base}${path}`);
      expect(res.headers.get("strict-transport-security"), path).toBe("max-age=31536000");
    }
    expect((await fetch(`${server.base}/`)).headers.get("content-security-policy")).toContain("upgrade-insecure-requests");
  } finally {
    await server.stop();
  }
});

test("the production server answers an undecodable path with 400 and a server action from another origin with 403", async ({ page, request, baseURL }) => {
  for (const path of ["/dashboard/%E0%A4%A", "/pay/%E0%A4%A", "/api/auth/%ff", "/%ff", "/_next/static/%ff"]) {
    const res = await request.get(path);
    expect(res.status(), path).toBe(400);
  }
  expect((await request.get("/api/auth/%ff")).headers()["content-type"]).toContain("application/problem+json");
  expect((await request.get("/pay/%E0%A4%A")).headers()["content-type"]).toContain("text/html");

  // A real server action (the checkout's coin choice), caught as the page sends it, then replayed.
  const b = await newBusiness(request, { name: "Action shop" });
  const payment = await createPayment(request, b, { currency: "USD", amount: 10 });
  await page.goto(`/pay/${payment.id}`);
  const sent = page.waitForRequest((r) => r.method() === "POST" && r.headers()["next-action"] !== undefined);
  await page.getByRole("button", { name: /^Bitcoin BTC/ }).click();
  const action = await sent;
  const headers = { "next-action": action.headers()["next-action"], "content-type": action.headers()["content-type"], accept: "text/x-component" };
  const foreign = await request.post(`/pay/${payment.id}`, { headers: { ...headers, origin: "https://evil.example" }, data: action.postData() ?? "" });
  expect(foreign.status()).toBe(403);
  const own = await request.post(`/pay/${payment.id}`, { headers: { ...headers, origin: baseURL! }, data: action.postData() ?? "" });
  expect(own.status()).toBe(200);
});
