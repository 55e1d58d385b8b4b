import { headers } from "next/headers";
import { notFound, redirect } from "next/navigation";
import { getDb } from "@/db/client";
import type { MemberRole } from "@/db/schema/accounts";
import type { Business } from "@/db/schema";
import { getAuth } from "./auth";
import { ApiError, plainFieldErrors } from "@/lib/http/errors";
import { authorize } from "./authorize";
import type { Permission } from "./roles";
import { log } from "@/log/logger.mjs";

export type DashboardUser = { id: string; email: string; name: string; twoFactorEnabled: boolean };

/** The signed-in user of this request (from the session cookie), or null. */
export async function currentUser(): Promise<DashboardUser | null> {
  // headers() first: it marks the page dynamic before anything opens the database (a build's prerender must not).
  const requestHeaders = await headers();
  const session = await (await getAuth()).api.getSession({ headers: requestHeaders });
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
 * For pages: the signed-in user's membership of `businessId` with `permission` (lib/accounts/
 * authorize.ts). Anything short of it renders the 404 page, whatever the reason, so a page never
 * tells another merchant's ids apart from ids that do not exist.
 */
export async function requireMember(businessId: string | number, permission: Permission = "view"): Promise<Membership> {
  const user = await requireUser();
  try {
    const { business, role } = await authorize(await getDb(), user.id, businessId, permission);
    return { user, business, role };
  } catch (e) {
    if (e instanceof ApiError) notFound();
    throw e;
  }
}

export type ActionResult<T = undefined> =
  | { ok: true; data?: T; message?: string }
  | { ok: false; error: string; fieldErrors?: Record<string, string[]>; status?: number };

/**
 * For server actions: runs `work` for the signed-in user, turning the service's errors into a
 * result the form shows (`detail` and field errors), never a stack trace. Not signed in: 401.
 */
export async function asUser<T>(work: (user: DashboardUser) => Promise<T>): Promise<ActionResult<T>> {
  const user = await currentUser();
  if (!user) return { ok: false, error: "Your session has ended. Sign in again.", status: 401 };
  try {
    return { ok: true, data: await work(user) };
  } catch (e) {
    if (e instanceof ApiError) return { ok: false, error: e.detail, fieldErrors: plainFieldErrors(e.fieldErrors), status: e.status };
    log.error({ component: "dashboard", userId: user.id, err: e }, "a dashboard action failed");
    return { ok: false, error: "Something went wrong on our side. Please try again.", status: 500 };
  }
}
