import { describe, expect, it } from "vitest";
import { dashboardPath } from "@/lib/accounts/next-path";

describe("where sign-in sends the browser afterwards (?next=)", () => {
  it("is a dashboard path of this service, or nothing", () => {
    for (const ok of ["/dashboard", "/dashboard/invite/AbC_-12", "/dashboard/7/members"]) expect(dashboardPath(ok)).toBe(ok);
    for (const bad of ["//evil.example/dashboard", "/\\evil.example", "https://evil.example/dashboard", "/dashboard/../admin", "/dashboard//x", "/dashboard/x?y=1", "/dashboardx", "", undefined, ["/dashboard"]]) {
      expect(dashboardPath(bad), String(bad)).toBeNull();
    }
  });
});
