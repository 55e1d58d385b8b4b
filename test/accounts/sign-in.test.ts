import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { sessions } from "@/db/schema";
import { createAuth, getAuth } from "@/lib/accounts/auth";
import { createUser } from "@/lib/accounts/users";
import { config } from "@/lib/config";
import { newBusiness } from "../helpers";
import { authCall, cookieOf, newIp, origin, unique } from "./support";

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
    const session = await authCall("/get-session", { method: "GET", cookie, ip });
    expect((await session.json()).user.email).toBe(email);
    expect((await authCall("/sign-out", { body: {}, cookie, ip })).status).toBe(200);
    const after = await authCall("/get-session", { method: "GET", cookie, ip });
    expect(await after.json()).toBeNull();
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
    expect((await (await authCall("/get-session", { method: "GET", cookie, ip })).json()).user.email).toBe(email);
    await (await getDb()).update(sessions).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(sessions.userId, made.userId));
    expect(await (await authCall("/get-session", { method: "GET", cookie, ip })).json()).toBeNull();
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
    expect(Number(limited.headers.get("x-retry-after"))).toBeGreaterThan(0);
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
    expect((await (await authCall("/get-session", { method: "GET", cookie, ip })).json()).user.email).toBe(email);
  });

  it("has no public sign-up", async () => {
    const res = await authCall("/sign-up/email", { body: { email: unique("self"), password: "a long password", name: "Self" }, ip: newIp() });
    expect(res.status).toBeGreaterThanOrEqual(400);
  });
});
