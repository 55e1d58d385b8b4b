import { copyFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { E2E_ADMIN_TOKEN } from "../playwright.config";

/** Shared steps of the e2e specs: businesses through the admin API, payments through /v1. */

export type Business = { businessId: number; apiKey: string; webhookSecret: string };

export const adminAuth = { authorization: `Bearer ${E2E_ADMIN_TOKEN}` };

export async function newBusiness(request: APIRequestContext, settings: Record<string, unknown> = {}): Promise<Business> {
  const res = await request.post("/admin/v1/businesses", { headers: adminAuth, data: { name: "E2E shop", ...settings } });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()).data as Business;
}

export function apiAuth(b: Business) {
  return { authorization: `Bearer ${b.apiKey}` };
}

export async function createPayment(
  request: APIRequestContext,
  b: Business,
  body: Record<string, unknown>,
): Promise<{ id: string; url: string }> {
  const res = await request.post(`/v1/businesses/${b.businessId}/payments`, { headers: apiAuth(b), data: body });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()).data as { id: string; url: string };
}

export async function setNote(request: APIRequestContext, b: Business, paymentId: string, note: string) {
  const res = await request.put(`/v1/businesses/${b.businessId}/payments/${paymentId}/note`, {
    headers: apiAuth(b),
    data: { note },
  });
  expect(res.status(), await res.text()).toBe(200);
}

export async function fetchPayment(request: APIRequestContext, b: Business, paymentId: string) {
  const res = await request.get(`/v1/businesses/${b.businessId}/payments/${paymentId}`, { headers: apiAuth(b) });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()).data as Record<string, any>;
}

export function expectProblem(contentType: string | undefined, body: Record<string, unknown>, status: number) {
  expect(contentType).toContain("application/problem+json");
  expect(body.status).toBe(status);
  expect(typeof body.type).toBe("string");
  expect(typeof body.title).toBe("string");
}

const ARTIFACTS = path.join(process.cwd(), "e2e", "artifacts");

/**
 * A full-page screenshot of one state of a flow: into the test's output folder (kept with the
 * report) and into `e2e/artifacts/<flow>-<state>.png` (kept by CI as an artifact).
 */
export async function snap(page: Page, flow: string, state: string) {
  const file = test.info().outputPath(`${state}.png`);
  await page.screenshot({ path: file, fullPage: true });
  mkdirSync(ARTIFACTS, { recursive: true });
  copyFileSync(file, path.join(ARTIFACTS, `${flow}-${state}.png`));
}
