import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { signInLockouts } from "@/db/schema";
import { createUser } from "@/lib/accounts/users";
import { config } from "@/lib/config";
import { buildRequest } from "@/scripts/admin-cli";
import { adminToken, expectProblem, json, newBusiness, request } from "../helpers";
import { authCall, signIn, unique } from "./support";

/*
 * The per-email lockout (lib/accounts/sign-in-lockout.ts) through Better Auth's own handler.
 * Every attempt comes from an address of its own, so the per-address rate limit never answers
 * first: this is the spread-out guesser the lockout is for.
 */

async function fail(email: string, times: number) {
  for (let i = 0; i < times; i++) expect((await signIn(email, `wrong password ${i}`)).status).toBe(401);
}

async function owner() {
  const b = await newBusiness();
  const email = unique("owner");
  const password = "correct horse battery";
  await createUser(await getDb(), { email, password, businessId: b.businessId, role: "owner" });
  return { email, password };
}

const limit = () => config().signInLockout.failures;

describe("sign-in lockout per email address", () => {
  it("locks an address after SIGN_IN_LOCKOUT_FAILURES wrong passwords, even for the right one, and says for how long", async () => {
    expect(config().signInLockout).toEqual({ failures: 10, minutes: 15 });
    const { email, password } = await owner();
    await fail(email, limit());
    const locked = await signIn(email, password);
    expect(locked.status).toBe(429);
    const body = await locked.json();
    expect(body.code).toBe("SIGN_IN_LOCKED");
    expect(body.message).toBe("Too many failed sign-ins with this email address. Sign-in for it is locked; try again in 15 minutes.");
    const retry = Number(locked.headers.get("retry-after"));
    expect(locked.headers.get("x-retry-after")).toBe(locked.headers.get("retry-after"));
    expect(retry).toBeGreaterThan(14 * 60);
    expect(retry).toBeLessThanOrEqual(15 * 60);
  });

  it("answers an address nobody has exactly as it answers a user's", async () => {
    const { email } = await owner();
    const nobody = unique("nobody");
    await fail(email, limit());
    await fail(nobody, limit());
    const [a, b] = [await signIn(email, "another guess"), await signIn(nobody, "another guess")];
    expect(b.status).toBe(a.status);
    expect(await b.json()).toEqual(await a.json());
    // Retry-After counts down from each address's own lock, so both are just under 15 minutes.
    for (const r of [a, b]) expect(Number(r.headers.get("retry-after"))).toBeGreaterThan(14 * 60);
  });

  it("does not lock before the limit, and a correct password clears the count", async () => {
    const { email, password } = await owner();
    await fail(email, limit() - 1);
    expect((await signIn(email, password)).status).toBe(200);
    await fail(email, limit() - 1);
    expect((await signIn(email, password)).status).toBe(200);
  });

  it("counts an address however its letters are cased", async () => {
    const { email, password } = await owner();
    await fail(email.toUpperCase(), limit());
    expect((await signIn(email, password)).status).toBe(429);
  });

  it("counts concurrent failures, each of them", async () => {
    const { email, password } = await owner();
    const answers = await Promise.all(Array.from({ length: limit() }, (_, i) => signIn(email, `parallel guess ${i}`)));
    expect(answers.map((r) => r.status)).toEqual(Array(limit()).fill(401));
    expect((await signIn(email, password)).status).toBe(429);
  });

  it("lets the address in again once the lock has run out, with a fresh count", async () => {
    const { email, password } = await owner();
    await fail(email, limit());
    expect((await signIn(email, password)).status).toBe(429);
    const db = await getDb();
    await db.update(signInLockouts).set({ lockedUntil: new Date(Date.now() - 1000), windowStartedAt: new Date(Date.now() - 16 * 60_000) }).where(eq(signInLockouts.email, email));
    await fail(email, 1); // a wrong password after the lock counts from one again
    expect((await signIn(email, password)).status).toBe(200);
    expect(await db.select().from(signInLockouts).where(eq(signInLockouts.email, email))).toEqual([]);
  });

  it("forgets failures older than the window", async () => {
    const { email, password } = await owner();
    await fail(email, limit() - 1);
    const db = await getDb();
    await db.update(signInLockouts).set({ windowStartedAt: new Date(Date.now() - 15 * 60_000 - 1000) }).where(eq(signInLockouts.email, email));
    await fail(email, limit() - 1);
    const [row] = await db.select().from(signInLockouts).where(eq(signInLockouts.email, email));
    expect(row).toMatchObject({ failures: limit() - 1, lockedUntil: null });
    expect((await signIn(email, password)).status).toBe(200);
  });

  it("answers a NUL or other invalid e-mail with 400 before looking the address up (PostgreSQL refuses a NUL)", async () => {
    for (const email of ["\u0000", "a\u0000@shop.example", "owner@shop.example\u0000", " owner@shop.example", "not an address"]) {
      const res = await authCall("/sign-in/email", { body: { email, password: "xxxxxxxxxxxx" } });
      expect(res.status, JSON.stringify(email)).toBe(400);
      expect(await res.json()).toEqual({ code: "INVALID_EMAIL", message: "Invalid email" });
    }
    expect((await authCall("/sign-in/email", { body: { email: 5, password: "xxxxxxxxxxxx" } })).status).toBe(400);
  });

  it("lifts a lock at once when the operator unlocks the address (admin API and CLI)", async () => {
    const { email, password } = await owner();
    await fail(email, limit());
    expect((await signIn(email, password)).status).toBe(429);
    const unlock = (body: unknown, key: string | null = adminToken()) => request("POST", "/admin/v1/users/unlock", { key, body });
    await expectProblem(await unlock({ email: "not-an-email" }), 400, ["email"]);
    await expectProblem(await unlock({ email }, null), 401);
    const res = await unlock({ email: email.toUpperCase() });
    expect(res.status).toBe(200);
    expect((await json(res)).data).toEqual({ email, wasLocked: true });
    expect((await signIn(email, password)).status).toBe(200);
    // Nothing to lift: the same answer shape, wasLocked false.
    expect((await json(await unlock({ email }))).data).toEqual({ email, wasLocked: false });
    expect(buildRequest(["user", "unlock", "--email", email])).toEqual({ method: "POST", path: "/admin/v1/users/unlock", body: { email } });
    expect(() => buildRequest(["user", "unlock"])).toThrow("user unlock needs --email");
  });
});
