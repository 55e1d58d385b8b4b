import { metricsEndpoint } from "@/lib/health/endpoints";
import { otherMethods } from "@/lib/http/route";

export const dynamic = "force-dynamic";

export const GET = metricsEndpoint;

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
