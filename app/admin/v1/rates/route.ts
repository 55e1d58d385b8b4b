import { z } from "zod";
import { ratesReport } from "@/lib/admin/rates";
import { envelope } from "@/lib/http/respond";
import { otherMethods, withAdmin } from "@/lib/http/route";

export const GET = withAdmin(z.object({}), async ({ req, db }) => envelope(req, await ratesReport(db)));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
