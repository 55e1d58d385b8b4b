import { describe, expect, it } from "vitest";
import { NextRequest } from "next/server";
import * as route from "@/app/api/inngest/route";

describe("/api/inngest", () => {
  it("answers 404 with a ProblemDetails when Inngest is not configured (the embedded runner runs)", async () => {
    for (const method of ["GET", "POST", "PUT"] as const) {
      const res = await route[method](new NextRequest("http://localhost/api/inngest", { method }), undefined);
      expect(res.status).toBe(404);
      expect(res.headers.get("content-type")).toMatch(/^application\/problem\+json/);
      expect((await res.json()).detail).toMatch(/INNGEST_EVENT_KEY or INNGEST_DEV/);
    }
  });
});
