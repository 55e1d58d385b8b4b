import { z } from "zod";
import { chainsReport } from "@/lib/admin/chains";
import { envelope } from "@/lib/http/respond";
import { otherMethods, withAdmin } from "@/lib/http/route";

export const GET = withAdmin(z.object({}), async ({ req, db }) => envelope(req, await chainsReport(db)));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
