import { expect } from "vitest";
import { eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { payments } from "@/db/schema";
import { createPayment, json, newBusiness, paymentsPath, request } from "./helpers";

/*
 * What the list tests share (test/payments-list-*.test.ts, D1: GET
 * /v1/businesses/{businessId}/payments through the real route handler against the real
 * database): calls of the list, the 400 check, fixture-only writes and fixed times.
 */

export type Biz = Awaited<ReturnType<typeof newBusiness>>;
export type Item = { id: string; createdAt: string; status: string; prePaymentAmount: number; onBehalfOfBusinessId?: number };
export type Page = { items: Item[]; pageNumber: number; pageSize: number; totalCount: number; totalPages: number };

export async function list(b: Biz, query = "", key = b.apiKey): Promise<Response> {
  return request("GET", `${paymentsPath(b.businessId)}${query}`, { key });
}

export async function listOk(b: Biz, query = "", key = b.apiKey): Promise<Page> {
  const res = await list(b, query, key);
  const body = await json(res);
  expect(res.status, JSON.stringify(body)).toBe(200);
  expect(body.message).toBeNull();
  expect(body.errors).toBeNull();
  return body.data as Page;
}

export async function ids(b: Biz, query = "", key = b.apiKey): Promise<string[]> {
  return (await listOk(b, query, key)).items.map((p) => p.id);
}

/** A 400 ProblemDetails whose `errors` names `field` (and whose detail mentions it). */
export async function expect400(b: Biz, query: string, field: string) {
  const res = await list(b, query);
  const body = await json(res);
  expect(res.status, JSON.stringify(body)).toBe(400);
  expect(res.headers.get("content-type")).toMatch(/^application\/problem\+json/);
  expect(body).toMatchObject({ type: expect.any(String), title: expect.any(String), status: 400, detail: expect.any(String) });
  expect(Object.keys(body.errors ?? {}), JSON.stringify(body)).toContain(field);
  expect(body.detail).toContain(field);
  return body;
}

/** Fixture-only direct writes: the API has no way (yet) to set these columns. */
export async function setColumns(id: string, values: Partial<typeof payments.$inferInsert>) {
  const db = await getDb();
  await db.update(payments).set(values).where(eq(payments.id, id));
}

/** A payment created through the API, then moved to `createdAt` (a fixture-only write). */
export async function paymentCreatedAt(b: Biz, createdAt: Date): Promise<string> {
  const { id } = await createPayment(b);
  await setColumns(id, { createdAt });
  return id;
}

export async function setNote(b: Biz, id: string, note: string) {
  const res = await request("PUT", `${paymentsPath(b.businessId)}/${id}/note`, { key: b.apiKey, body: { note } });
  expect(res.status).toBe(200);
}

export const T0 = Date.parse("2025-03-01T10:00:00.000Z");
export const at = (ms: number) => new Date(T0 + ms);
export const q = (params: Record<string, string | number>) =>
  "?" + new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString();
