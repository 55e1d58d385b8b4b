import { headers } from "next/headers";
import { notFound, redirect } from "next/navigation";
import { getDb } from "@/db/client";
import { findBusiness } from "@/db/queries/businesses";
import { membershipOf } from "@/db/queries/members";
import type { MemberRole } from "@/db/schema/accounts";
import type { Business } from "@/db/schema";
import { getAuth } from "./auth";
import { can, type Permission } from "./roles";

export type DashboardUser = { id: string; email: string; name: string; twoFactorEnabled: boolean };

/** The signed-in user of this request (from the session cookie), or null. */
export async function currentUser(): Promise<DashboardUser | null> {
  const session = await (await getAuth()).api.getSession({ headers: await headers() });
  if (!session) return null;
  const u = session.user;
  return { id: u.id, email: u.email, name: u.name, twoFactorEnabled: Boolean(u.twoFactorEnabled) };
}

/** The signed-in user, or a redirect to the sign-in page. */
export async function requireUser(): Promise<DashboardUser> {
  const user = await currentUser();
  if (!user) redirect("/dashboard/sign-in");
  return user;
}

export type Membership = { user: DashboardUser; business: Business; role: MemberRole };

/**
 * The signed-in user's membership of `businessId` with `permission`. A business the user does
 * not belong to (or that does not exist) is a 404, so ids of other merchants reveal nothing;
 * a member whose role lacks the permission gets a 404 too on pages, and actions say why.
 */
export async function requireMember(businessId: string | number, permission: Permission = "view"): Promise<Membership> {
  const user = await requireUser();
  const id = typeof businessId === "number" ? businessId : /^[1-9][0-9]{0,15}$/.test(businessId) ? Number(businessId) : NaN;
  if (!Number.isSafeInteger(id)) notFound();
  const db = await getDb();
  const role = await membershipOf(db, user.id, id);
  if (!role || !can(role, permission)) notFound();
  const business = await findBusiness(db, id);
  if (!business) notFound();
  return { user, business, role };
}
