import { z } from "zod";
import { CreateUserSchema } from "@/lib/accounts/schemas";
import { createUser } from "@/lib/accounts/users";
import { config } from "@/lib/config";
import { readBody } from "@/lib/http/body";
import { envelope } from "@/lib/http/respond";
import { otherMethods } from "@/lib/http/route";
import { withAdmin } from "@/lib/accounts/route-auth";

/** Creates a dashboard user of a business (or adds an existing user to it); a generated password is shown once. */
export const POST = withAdmin(z.object({}), async ({ req, db }) => {
  const input = (await readBody(req, CreateUserSchema)).data;
  const made = await createUser(db, input);
  return envelope(req, { ...made, businessId: input.businessId, role: input.role, signInUrl: `${config().publicBaseUrl}/dashboard/sign-in` }, made.created ? 201 : 200);
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["POST"]);
