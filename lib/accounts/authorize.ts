import type { Tx } from "@/db/client";
import { findBusiness } from "@/db/queries/businesses";
import { membershipOf } from "@/db/queries/members";
import type { MemberRole } from "@/db/schema/accounts";
import type { Business } from "@/db/schema";
import { ApiError, notFound } from "@/lib/http/errors";
import { can, type Permission } from "./roles";

export type Authorized = { business: Business; role: MemberRole };

/** A business id from a URL or a form: a positive integer, else null. */
export function businessIdOf(value: unknown): number | null {
  const text = typeof value === "number" ? String(value) : typeof value === "string" ? value : "";
  return /^[1-9][0-9]{0,15}$/.test(text) && Number.isSafeInteger(Number(text)) ? Number(text) : null;
}

/**
 * The one check every dashboard page and action makes on the server: `userId` belongs to the
 * business and its role grants `permission`. Not a member (or no such business): 404, so ids of
 * other merchants reveal nothing. A member whose role lacks the permission: 403 naming the role.
 */
export async function authorize(tx: Tx, userId: string, businessId: unknown, permission: Permission = "view"): Promise<Authorized> {
  const id = businessIdOf(businessId);
  const missing = () => notFound(`No business ${String(businessId)} exists.`);
  if (id === null) throw missing();
  const role = await membershipOf(tx, userId, id);
  if (!role) throw missing();
  const business = await findBusiness(tx, id);
  if (!business) throw missing();
  if (!can(role, permission)) throw new ApiError("forbidden", 403, `Your role (${role}) cannot do this; ask an owner of the business.`);
  return { business, role };
}
