import { getAuth } from "@/lib/accounts/auth";

/** Better Auth's endpoints (sign-in, sign-out, session, two-factor) under /api/auth. */
async function handle(req: Request): Promise<Response> {
  return (await getAuth()).handler(req);
}

export { handle as GET, handle as POST };
