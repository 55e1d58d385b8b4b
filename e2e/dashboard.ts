import { expect, type APIRequestContext, type Page } from "@playwright/test";
import { base32 } from "@scure/base";
import { createOTP } from "@better-auth/utils/otp";
import { adminAuth } from "./helpers";

/** Shared steps of the dashboard specs: users through the admin API, signing in through the page. */

export type DashboardUser = { userId: string; email: string; password: string };

let seq = 0;
export async function newUser(request: APIRequestContext, businessId: number, role: "owner" | "developer" | "viewer" = "owner"): Promise<DashboardUser> {
  const email = `${role}-${Date.now()}-${++seq}@shop.example`;
  const res = await request.post("/admin/v1/users", { headers: adminAuth, data: { email, businessId, role } });
  expect(res.status(), await res.text()).toBe(201);
  const data = (await res.json()).data as { userId: string; email: string; password: string };
  return { userId: data.userId, email: data.email, password: data.password };
}

export async function signIn(page: Page, user: { email: string; password: string }) {
  await page.goto("/dashboard/sign-in");
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

/** The current code of a base32 TOTP secret; `next` waits for the following 30 s period (a code is good once). */
export async function totp(secret: string, o: { next?: boolean } = {}): Promise<string> {
  if (o.next) await new Promise((r) => setTimeout(r, 30_000 - (Date.now() % 30_000) + 200));
  return createOTP(base32.decode(secret.toUpperCase().replace(/=+$/, "").padEnd(Math.ceil(secret.length / 8) * 8, "=")), { digits: 6, period: 30 }).totp();
}
