import { z } from "zod";
import { UnlockSignInSchema } from "@/lib/accounts/schemas";
import { unlockSignIn } from "@/lib/accounts/sign-in-lockout";
import { readBody } from "@/lib/http/body";
import { envelope } from "@/lib/http/respond";
import { otherMethods } from "@/lib/http/route";
import { withAdmin } from "@/lib/accounts/route-auth";

/** Lifts an email address's sign-in lockout at once (a merchant locked out by someone else's guesses). */
export const POST = withAdmin(z.object({}), async ({ req, db }) => {
  const { email } = (await readBody(req, UnlockSignInSchema)).data;
  return envelope(req, await unlockSignIn(db, email));
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["POST"]);
