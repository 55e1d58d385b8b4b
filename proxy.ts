import { NextResponse, type NextRequest } from "next/server";

/**
 * The framework answers a path it cannot percent-decode with a bare 500. API clients get a
 * ProblemDetails 400 instead (D11), before routing. Only the API prefixes pass through here.
 */
export function proxy(req: NextRequest) {
  try {
    for (const segment of req.nextUrl.pathname.split("/")) decodeURIComponent(segment);
    return NextResponse.next();
  } catch {
    return NextResponse.json(
      {
        type: "/docs#problem-malformed-request",
        title: "Malformed request",
        status: 400,
        detail: "The request path is not valid percent-encoded UTF-8.",
        instance: req.nextUrl.pathname,
      },
      { status: 400, headers: { "content-type": "application/problem+json; charset=utf-8" } },
    );
  }
}

// Only paths with a percent sign can fail to decode: every other API request skips the proxy.
export const config = { matcher: ["/v1/(.*%.*)", "/admin/v1/(.*%.*)"] };
