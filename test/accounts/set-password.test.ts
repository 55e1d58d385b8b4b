import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { membershipOf } from "@/db/queries/members";
import { getAuth } from "@/lib/accounts/auth";
import { buildRequest, HELP } from "@/scripts/admin-cli";
import { adminToken, expectProblem, json, newBusiness, request } from "../helpers";
import { cookieOf, signIn, unique } from "./support";

/** The operator sets a dashboard user's password (POST /admin/v1/users/password, lib/accounts/set-password.ts). */

const createUser = (body: unknown) => request("POST", "/admin/v1/users", { key: adminToken(), body });
const setPassword = (body: unknown, key: string | null = adminToken()) => request("POST", "/admin/v1/users/password", { key, body });

/** The email of the session `cookie` carries, or null. */
async function sessionOf(cookie: string): Promise<string | null> {
  const session = await (await getAuth()).api.getSession({ headers: new Headers({ cookie }) });
  return session?.user.email ?? null;
}

async function owner(password = "the first password") {
  const b = await newBusiness();
  const email = unique("Reset");
  const made = (await json(await createUser({ email, businessId: b.businessId, password }))).data;
  return { businessId: b.businessId, email: email.toLowerCase(), password, userId: made.userId as string };
}

describe("POST /admin/v1/users/password", () => {
  it("sets the given password: the old one stops working, the new one works, and every session ends", async () => {
    const u = await owner();
    const first = cookieOf(await signIn(u.email, u.password));
    const second = cookieOf(await signIn(u.email, u.password));
    expect(await sessionOf(first)).toBe(u.email);

    const res = await setPassword({ email: u.email.toUpperCase(), password: "a password the operator chose" });
    expect(res.status).toBe(200);
    expect((await json(res)).data).toEqual({ userId: u.userId, email: u.email, password: null, sessionsEnded: 2 });
    expect(await sessionOf(first)).toBeNull();
    expect(await sessionOf(second)).toBeNull();
    expect((await signIn(u.email, u.password)).status).toBe(401);
    expect((await signIn(u.email, "a password the operator chose")).status).toBe(200);
  });

  it("without a password, generates one and shows it once", async () => {
    const u = await owner();
    const made = (await json(await setPassword({ email: u.email }))).data;
    expect(made).toMatchObject({ userId: u.userId, sessionsEnded: 0 });
    expect(made.password).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect((await signIn(u.email, made.password)).status).toBe(200);
    expect((await signIn(u.email, u.password)).status).toBe(401);
  });

  it("refuses an unknown email (404), a password outside the rule (400), and anyone without the admin token", async () => {
    const u = await owner();
    const missing = await setPassword({ email: unique("nobody") });
    expect(missing.status).toBe(404);
    expect((await json(missing)).detail).toMatch(/^No dashboard user has the email nobody-.*user create/);
    await expectProblem(await setPassword({ email: u.email, password: "short" }), 400, ["password"]);
    await expectProblem(await setPassword({ email: "not-an-email" }), 400, ["email"]);
    await expectProblem(await setPassword({ email: u.email, role: "owner" }), 400);
    await expectProblem(await setPassword({ email: u.email, password: "a fine new password" }, null), 401);
    expect((await signIn(u.email, u.password)).status).toBe(200);
  });
});

describe("POST /admin/v1/users with a password for an existing user", () => {
  it("is refused with 409, naming how to set it, and changes nothing", async () => {
    const u = await owner();
    const other = await newBusiness();
    const res = await createUser({ email: u.email, businessId: other.businessId, password: "a different password" });
    await expectProblem(res.clone(), 409);
    const problem = await json(res);
    expect(problem.detail).toContain(`${u.email} already has a dashboard account, and this does not change its password.`);
    expect(problem.detail).toContain("POST /admin/v1/users/password (npm run admin -- user set-password)");
    expect(await membershipOf(await getDb(), u.userId, other.businessId)).toBeUndefined();
    expect((await signIn(u.email, "a different password")).status).toBe(401);
    expect((await signIn(u.email, u.password)).status).toBe(200);
    // Without a password the existing user is added, as before.
    expect((await createUser({ email: u.email, businessId: other.businessId, role: "viewer" })).status).toBe(200);
    expect(await membershipOf(await getDb(), u.userId, other.businessId)).toBe("viewer");
  });
});

describe("npm run admin -- user set-password", () => {
  it("builds the request, and is in the help", () => {
    expect(buildRequest(["user", "set-password", "--email", "a@shop.example"])).toEqual({
      method: "POST",
      path: "/admin/v1/users/password",
      body: { email: "a@shop.example" },
    });
    expect(buildRequest(["user", "set-password", "--email", "a@shop.example", "--password", "a fine new password"])).toEqual({
      method: "POST",
      path: "/admin/v1/users/password",
      body: { email: "a@shop.example", password: "a fine new password" },
    });
    expect(() => buildRequest(["user", "set-password"])).toThrow("user set-password needs --email");
    expect(() => buildRequest(["user", "set-password", "--email", "a@shop.example", "--business", "1"])).toThrow(/Unknown option '--business'/);
    expect(HELP).toMatch(/^  user set-password --email E \[--password P\] +set a user's password/m);
  });
});
