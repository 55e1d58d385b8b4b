import { z } from "zod";
import { createApiKey, listKeys } from "@/lib/admin/businesses";
import { CreateApiKeySchema } from "@/lib/admin/schemas";
import { parseWith, readJsonBody } from "@/lib/http/parse";
import { envelope } from "@/lib/http/respond";
import { businessIdParam, otherMethods, withAdmin } from "@/lib/http/route";

const params = z.object({ businessId: businessIdParam });

export const POST = withAdmin(params, async ({ req, db, params }) => {
  // An empty body is allowed: the key then acts for this business only.
  const hasBody = req.headers.get("content-length") !== "0" && req.body !== null;
  const input = parseWith(CreateApiKeySchema, hasBody ? await readJsonBody(req) : {});
  return envelope(req, await createApiKey(db, params.businessId, input), 201);
});

export const GET = withAdmin(params, async ({ req, db, params }) => envelope(req, await listKeys(db, params.businessId)));

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET", "POST"]);
