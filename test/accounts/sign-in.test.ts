import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { sessions } from "@/db/schema";
import { createAuth, getAuth } from "@/lib/accounts/auth";
import { createUser } from "@/lib/accounts/users";
import { handleAuthRequest } from "@/lib/accounts/auth-handler";
import { config, loadConfig } from "@/lib/config";
import { newBusiness } from "../helpers";
import { authCall, cookieOf, fromPeer, newIp, origin, sessionEmail, unique } from "./support";

describe("dashboard sign-in (Better Auth)", () => {
  it("signs a user in with an HttpOnly SameSite session cookie, and out again", async () => {
    const b = await newBusiness();
    const email = unique("owner");
    const made = await createUser(await getDb(), { email, businessId: b.businessId, role: "owner" });
    expect(made.created).toBe(true);
    expect(made.password).toMatch(/^[A-Za-z0-9_-]{24}$/);
    const ip = newIp();
    const res = await authCall("/sign-in/email", { body: { email, password: made.password }, ip });
    expect(res.status, await res.clone().text()).toBe(200);
    const setCookie = res.headers.getSetCookie().find((c) => c.includes("session_token"))!;
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    expect(setCookie).toMatch(/Max-Age=43200/); // SESSION_HOURS
    expect(setCookie).not.toMatch(/Secure/); // http://: see the https case below
    const cookie = cookieOf(res);
    expect(await sessionEmail(cookie)).toBe(email);
    expect((await authCall("/sign-out", { body: {}, cookie, ip })).status).toBe(200);
    expect(await sessionEmail(cookie)).toBeNull();
  });

  it("marks the cookie Secure when the service is reached over https", async () => {
    const b = await newBusiness();
    const email = unique("https");
    const made = await createUser(await getDb(), { email, businessId: b.businessId, role: "viewer" });
    const httpsOrigin = "https://pay.shop.example";
    const auth = createAuth(await getDb(), { ...config(), publicBaseUrl: httpsOrigin });
    const res = await auth.handler(
      new Request(`${httpsOrigin}/api/auth/sign-in/email`, {
        method: "POST",
        headers: { origin: httpsOrigin, "content-type": "application/json", "x-forwarded-for": newIp() },
        body: JSON.stringify({ email, password: made.password }),
      }),
    );
    expect(res.status, await res.clone().text()).toBe(200);
    const setCookie = res.headers.getSetCookie().find((c) => c.includes("session_token"))!;
    expect(setCookie).toMatch(/^__Secure-cryptopay\.session_token=/);
    expect(setCookie).toMatch(/; Secure/i);
    // The test configuration's own base URL is http://, so its cookie is not Secure (a browser would drop it).
    expect(config().publicBaseUrl).toMatch(/^http:/);
  });

  it("ends a session at its expiry", async () => {
    const b = await newBusiness();
    const email = unique("expiry");
    const made = await createUser(await getDb(), { email, businessId: b.businessId, role: "viewer" });
    const ip = newIp();
    const cookie = cookieOf(await authCall("/sign-in/email", { body: { email, password: made.password }, ip }));
    expect(await sessionEmail(cookie)).toBe(email);
    await (await getDb()).update(sessions).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(sessions.userId, made.userId));
    expect(await sessionEmail(cookie)).toBeNull();
  });

  it("answers a wrong password and an unknown email alike", async () => {
    const b = await newBusiness();
    const email = unique("dev");
    await createUser(await getDb(), { email, password: "correct horse battery", businessId: b.businessId, role: "developer" });
    const wrong = await authCall("/sign-in/email", { body: { email, password: "not the password" }, ip: newIp() });
    const unknown = await authCall("/sign-in/email", { body: { email: unique("nobody"), password: "not the password" }, ip: newIp() });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(wrong.status);
    expect(await unknown.json()).toEqual(await wrong.json());
  });

  it("limits sign-in attempts per client address, whatever the email", async () => {
    const ip = newIp();
    expect(config().signInAttemptsPerMinute).toBe(5);
    for (let i = 0; i < config().signInAttemptsPerMinute; i++) {
      expect((await authCall("/sign-in/email", { body: { email: unique("x"), password: "wrong password" }, ip })).status).toBe(401);
    }
    const limited = await authCall("/sign-in/email", { body: { email: unique("x"), password: "wrong password" }, ip });
    expect(limited.status).toBe(429);
    // The standard header, which the README promises, beside Better Auth's own.
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(limited.headers.get("retry-after")).toBe(limited.headers.get("x-retry-after"));
  });

  it("counts the connection's address, whatever X-Forwarded-For a client writes", async () => {
    const ip = newIp();
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const forged = { "x-forwarded-for": `198.51.100.${i + 1}` };
      const res = await authCall("/sign-in/email", { body: { email: unique("spray"), password: "wrong password" }, ip, headers: forged });
      statuses.push(res.status);
      if (res.status === 429) expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    }
    expect(statuses).toEqual([...Array(5).fill(401), ...Array(7).fill(429)]);
  });

  it("behind a trusted proxy, counts each client it forwards for on its own", async () => {
    const cfg = { ...config(), trustedProxies: loadConfig({ NODE_ENV: "test", DATA_DIR: ":memory:", TRUSTED_PROXIES: "2001:db8:ffff::/48" }).trustedProxies };
    const auth = createAuth(await getDb(), cfg);
    const proxy = `2001:db8:ffff:${Math.floor(Math.random() * 0xffff).toString(16)}::1`;
    const attempt = (client: string) =>
      handleAuthRequest(
        auth,
        cfg,
        new Request(`${origin()}/api/auth/sign-in/email`, {
          method: "POST",
          headers: { origin: origin(), "content-type": "application/json", ...fromPeer(proxy), "x-forwarded-for": `198.51.100.1, ${client}` },
          body: JSON.stringify({ email: unique("proxied"), password: "wrong password" }),
        }),
      );
    const [one, two] = [newIp(), newIp()];
    for (let i = 0; i < 5; i++) expect((await attempt(one)).status).toBe(401);
    expect((await attempt(one)).status).toBe(429);
    expect((await attempt(two)).status).toBe(401);
  });

  it("refuses a state-changing request carrying the session from another origin (CSRF)", async () => {
    const b = await newBusiness();
    const email = unique("csrf");
    const made = await createUser(await getDb(), { email, businessId: b.businessId, role: "owner" });
    const ip = newIp();
    const cookie = cookieOf(await authCall("/sign-in/email", { body: { email, password: made.password }, ip }));
    const auth = await getAuth();
    const forged = await auth.handler(
      new Request(`${origin()}/api/auth/sign-out`, {
        method: "POST",
        headers: { origin: "https://evil.example", cookie, "content-type": "application/json", "x-forwarded-for": ip },
        body: "{}",
      }),
    );
    expect(forged.status).toBe(403);
    expect(await sessionEmail(cookie)).toBe(email);
  });

  it("has no public sign-up", async () => {
    const res = await authCall("/sign-up/email", { body: { email: unique("self"), password: "a long password", name: "Self" }, ip: newIp() });
    expect(res.status).toBeGreaterThanOrEqual(400);
  });
});
