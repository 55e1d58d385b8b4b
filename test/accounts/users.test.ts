import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { businessesOfUser, findUserByEmail, membershipOf } from "@/db/queries/members";
import { authorize } from "@/lib/accounts/authorize";
import { can } from "@/lib/accounts/roles";
import { buildRequest } from "@/scripts/admin-cli";
import { adminToken, expectProblem, json, newBusiness, request } from "../helpers";
import { unique } from "./support";

const createUser = (body: unknown, key: string | null = adminToken()) => request("POST", "/admin/v1/users", { key, body });

describe("POST /admin/v1/users", () => {
  it("creates an owner with a generated password shown once, and adds an existing user to another business", async () => {
    const a = await newBusiness();
    const b = await newBusiness();
    const email = unique("Owner");
    const res = await createUser({ email, businessId: a.businessId });
    expect(res.status).toBe(201);
    const made = (await json(res)).data;
    expect(made).toMatchObject({ email: email.toLowerCase(), created: true, businessId: a.businessId, role: "owner", signInUrl: "http://pay.test/dashboard/sign-in" });
    expect(made.password).toMatch(/^[A-Za-z0-9_-]{24}$/);
    const again = await createUser({ email, businessId: b.businessId, role: "viewer" });
    expect(again.status).toBe(200);
    expect((await json(again)).data).toMatchObject({ created: false, password: null, userId: made.userId, role: "viewer" });
    const db = await getDb();
    expect(await membershipOf(db, made.userId, a.businessId)).toBe("owner");
    expect(await membershipOf(db, made.userId, b.businessId)).toBe("viewer");
    expect((await businessesOfUser(db, made.userId)).map((x) => x.id).sort()).toEqual([a.businessId, b.businessId].sort());
    // The password is stored as a scrypt hash, never as given.
    const user = await findUserByEmail(db, email);
    expect(user?.emailVerified).toBe(true);
  });

  it("refuses bad input with field errors, and anyone without the admin token", async () => {
    const a = await newBusiness();
    await expectProblem(await createUser({ email: "not-an-email", businessId: a.businessId }), 400, ["email"]);
    await expectProblem(await createUser({ email: unique("x"), businessId: a.businessId, role: "admin" }), 400, ["role"]);
    await expectProblem(await createUser({ email: unique("x"), businessId: a.businessId, password: "short" }), 400, ["password"]);
    await expectProblem(await createUser({ email: unique("x"), businessId: 987654321 }), 400, ["businessId"]);
    await expectProblem(await createUser({ email: unique("x"), businessId: a.businessId }, null), 401);
  });

  it("npm run admin -- user create builds the request", () => {
    expect(buildRequest(["user", "create", "--email", "a@shop.example", "--business", "7", "--role", "developer"])).toEqual({
      method: "POST",
      path: "/admin/v1/users",
      body: { email: "a@shop.example", businessId: 7, role: "developer" },
    });
    expect(() => buildRequest(["user", "create", "--business", "7"])).toThrow(/needs --email/);
    expect(() => buildRequest(["user", "create", "--email", "a@shop.example"])).toThrow(/needs --business/);
  });
});

describe("roles", () => {
  it("viewers only look; developers also manage keys, webhooks and notes and see secrets; owners also settings and members", () => {
    expect(can("viewer", "view")).toBe(true);
    for (const p of ["edit-notes", "manage-keys", "manage-webhooks", "see-secrets", "manage-settings", "manage-members"] as const) expect(can("viewer", p)).toBe(false);
    for (const p of ["view", "edit-notes", "manage-keys", "manage-webhooks", "see-secrets"] as const) expect(can("developer", p)).toBe(true);
    expect(can("developer", "manage-settings")).toBe(false);
    expect(can("developer", "manage-members")).toBe(false);
    for (const p of ["view", "edit-notes", "manage-keys", "manage-webhooks", "see-secrets", "manage-settings", "manage-members"] as const) expect(can("owner", p)).toBe(true);
  });
});

describe("authorize (every dashboard page and action)", () => {
  it("404 for another business or a made-up id, 403 for a role without the permission", async () => {
    const mine = await newBusiness();
    const theirs = await newBusiness();
    const viewer = (await json(await createUser({ email: unique("viewer"), businessId: mine.businessId, role: "viewer" }))).data;
    const db = await getDb();
    await expect(authorize(db, viewer.userId, mine.businessId)).resolves.toMatchObject({ role: "viewer", business: { id: mine.businessId } });
    for (const id of [theirs.businessId, 987654321, "abc", "0", "1e3", -1]) {
      await expect(authorize(db, viewer.userId, id)).rejects.toMatchObject({ status: 404 });
    }
    await expect(authorize(db, viewer.userId, mine.businessId, "manage-keys")).rejects.toMatchObject({ status: 403, detail: expect.stringContaining("viewer") });
  });
});
