/**
 * Where the sign-in page may send the browser once signed in (`?next=`): a dashboard path of this
 * service, letters, digits, `_` and `-` between slashes, so never another site (`//evil.example`,
 * `/\evil.example`, `https://…`) nor a path that climbs out (`/dashboard/../x`). Null otherwise.
 */
export function dashboardPath(next: unknown): string | null {
  return typeof next === "string" && /^\/dashboard(?:\/[A-Za-z0-9_-]+)*$/.test(next) ? next : null;
}
