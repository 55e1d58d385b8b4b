import { z } from "zod";
import { revokeKey } from "@/lib/businesses/businesses";
import { envelope } from "@/lib/http/respond";
import { businessIdParam, otherMethods } from "@/lib/http/route";
import { withAdmin } from "@/lib/accounts/route-auth";

const params = z.object({ businessId: businessIdParam, keyId: z.string().regex(/^key_[A-Za-z0-9_-]{1,64}$/, "must be a key id (key_…)") });

export const DELETE = withAdmin(params, async ({ req, db, params }) =>
  envelope(req, await revokeKey(db, params.businessId, params.keyId)),
);

export const { GET, POST, PUT, PATCH, OPTIONS } = otherMethods(["DELETE"]);
