import { beforeAll, describe, expect, it } from "vitest";
import { adminToken, createPayment, json, newBusiness, request } from "./helpers";
import { type Biz, at, expect400, ids, list, listOk, q, setColumns } from "./payments-list-support";

/**
 * D1: GET /v1/businesses/{businessId}/payments for sub-businesses: what a parent and a
 * sub-business list, onBehalfOfBusinessId, keys covering sub-businesses, and never another
 * business's payments. Through the real route handler against the real database; shared setup in
 * ./payments-list-support.ts.
 */

describe("sub-businesses and onBehalfOfBusinessId", () => {
  let parent: Biz, subA: Biz, subB: Biz, other: Biz;
  let own: string, forA: string, forB: string, otherPay: string;

  beforeAll(async () => {
    parent = await newBusiness();
    subA = await newBusiness({ parentBusinessId: parent.businessId });
    subB = await newBusiness({ parentBusinessId: parent.businessId });
    other = await newBusiness();
    own = (await createPayment(parent, { currency: "USD", amount: 10, name: "shared name" })).id;
    // The parent's key acts for its sub-business.
    forA = (await createPayment({ businessId: subA.businessId, apiKey: parent.apiKey }, { currency: "USD", amount: 10, name: "shared name" })).id;
    forB = (await createPayment(subB, { currency: "USD", amount: 10, name: "shared name" })).id;
    otherPay = (await createPayment(other, { currency: "USD", amount: 10, name: "shared name" })).id;
    for (const [i, id] of [own, forA, forB, otherPay].entries()) await setColumns(id, { createdAt: at(i * 1000) });
  });

  it("the parent lists its own and its sub-businesses' payments", async () => {
    const data = await listOk(parent);
    expect(data.totalCount).toBe(3);
    expect(data.items.map((p) => p.id)).toEqual([forB, forA, own]);
    const byId = new Map(data.items.map((p) => [p.id, p]));
    expect(byId.get(forA)!.onBehalfOfBusinessId).toBe(subA.businessId);
    expect(byId.get(forB)!.onBehalfOfBusinessId).toBe(subB.businessId);
    expect(byId.get(own)).not.toHaveProperty("onBehalfOfBusinessId");
  });

  it("onBehalfOfBusinessId narrows the parent's list to one sub-business", async () => {
    expect(await ids(parent, `?onBehalfOfBusinessId=${subA.businessId}`)).toEqual([forA]);
    expect(await ids(parent, `?onbehalfofbusinessid=${subB.businessId}`)).toEqual([forB]);
    expect(await ids(parent, `?onBehalfOfBusinessId=${other.businessId}`)).toEqual([]);
  });

  it("a sub-business sees only the payments made on its behalf", async () => {
    expect(await ids(subA)).toEqual([forA]);
    expect(await ids(subB)).toEqual([forB]);
    // The parent's key listing the sub-business path sees the same.
    expect(await ids(subA, "", parent.apiKey)).toEqual([forA]);
    expect(await ids(subA, `?onBehalfOfBusinessId=${subB.businessId}`)).toEqual([]);
  });

  it("keys covering sub-businesses, issued through the admin API", async () => {
    const onlyA = await request("POST", `/admin/v1/businesses/${parent.businessId}/api-keys`, {
      key: adminToken(),
      body: { businessIds: [subA.businessId] },
    });
    expect(onlyA.status).toBe(201);
    const keyA = (await json(onlyA)).data.apiKey as string;
    expect(await ids(subA, "", keyA)).toEqual([forA]);
    expect((await list(parent, "", keyA)).status).toBe(403);
    expect((await list(subB, "", keyA)).status).toBe(403);

    const both = await request("POST", `/admin/v1/businesses/${parent.businessId}/api-keys`, {
      key: adminToken(),
      body: { businessIds: [parent.businessId, subA.businessId] },
    });
    expect(both.status).toBe(201);
    const keyBoth = (await json(both)).data.apiKey as string;
    expect(await ids(parent, "", keyBoth)).toEqual([forB, forA, own]);
    expect(await ids(parent, `?onBehalfOfBusinessId=${subA.businessId}`, keyBoth)).toEqual([forA]);
  });

  it("an invalid onBehalfOfBusinessId → 400", async () => {
    await expect400(parent, "?onBehalfOfBusinessId=abc", "onBehalfOfBusinessId");
    await expect400(parent, "?onBehalfOfBusinessId=0", "onBehalfOfBusinessId");
    await expect400(parent, "?onBehalfOfBusinessId=1.5", "onBehalfOfBusinessId");
  });

  it("never shows another business's payments", async () => {
    expect(await ids(other)).toEqual([otherPay]);
    for (const b of [parent, subA, subB]) {
      const data = await listOk(b, q({ searchString: "shared name", PageSize: 100 }));
      expect(data.items.map((p) => p.id)).not.toContain(otherPay);
    }
    expect(await ids(other, `?onBehalfOfBusinessId=${subA.businessId}`)).toEqual([]);
    expect(await ids(other, q({ searchString: "shared" }))).toEqual([otherPay]);
    expect((await list(other, "", parent.apiKey)).status).toBe(403);
    expect((await list(parent, "", other.apiKey)).status).toBe(403);
  });
});
