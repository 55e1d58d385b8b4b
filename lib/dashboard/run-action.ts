import { asUser, type ActionResult, type DashboardUser } from "@/lib/accounts/session";
import type { FieldErrors } from "@/lib/http/errors";

/**
 * A server action's field errors as a plain object. The validation errors are built without a
 * prototype (lib/http/errors.ts, `newFieldErrors`: field names come from the client), and React
 * refuses to send such an object back from a server action, so the form would get a server
 * error instead of its messages.
 */
export function plainFieldErrors(errors: FieldErrors | undefined): Record<string, string[]> | undefined {
  return errors ? Object.fromEntries(Object.entries(errors)) : undefined;
}

/** `asUser` for the dashboard's actions, with field errors the browser can receive. */
export async function runAction<T>(work: (user: DashboardUser) => Promise<T>): Promise<ActionResult<T>> {
  const result = await asUser(work);
  return result.ok ? result : { ...result, fieldErrors: plainFieldErrors(result.fieldErrors) };
}
