import { getAuth } from "@/lib/accounts/auth";
import { handleAuthRequest } from "@/lib/accounts/auth-handler";
import { config } from "@/lib/config";

/** Better Auth's endpoints the dashboard uses (sign-in, sign-out, two-factor) under /api/auth. */
async function handle(req: Request): Promise<Response> {
  return handleAuthRequest(await getAuth(), config(), req);
}

export { handle as GET, handle as POST };
