import { z } from "zod";
import { createBusiness } from "@/lib/businesses/businesses";
import { CreateBusinessSchema, MAX_BUSINESS_BODY_BYTES } from "@/lib/businesses/schemas";
import { readBody } from "@/lib/http/body";
import { envelope } from "@/lib/http/respond";
import { otherMethods } from "@/lib/http/route";
import { withAdmin } from "@/lib/accounts/route-auth";

export const POST = withAdmin(z.object({}), async ({ req, db }) => {
  const input = (await readBody(req, CreateBusinessSchema, { maxBytes: MAX_BUSINESS_BODY_BYTES })).data;
  return envelope(req, await createBusiness(db, input), 201);
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["POST"]);
