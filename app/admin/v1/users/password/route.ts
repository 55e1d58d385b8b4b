import { z } from "zod";
import { setPassword, SetPasswordSchema } from "@/lib/accounts/set-password";
import { readBody } from "@/lib/http/body";
import { envelope } from "@/lib/http/respond";
import { otherMethods } from "@/lib/http/route";
import { withAdmin } from "@/lib/accounts/route-auth";

/** Sets a dashboard user's password (a generated one is shown once) and ends the user's sessions. */
export const POST = withAdmin(z.object({}), async ({ req, db }) => {
  const input = (await readBody(req, SetPasswordSchema)).data;
  return envelope(req, await setPassword(db, input));
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["POST"]);
