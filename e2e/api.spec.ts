import { expect, test } from "@playwright/test";
import { adminAuth, expectProblem, newBusiness } from "./helpers";

/**
 * The API as the real server routes it: what in-process tests cannot show (framework routing,
 * unmatched paths and methods, undecodable paths, body limits over a real socket).
 */
test("create, fetch, list and note over HTTP", async ({ request }) => {
  const b = await newBusiness(request);
  const auth = { authorization: `Bearer ${b.apiKey}` };
  const created = await request.post(`/v1/businesses/${b.businessId}/payments`, {
    headers: auth,
    data: { currency: "USD", amount: 19.99, name: "T-shirt", metadata: { orderId: "A-1" } },
  });
  expect(created.status()).toBe(200);
  const { data, message, errors } = await created.json();
  expect(message).toBeNull();
  expect(errors).toBeNull();
  expect(data.url).toMatch(new RegExp(`/pay/${data.id}$`));

  const fetched = await request.get(`/v1/businesses/${b.businessId}/payments/${data.id}`, { headers: auth });
  expect(fetched.status()).toBe(200);
  const payment = (await fetched.json()).data;
  expect(payment.prePaymentAmount).toBe(19.99);
  expect(payment.timeline[0].paymentStatus).toBe("AWAITING_PAYMENT");

  const list = await request.get(`/v1/businesses/${b.businessId}/payments?pagesize=5&searchString=shirt`, {
    headers: auth,
  });
  expect((await list.json()).data.totalCount).toBe(1);

  const noted = await request.put(`/v1/businesses/${b.businessId}/payments/${data.id}/note`, {
    headers: auth,
    data: { note: "gift wrap" },
  });
  expect((await noted.json()).data.note).toBe("gift wrap");
});

test("every API failure is a ProblemDetails, never a framework page", async ({ request }) => {
  const b = await newBusiness(request);
  const auth = { authorization: `Bearer ${b.apiKey}` };

  const unknown = await request.get("/v1/no/such/route");
  expect(unknown.status()).toBe(404);
  expectProblem(unknown.headers()["content-type"], await unknown.json(), 404);

  const method = await request.delete(`/v1/businesses/${b.businessId}/payments`, { headers: auth });
  expect(method.status()).toBe(405);
  expect(method.headers()["allow"]).toBe("GET, POST");
  expectProblem(method.headers()["content-type"], await method.json(), 405);

  const undecodable = await request.get(`/v1/businesses/${b.businessId}/payments/%E0%A4%A`, { headers: auth });
  expect(undecodable.status()).toBe(400);
  expectProblem(undecodable.headers()["content-type"], await undecodable.json(), 400);

  const huge = await request.post(`/v1/businesses/${b.businessId}/payments`, {
    headers: { ...auth, "content-type": "application/json" },
    data: JSON.stringify({ currency: "USD", amount: 1, description: "x".repeat(70_000) }),
  });
  expect(huge.status()).toBe(413);
  expectProblem(huge.headers()["content-type"], await huge.json(), 413);

  const notJson = await request.post(`/v1/businesses/${b.businessId}/payments`, {
    headers: { ...auth, "content-type": "application/json" },
    data: "{not json",
  });
  expect(notJson.status()).toBe(400);
  expectProblem(notJson.headers()["content-type"], await notJson.json(), 400);

  const noAuth = await request.get(`/v1/businesses/${b.businessId}/payments`);
  expect(noAuth.status()).toBe(401);
  expectProblem(noAuth.headers()["content-type"], await noAuth.json(), 401);

  const adminUnknown = await request.get("/admin/v1/whatever", { headers: adminAuth });
  expect(adminUnknown.status()).toBe(404);
  expectProblem(adminUnknown.headers()["content-type"], await adminUnknown.json(), 404);
});
