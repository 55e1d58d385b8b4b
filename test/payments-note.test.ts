import { beforeEach, describe, expect, it } from "vitest";
import { PaymentSchema } from "@/lib/payments/schemas";
import { createPayment, expectProblem, json, newBusiness, paymentsPath, request } from "./helpers";

type Biz = Awaited<ReturnType<typeof newBusiness>>;

let b: Biz;
let id: string;
beforeEach(async () => {
  b = await newBusiness();
  id = (await createPayment(b, { currency: "USD", amount: 10, name: "Mug", metadata: { order: "1" } })).id;
});

const notePath = (businessId: number, paymentId: string) => `${paymentsPath(businessId)}/${paymentId}/note`;

function putNote(body: unknown, opts: { biz?: Biz; paymentId?: string; headers?: Record<string, string> } = {}) {
  const biz = opts.biz ?? b;
  return request("PUT", notePath(biz.businessId, opts.paymentId ?? id), { key: biz.apiKey, body, headers: opts.headers });
}

async function storedNote(paymentId = id, biz: Biz = b) {
  const res = await request("GET", `${paymentsPath(biz.businessId)}/${paymentId}`, { key: biz.apiKey });
  expect(res.status).toBe(200);
  return (await json(res)).data.note;
}

describe("PUT /v1/businesses/{businessId}/payments/{paymentId}/note", () => {
  it("returns the updated Payment record in the envelope", async () => {
    const res = await putNote({ note: "called the customer" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    const body = await json(res);
    expect(body.message).toBeNull();
    expect(body.errors).toBeNull();
    expect(body.data.id).toBe(id);
    expect(body.data.note).toBe("called the customer");
    expect(body.data).toMatchObject({ name: "Mug", currency: "USD", prePaymentAmount: 10, status: "AWAITING_PAYMENT", metadata: { order: "1" } });
    const parsed = PaymentSchema.safeParse(body.data);
    expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
  });

  it("stores the note so a fetch returns it", async () => {
    await putNote({ note: "first" });
    expect(await storedNote()).toBe("first");
  });

  it("replaces the previous note", async () => {
    expect((await json(await putNote({ note: "first" }))).data.note).toBe("first");
    expect((await json(await putNote({ note: "second" }))).data.note).toBe("second");
    expect(await storedNote()).toBe("second");
  });

  it("changes nothing but the note", async () => {
    const before = (await json(await request("GET", `${paymentsPath(b.businessId)}/${id}`, { key: b.apiKey }))).data;
    const after = (await json(await putNote({ note: "x" }))).data;
    expect({ ...after, note: before.note }).toEqual(before);
  });

  it("accepts an empty note", async () => {
    await putNote({ note: "something" });
    const res = await putNote({ note: "" });
    expect(res.status).toBe(200);
    expect(await storedNote()).toBe("");
  });

  it("accepts 256 characters and refuses 257", async () => {
    const ok = "n".repeat(256);
    const res = await putNote({ note: ok });
    expect(res.status).toBe(200);
    expect((await json(res)).data.note).toBe(ok);
    const problem = await expectProblem(await putNote({ note: "n".repeat(257) }), 400, ["note"]);
    expect(problem.detail).toContain("note");
    expect(problem.errors.note.join(" ")).toContain("256");
    expect(await storedNote()).toBe(ok);
  });

  it("counts characters, not UTF-16 code units (256 emoji are 256 characters)", async () => {
    const emoji = "😀".repeat(256);
    const res = await putNote({ note: emoji });
    expect(res.status).toBe(200);
    expect(await storedNote()).toBe(emoji);
    await expectProblem(await putNote({ note: "😀".repeat(257) }), 400, ["note"]);
  });

  it("stores non-ASCII text, quotes, newlines and backslashes unchanged", async () => {
    const note = 'Kunde rief an — "bitte später" \n\t\\ ☕';
    await putNote({ note });
    expect(await storedNote()).toBe(note);
  });

  it("makes the note searchable through the list", async () => {
    await putNote({ note: "Needle-In-Haystack" });
    const res = await request("GET", `${paymentsPath(b.businessId)}?searchString=needle-in`, { key: b.apiKey });
    expect(res.status).toBe(200);
    expect((await json(res)).data.items.map((p: { id: string }) => p.id)).toEqual([id]);
  });

  it.each([
    ["a number", { note: 42 }],
    ["null", { note: null }],
    ["a boolean", { note: true }],
    ["an array", { note: ["a"] }],
    ["an object", { note: { text: "a" } }],
  ])("refuses %s as note, naming note", async (_what, body) => {
    await putNote({ note: "kept" });
    await expectProblem(await putNote(body), 400, ["note"]);
    expect(await storedNote()).toBe("kept");
  });

  it("refuses a missing note", async () => {
    await expectProblem(await putNote({}), 400, ["note"]);
  });

  it("refuses extra fields, naming each", async () => {
    const problem = await expectProblem(await putNote({ note: "x", author: "me", pinned: true }), 400, ["author", "pinned"]);
    expect(problem.errors.author).toEqual(["unknown field"]);
    expect(await storedNote()).toBeNull();
  });

  it.each([
    ["an array", ["x"]],
    ["a string", "x"],
    ["null", null],
  ])("refuses %s as the body", async (_what, body) => {
    await expectProblem(await putNote(body), 400, ["body"]);
  });

  it("refuses a note PostgreSQL cannot store (NUL) with 400, not 500", async () => {
    await expectProblem(await putNote({ note: "a\u0000b" }), 400, ["note"]);
  });

  it("refuses a non-JSON body (400) and a non-JSON content type (415)", async () => {
    const raw = (rawBody: string, contentType: string) =>
      request("PUT", notePath(b.businessId, id), { key: b.apiKey, rawBody, headers: { "content-type": contentType } });
    await expectProblem(await raw("note=x", "application/json"), 400, ["body"]);
    await expectProblem(await raw('{"note":"x"}', "text/plain"), 415);
    await expectProblem(await raw("", "application/json"), 400, ["body"]);
  });

  it("404 for an unknown payment", async () => {
    await expectProblem(await putNote({ note: "x" }, { paymentId: crypto.randomUUID() }), 404);
  });

  it("404 for another business's payment, and its note is untouched", async () => {
    const other = await newBusiness();
    const theirs = (await createPayment(other)).id;
    await expectProblem(await putNote({ note: "mine" }, { paymentId: theirs }), 404);
    expect(await storedNote(theirs, other)).toBeNull();
  });

  it("400 naming paymentId for a malformed id", async () => {
    await expectProblem(await putNote({ note: "x" }, { paymentId: "nope" }), 400, ["paymentId"]);
  });

  it("401 without a key, 403 with another business's key", async () => {
    const res = await request("PUT", notePath(b.businessId, id), { body: { note: "x" } });
    await expectProblem(res, 401);
    const other = await newBusiness();
    const res2 = await request("PUT", notePath(b.businessId, id), { key: other.apiKey, body: { note: "x" } });
    await expectProblem(res2, 403);
    expect(await storedNote()).toBeNull();
  });

  it("honours Accept on success and on errors", async () => {
    const ok = await putNote({ note: "x" }, { headers: { accept: "text/plain" } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("content-type")?.split(";")[0]).toBe("text/plain");
    const bad = await putNote({ note: 1 }, { headers: { accept: "text/json" } });
    await expectProblem(bad, 400, ["note"], "text/json");
  });

  it("20 concurrent updates all succeed and the stored note is exactly one of them", async () => {
    const notes = Array.from({ length: 20 }, (_, i) => `note ${i} `.repeat(20).slice(0, 200 + i));
    const responses = await Promise.all(notes.map((note) => putNote({ note })));
    const bodies = await Promise.all(responses.map((r) => r.json()));
    responses.forEach((r, i) => {
      expect(r.status).toBe(200);
      // each writer gets back the row as its own update left it
      expect(bodies[i].data.note).toBe(notes[i]);
    });
    const final = await storedNote();
    expect(notes).toContain(final);
  });
});
