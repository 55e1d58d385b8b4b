import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { getAuth } from "@/lib/accounts/auth";
import { changePassword } from "@/lib/accounts/password";
import { createUser } from "@/lib/accounts/users";
import { ApiError } from "@/lib/http/errors";
import { newBusiness } from "../helpers";
import { config } from "@/lib/config";
import { authCall, cookieOf, origin, sessionEmail, signIn, unique } from "./support";

/** The Security page's password change (lib/accounts/password.ts) with real sessions. */

async function user() {
  const b = await newBusiness();
  const email = unique("pw");
  const password = "the first password";
  await createUser(await getDb(), { email, password, businessId: b.businessId, role: "viewer" });
  const cookie = cookieOf(await signIn(email, password));
  return { email, password, cookie, headers: new Headers({ cookie, origin: origin() }) };
}

async function fieldErrorsOf(p: Promise<unknown>) {
  const e = await p.then(() => null, (x: unknown) => x);
  expect(e).toBeInstanceOf(ApiError);
  expect((e as ApiError).status).toBe(400);
  return (e as ApiError).fieldErrors;
}

describe("changing one's password", () => {
  it("checks the input with the schema's messages, beside each field", async () => {
    const u = await user();
    const auth = await getAuth();
    expect(await fieldErrorsOf(changePassword(auth, u.headers, { currentPassword: "", newPassword: "short", confirmPassword: "short" }))).toEqual({
      currentPassword: ["enter your current password"],
      newPassword: ["must be at least 10 characters"],
    });
    expect(await fieldErrorsOf(changePassword(auth, u.headers, { currentPassword: u.password, newPassword: "a new password", confirmPassword: "another one" }))).toEqual({
      confirmPassword: ["does not match the new password"],
    });
    expect(await fieldErrorsOf(changePassword(auth, u.headers, { currentPassword: u.password, newPassword: u.password, confirmPassword: u.password }))).toEqual({
      newPassword: ["must differ from the current password"],
    });
  });

  it("refuses a wrong current password, and changes nothing", async () => {
    const u = await user();
    const input = { currentPassword: "not my password", newPassword: "a new password", confirmPassword: "a new password" };
    expect(await fieldErrorsOf(changePassword(await getAuth(), u.headers, input))).toEqual({ currentPassword: ["is not correct"] });
    expect((await signIn(u.email, u.password)).status).toBe(200);
    expect(await sessionEmail(u.cookie)).toBe(u.email);
  });

  it("changes it: the old password stops working, the new one works, and every other session ends", async () => {
    const u = await user();
    const elsewhere = cookieOf(await signIn(u.email, u.password));
    expect(await sessionEmail(elsewhere)).toBe(u.email);
    await changePassword(await getAuth(), u.headers, { currentPassword: u.password, newPassword: "a brand new password", confirmPassword: "a brand new password" });
    expect((await signIn(u.email, u.password)).status).toBe(401);
    expect((await signIn(u.email, "a brand new password")).status).toBe(200);
    expect(await sessionEmail(elsewhere)).toBeNull();
    expect(await sessionEmail(u.cookie)).toBe(u.email); // the browser that changed it stays signed in
  });

  it("needs a session", async () => {
    const e = await changePassword(await getAuth(), new Headers({ origin: origin() }), { currentPassword: "x", newPassword: "a new password", confirmPassword: "a new password" }).then(() => null, (x: unknown) => x);
    expect(e).toBeTruthy();
    expect((e as { statusCode?: number }).statusCode).toBe(401);
  });
});

describe("wrong passwords on the Security page count toward the sign-in lockout", () => {
  const limit = () => config().signInLockout.failures;
  const wrong = (i: number) => ({ currentPassword: `not my password ${i}`, newPassword: "a new password", confirmPassword: "a new password" });

  async function statusOf(p: Promise<unknown>) {
    const e = await p.then(() => null, (x: unknown) => x);
    return e instanceof ApiError ? e.status : e ? "other" : "ok";
  }

  it("locks the email after SIGN_IN_LOCKOUT_FAILURES wrong current passwords: 429 for the change and for sign-in", async () => {
    const u = await user();
    const auth = await getAuth();
    for (let i = 0; i < limit(); i++) expect(await statusOf(changePassword(auth, u.headers, wrong(i)))).toBe(400);
    // Locked: refused without a check, even with the right password.
    const right = { currentPassword: u.password, newPassword: "a new password", confirmPassword: "a new password" };
    const e = await changePassword(auth, u.headers, right).then(() => null, (x: unknown) => x);
    expect(e).toBeInstanceOf(ApiError);
    expect((e as ApiError).status).toBe(429);
    expect((e as ApiError).detail).toMatch(/^Too many failed sign-ins with this email address\. .*try again in 15 minutes\.$/);
    expect((await signIn(u.email, u.password)).status).toBe(429);
    expect(await sessionEmail(u.cookie)).toBe(u.email); // nothing changed meanwhile
  });

  it("is refused while sign-in failures have locked the email", async () => {
    const u = await user();
    for (let i = 0; i < limit(); i++) expect((await signIn(u.email, `wrong ${i}`)).status).toBe(401);
    const right = { currentPassword: u.password, newPassword: "a new password", confirmPassword: "a new password" };
    expect(await statusOf(changePassword(await getAuth(), u.headers, right))).toBe(429);
  });

  it("counts the two-factor set-up's password checks too", async () => {
    const u = await user();
    const enable = (password: string) => authCall("/two-factor/enable", { body: { password }, cookie: u.cookie });
    for (let i = 0; i < limit(); i++) expect((await enable(`wrong ${i}`)).status).toBe(400);
    const locked = await enable(u.password);
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get("retry-after"))).toBeGreaterThan(14 * 60);
  });
});
