import { healthz } from "@/lib/health/endpoints";
import { otherMethods } from "@/lib/http/route";

export const dynamic = "force-dynamic";

export const GET = healthz;

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
