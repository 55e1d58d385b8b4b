import { expect } from "vitest";
import { getDb } from "@/db/client";
import type { MemberRole } from "@/db/schema/accounts";
import { createUser } from "@/lib/accounts/users";
import type { CreateBusinessInput } from "@/lib/businesses/schemas";
import { ApiError } from "@/lib/http/errors";
import { signIn as signInAs, unique } from "../accounts/support";
import { newBusiness } from "../helpers";

/** Shared steps of the dashboard tests: a business with one user per role, and the expected errors. */

export { unique };

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

/** Signs in through Better Auth's own handler (as the browser does): the response's status. */
export async function signIn(email: string, password: string): Promise<number> {
  return (await signInAs(email, password)).status;
}
