import { z } from "zod";
import { createApiKey, listKeys } from "@/lib/businesses/businesses";
import { CreateApiKeySchema } from "@/lib/businesses/schemas";
import { readBody } from "@/lib/http/body";
import { envelope } from "@/lib/http/respond";
import { businessIdParam, otherMethods } from "@/lib/http/route";
import { withAdmin } from "@/lib/accounts/route-auth";

const params = z.object({ businessId: businessIdParam });

export const POST = withAdmin(params, async ({ req, db, params }) => {
  // The body may be left out: the key then acts for this business only.
  const input = (await readBody(req, CreateApiKeySchema, { optional: true })).data;
  return envelope(req, await createApiKey(db, params.businessId, input), 201);
});

export const GET = withAdmin(params, async ({ req, db, params }) => envelope(req, await listKeys(db, params.businessId)));

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET", "POST"]);
