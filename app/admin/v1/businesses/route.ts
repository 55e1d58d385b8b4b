import { z } from "zod";
import { createBusiness } from "@/lib/admin/businesses";
import { CreateBusinessSchema } from "@/lib/admin/schemas";
import { readBody } from "@/lib/http/body";
import { envelope } from "@/lib/http/respond";
import { otherMethods, withAdmin } from "@/lib/http/route";

export const POST = withAdmin(z.object({}), async ({ req, db }) => {
  const input = (await readBody(req, CreateBusinessSchema)).data;
  return envelope(req, await createBusiness(db, input), 201);
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["POST"]);
