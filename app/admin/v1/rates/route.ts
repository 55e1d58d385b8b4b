import { z } from "zod";
import { ratesReport } from "@/lib/rates/report";
import { envelope } from "@/lib/http/respond";
import { otherMethods } from "@/lib/http/route";
import { withAdmin } from "@/lib/accounts/route-auth";

export const GET = withAdmin(z.object({}), async ({ req, db }) => envelope(req, await ratesReport(db)));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
