import { describe, it } from "vitest";
import { adminToken, expectProblem, newBusiness, request } from "../helpers";

/** Dashboard users' e-mail addresses keep RFC 5321's limits, as every `format: email` field does (lib/http/email-field.ts). */
const local65 = `${"a".repeat(65)}@shop.example`;
const total255 = `jane@${"d".repeat(60)}.${"e".repeat(60)}.${"f".repeat(60)}.${"g".repeat(63)}.com`;

describe("admin user e-mails", () => {
  it("POST /admin/v1/users and /admin/v1/users/unlock refuse a local part over 64 characters and an address over 254", async () => {
    const b = await newBusiness();
    for (const email of [local65, total255]) {
      await expectProblem(await request("POST", "/admin/v1/users", { key: adminToken(), body: { email, businessId: b.businessId } }), 400, ["email"]);
      await expectProblem(await request("POST", "/admin/v1/users/unlock", { key: adminToken(), body: { email } }), 400, ["email"]);
    }
  });
});
