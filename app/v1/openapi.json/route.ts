import { otherMethods } from "@/lib/http/route";
import { openApiDocument } from "@/lib/openapi/document";

// Built at request time: the servers entry comes from the runtime PUBLIC_BASE_URL.
export const dynamic = "force-dynamic";

/** The OpenAPI 3.1 document (D11): public, no authentication. */
export async function GET(): Promise<Response> {
  return Response.json(openApiDocument(), {
    headers: {
      "content-type": "application/json; charset=utf-8",
      "cache-control": "public, max-age=300",
      "access-control-allow-origin": "*",
    },
  });
}

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
