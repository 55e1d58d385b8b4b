import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { users } from "@/db/schema";
import { getAuth } from "@/lib/accounts/auth";
import { EXPOSED_AUTH_PATHS } from "@/lib/accounts/auth-handler";
import { createUser } from "@/lib/accounts/users";
import { newBusiness } from "../helpers";
import { authCall, cookieOf, signIn, unique } from "./support";

/*
 * Better Auth serves many endpoints; /api/auth exposes only those the dashboard uses
 * (lib/accounts/auth-handler.ts), and every user field Better Auth writes passes our schemas
 * (lib/accounts/auth.ts, databaseHooks), however the write comes.
 */

async function signedIn() {
  const b = await newBusiness();
  const email = unique("owner");
  const password = "correct horse battery";
  const made = await createUser(await getDb(), { email, password, businessId: b.businessId, role: "owner", name: "Olive Owner" });
  const cookie = cookieOf(await signIn(email, password));
  return { userId: made.userId, email, cookie };
}

const nameOf = async (userId: string) => (await (await getDb()).select({ name: users.name, image: users.image }).from(users).where(eq(users.id, userId)))[0];

describe("the Better Auth endpoints served under /api/auth", () => {
  it("are the dashboard's: every other endpoint Better Auth has is a 404, signed in or not", async () => {
    const u = await signedIn();
    const all = Object.values((await getAuth()).api).map((e) => (e as { path?: string }).path).filter((p): p is string => Boolean(p));
    expect(all).toEqual(expect.arrayContaining([...EXPOSED_AUTH_PATHS, "/update-user", "/change-email", "/delete-user", "/sign-up/email", "/get-session"]));
    const closed = [...new Set(all)].filter((p) => !EXPOSED_AUTH_PATHS.has(p)).map((p) => p.replace(/:[a-zA-Z]+/g, "x"));
    expect(closed.length).toBeGreaterThan(20);
    for (const path of closed) {
      for (const method of ["GET", "POST"]) {
        const res = await authCall(path, { method, cookie: u.cookie, ...(method === "POST" && { body: { name: "x".repeat(1_000_000), image: "javascript:alert(1)" } }) });
        expect(res.status, `${method} ${path}`).toBe(404);
      }
    }
    // Spelled another way, they stay closed.
    for (const path of ["/update-user/", "/Update-User", "/update%2Duser", "//update-user", "/x/../update-user"]) {
      expect((await authCall(path, { body: { name: "Mallory" }, cookie: u.cookie })).status, path).toBe(404);
    }
    expect(await nameOf(u.userId)).toEqual({ name: "Olive Owner", image: null });
  });

  it("the exposed ones still answer", async () => {
    const u = await signedIn();
    expect((await authCall("/two-factor/enable", { body: { password: "not the password" }, cookie: u.cookie })).status).toBe(400);
    expect((await authCall("/two-factor/verify-totp", { body: { code: "123456" } })).status).toBe(401);
    expect((await authCall("/sign-out", { body: {}, cookie: u.cookie })).status).toBe(200);
  });

  it("a user field Better Auth would write is held to our schemas, even through the server's own call", async () => {
    const u = await signedIn();
    const auth = await getAuth();
    const headers = new Headers({ cookie: u.cookie });
    for (const body of [{ name: "x".repeat(1_000_000) }, { name: "" }, { name: "   " }, { name: "Eve\u0000" }, { name: "Eve\u001b[31m" }, { name: "Eve\u202Eevil" }, { image: "javascript:alert(1)" }]) {
      const e = await auth.api.updateUser({ body, headers }).then(() => null, (x: unknown) => x);
      expect((e as { statusCode?: number })?.statusCode, JSON.stringify(body).slice(0, 40)).toBe(400);
    }
    expect(await nameOf(u.userId)).toEqual({ name: "Olive Owner", image: null });
    // What passes is stored as the schema gives it (trimmed).
    await auth.api.updateUser({ body: { name: "  Olive  " }, headers });
    expect((await nameOf(u.userId)).name).toBe("Olive");
  });
});
