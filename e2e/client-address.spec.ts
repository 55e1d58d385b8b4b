import { expect, test } from "@playwright/test";
import { createPayment, fetchPayment, newBusiness } from "./helpers";

/**
 * The production server tells the app the address of each request's connection
 * (lib/http/peer.mjs); headers a client writes do not change it. With no TRUSTED_PROXIES (as
 * here) X-Forwarded-For is never read, so the checkout records the browser's own address.
 */

test("the checkout records the connection's address, not a forged X-Forwarded-For or peer header", async ({ page, request }) => {
  const b = await newBusiness(request);
  const p = await createPayment(request, b, { currency: "USD", amount: 5, name: "Forged headers" });
  await page.setExtraHTTPHeaders({ "x-forwarded-for": "203.0.113.77", "x-real-ip": "203.0.113.78", "x-peer-address": "guessed-secret 203.0.113.79" });
  await page.goto(p.url);
  await expect(page.getByRole("heading", { level: 1, name: "Forged headers" })).toBeVisible();
  const visited = await fetchPayment(request, b, p.id);
  expect(visited.customer.ipAddresses.map((a: { ip: string }) => a.ip)).toEqual([expect.stringMatching(/^(127\.0\.0\.1|::1)$/)]);
});
