import { z } from "zod";
import { getBusiness, patchBusiness } from "@/lib/businesses/businesses";
import { MAX_BUSINESS_BODY_BYTES, PatchBusinessSchema } from "@/lib/businesses/schemas";
import { readBody } from "@/lib/http/body";
import { envelope } from "@/lib/http/respond";
import { businessIdParam, otherMethods } from "@/lib/http/route";
import { withAdmin } from "@/lib/accounts/route-auth";

const params = z.object({ businessId: businessIdParam });

export const GET = withAdmin(params, async ({ req, db, params }) => envelope(req, await getBusiness(db, params.businessId)));

export const PATCH = withAdmin(params, async ({ req, db, params }) => {
  const patch = (await readBody(req, PatchBusinessSchema, { maxBytes: MAX_BUSINESS_BODY_BYTES })).data;
  return envelope(req, await patchBusiness(db, params.businessId, patch));
});

export const { POST, PUT, DELETE, OPTIONS } = otherMethods(["GET", "PATCH"]);
