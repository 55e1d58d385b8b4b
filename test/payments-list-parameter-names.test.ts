import { beforeAll, describe, expect, it } from "vitest";
import { createPayment, newBusiness } from "./helpers";
import { type Biz, at, expect400, listOk, setColumns } from "./payments-list-support";

/**
 * D1: GET /v1/businesses/{businessId}/payments, its query parameter names: matched
 * case-insensitively; an unknown name (Object.prototype's members too) is a 400 naming it.
 * Through the real route handler against the real database; shared setup in
 * ./payments-list-support.ts.
 */

describe("query parameter names", () => {
  let b: Biz;
  let expected: string[];

  beforeAll(async () => {
    b = await newBusiness();
    const made: string[] = [];
    for (let i = 0; i < 6; i++) {
      const { id } = await createPayment(b);
      await setColumns(id, { createdAt: at(i * 1000), status: i % 2 ? "COMPLETED" : "AWAITING_PAYMENT" });
      made.push(id);
    }
    expected = made.reverse();
  });

  it("match case-insensitively", async () => {
    const data = await listOk(b, "?pagesize=2&PAGENUMBER=2");
    expect(data).toMatchObject({ pageNumber: 2, pageSize: 2, totalCount: 6, totalPages: 3 });
    expect(data.items.map((p) => p.id)).toEqual(expected.slice(2, 4));
    expect(await listOk(b, "?pageSize=3&pageNumber=1")).toMatchObject({ pageSize: 3, pageNumber: 1 });
    for (const name of ["Statuses", "STATUSES", "statuses"]) {
      const data2 = await listOk(b, `?${name}=COMPLETED`);
      expect(data2.totalCount).toBe(3);
      expect(data2.items.every((p) => p.status === "COMPLETED")).toBe(true);
    }
    expect((await listOk(b, `?FROMTIME=${encodeURIComponent(at(4000).toISOString())}`)).totalCount).toBe(2);
  });

  it("an unknown parameter → 400 naming it", async () => {
    const body = await expect400(b, "?foo=1", "foo");
    expect(body.errors.foo[0]).toMatch(/unknown/i);
    await expect400(b, "?pageSiz=5", "pageSiz");
    await expect400(b, "?PageSize=5&status=COMPLETED", "status");
  });

  it("names of Object.prototype members are unknown parameters too, not a server error", async () => {
    for (const name of ["constructor", "toString", "__proto__", "hasOwnProperty"]) {
      await expect400(b, `?${name}=1`, name);
    }
  });
});
