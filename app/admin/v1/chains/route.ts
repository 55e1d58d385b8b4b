import { z } from "zod";
import { chainsReport } from "@/lib/chains/health-report";
import { envelope } from "@/lib/http/respond";
import { otherMethods } from "@/lib/http/route";
import { withAdmin } from "@/lib/accounts/route-auth";

export const GET = withAdmin(z.object({}), async ({ req, db }) => envelope(req, await chainsReport(db)));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
