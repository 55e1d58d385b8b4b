import { expect } from "vitest";
import { getDb } from "@/db/client";
import type { MemberRole } from "@/db/schema/accounts";
import { getAuth } from "@/lib/accounts/auth";
import { createUser } from "@/lib/accounts/users";
import type { CreateBusinessInput } from "@/lib/admin/schemas";
import { config } from "@/lib/config";
import { ApiError } from "@/lib/http/errors";
import { newBusiness } from "../helpers";

/** Shared steps of the dashboard tests: a business with one user per role, and the expected errors. */

export const unique = (name: string) => `${name}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@shop.example`;

export async function userOf(businessId: number, role: MemberRole, password?: string) {
  const made = await createUser(await getDb(), { email: unique(role), businessId, role, password });
  return made.userId;
}

/**
 * Business A with an owner, a developer and a viewer, and business B with an owner of its own:
 * the permission matrix and the isolation cases.
 */
export async function team(settings: Partial<CreateBusinessInput> = {}) {
  const a = await newBusiness(settings);
  const b = await newBusiness(settings);
  const [owner, developer, viewer, ownerOfB] = await Promise.all([
    userOf(a.businessId, "owner"),
    userOf(a.businessId, "developer"),
    userOf(a.businessId, "viewer"),
    userOf(b.businessId, "owner"),
  ]);
  return { db: await getDb(), a, b, owner, developer, viewer, ownerOfB, roles: { owner, developer, viewer } };
}

/** Awaits `work` and asserts it failed with the ApiError of `status` (and, given, exactly these field errors). */
export async function rejects(work: Promise<unknown>, status: number, fields?: string[]): Promise<ApiError> {
  let error: unknown;
  try {
    await work;
  } catch (e) {
    error = e;
  }
  expect(error, "expected an ApiError").toBeInstanceOf(ApiError);
  const e = error as ApiError;
  expect(e.status, e.detail).toBe(status);
  if (fields) expect(Object.keys(e.fieldErrors ?? {}).sort()).toEqual([...fields].sort());
  return e;
}

let ipSeq = 0;

/** Signs in through Better Auth's own handler (as the browser does): the response's status. */
export async function signIn(email: string, password: string): Promise<number> {
  const origin = config().publicBaseUrl;
  const ip = `203.0.113.${(++ipSeq % 200) + Math.floor(Math.random() * 50)}`;
  const res = await (await getAuth()).handler(
    new Request(`${origin}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { origin, "content-type": "application/json", "x-forwarded-for": ip },
      body: JSON.stringify({ email, password }),
    }),
  );
  return res.status;
}
