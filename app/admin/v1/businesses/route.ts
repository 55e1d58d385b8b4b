import { z } from "zod";
import { createBusiness } from "@/lib/admin/businesses";
import { CreateBusinessSchema } from "@/lib/admin/schemas";
import { parseWith, readJsonBody } from "@/lib/http/parse";
import { envelope } from "@/lib/http/respond";
import { otherMethods, withAdmin } from "@/lib/http/route";

export const POST = withAdmin(z.object({}), async ({ req, db }) => {
  const input = parseWith(CreateBusinessSchema, await readJsonBody(req));
  return envelope(req, await createBusiness(db, input), 201);
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["POST"]);
