import { beforeAll, describe, expect, it } from "vitest";
import { createPayment, newBusiness } from "./helpers";
import { type Biz, at, ids, listOk, q, setColumns, setNote } from "./payments-list-support";

/**
 * D1: GET /v1/businesses/{businessId}/payments, searchString: name, description, note and the
 * customer's email, matched literally and case-insensitively, alone or with other filters, and
 * counted. Through the real route handler against the real database; shared setup in
 * ./payments-list-support.ts.
 */

describe("searchString", () => {
  let b: Biz;
  const p: Record<string, string> = {};

  beforeAll(async () => {
    b = await newBusiness();
    const make = async (key: string, body: Record<string, unknown>, i: number) => {
      const { id } = await createPayment(b, { currency: "USD", amount: 10, ...body });
      await setColumns(id, { createdAt: at(i * 1000) });
      p[key] = id;
    };
    await make("name", { name: "Blue Widget" }, 0);
    await make("description", { description: "Order for ACME Corp" }, 1);
    await make("note", { name: "plain" }, 2);
    await setNote(b, p.note, "VIP Customer, ship first");
    await make("email", { customerEmail: "Alice.Smith@Example.COM" }, 3);
    await make("percent", { name: "50% off sale" }, 4);
    await make("fiveHundred", { name: "500 off sale" }, 5);
    await make("underscore", { name: "a_b item" }, 6);
    await make("axb", { name: "axb item" }, 7);
    await make("accent", { name: "Café Crème" }, 8);
    await make("backslash", { description: "path C:\\temp" }, 9);
    await make("metadata", { name: "meta", metadata: { secret: "zebrafish" } }, 10);
    await make("quote", { name: "O'Brien's \"best\" tea" }, 11);
  });

  const search = (s: string) => ids(b, q({ searchString: s }));

  it("matches a substring of the name, case-insensitively", async () => {
    expect(await search("widget")).toEqual([p.name]);
    expect(await search("BLUE WID")).toEqual([p.name]);
  });

  it("matches description, note and customer email", async () => {
    expect(await search("acme corp")).toEqual([p.description]);
    expect(await search("vip customer")).toEqual([p.note]);
    expect(await search("alice.smith@example.com")).toEqual([p.email]);
    expect(await search("SMITH@EXAMPLE")).toEqual([p.email]);
  });

  it("follows note changes", async () => {
    await setNote(b, p.note, "rush order");
    expect(await search("vip")).toEqual([]);
    expect(await search("RUSH")).toEqual([p.note]);
    await setNote(b, p.note, "VIP Customer, ship first");
    expect(await search("vip")).toEqual([p.note]);
  });

  it("treats % and _ literally", async () => {
    expect(await search("50%")).toEqual([p.percent]);
    expect(await search("%")).toEqual([p.percent]);
    expect(await search("a_b")).toEqual([p.underscore]);
    expect(await search("_")).toEqual([p.underscore]);
    expect(await search("5_0")).toEqual([]);
    expect(await search("\\")).toEqual([p.backslash]);
    expect(await search("c:\\temp")).toEqual([p.backslash]);
  });

  it("treats quotes as text: the statement carries the value as a literal", async () => {
    expect(await search("o'brien's")).toEqual([p.quote]);
    expect(await search('"best"')).toEqual([p.quote]);
    expect(await search("' or ''='")).toEqual([]);
    expect(await search("x'); drop table payments; --")).toEqual([]);
    expect(await search("\\' or 1=1 --")).toEqual([]);
    expect((await search("meta")).length).toBe(1); // the table is still there
  });

  it("is case-insensitive beyond ASCII", async () => {
    expect(await search("CAFÉ")).toEqual([p.accent]);
  });

  it("does not match other fields or absent text", async () => {
    expect(await search("zebrafish")).toEqual([]); // metadata is not searched
    expect(await search("nothing like this")).toEqual([]);
    expect((await listOk(b, q({ searchString: "nothing like this" }))).totalCount).toBe(0);
  });

  it("matches every payment of a customer by email, each once, only in its own business", async () => {
    // The email is matched through the customer: two payments with the same address (in any
    // case) share one customer; another business's customer with it is not found here.
    const c = await newBusiness();
    const other = await newBusiness();
    const first = await createPayment(c, { currency: "USD", amount: 1, customerEmail: "Dana@Shop.example", name: "dana's order" });
    const second = await createPayment(c, { currency: "USD", amount: 2, customerEmail: "dana@shop.EXAMPLE" });
    await createPayment(other, { currency: "USD", amount: 3, customerEmail: "dana@shop.example" });
    await setColumns(first.id, { createdAt: at(100) });
    await setColumns(second.id, { createdAt: at(200) });
    // "dana" is in the first payment's name and in both emails: still one row per payment.
    expect(await ids(c, q({ searchString: "dana" }))).toEqual([second.id, first.id]);
    expect(await ids(c, q({ searchString: "@SHOP.ex" }))).toEqual([second.id, first.id]);
    expect((await listOk(c, q({ searchString: "dana" }))).totalCount).toBe(2);
    expect(await ids(other, q({ searchString: "dana" }))).toHaveLength(1);
  });

  it("narrowed by a status or a time range, finds each match once: by its text, its customer's email or both", async () => {
    // Such a search appends the payments found by their text, less those whose customer matches,
    // to the payments found by their customer (searchPageIdsStatement): neither lost nor twice.
    const c = await newBusiness();
    const made: Record<string, string> = {};
    const make = async (key: string, body: Record<string, unknown>, i: number, status: string) => {
      const { id } = await createPayment(c, { currency: "USD", amount: 1, ...body });
      await setColumns(id, { createdAt: at(i * 1000), status: status as never });
      made[key] = id;
    };
    await make("both", { name: "kiwi box", customerEmail: "kiwi@fruit.example" }, 0, "COMPLETED");
    await make("emailOnly", { name: "plain", customerEmail: "KIWI@fruit.example" }, 1, "COMPLETED");
    await make("textNoEmail", { description: "kiwi crate" }, 2, "COMPLETED");
    await make("textOtherCustomer", { name: "kiwi bag", customerEmail: "lime@fruit.example" }, 3, "COMPLETED");
    await make("otherStatus", { name: "kiwi tin", customerEmail: "kiwi@fruit.example" }, 4, "EXPIRED");
    await make("noMatch", { name: "lime", customerEmail: "lime@fruit.example" }, 5, "COMPLETED");
    const completed = [made.textOtherCustomer, made.textNoEmail, made.emailOnly, made.both];
    const byStatus = await listOk(c, q({ searchString: "KIWI", statuses: "COMPLETED" }));
    expect(byStatus.items.map((i) => i.id)).toEqual(completed);
    expect(byStatus.totalCount).toBe(4);
    const byTime = await listOk(c, q({ searchString: "kiwi", fromTime: at(1000).toISOString(), toTime: at(4000).toISOString(), PageSize: 2 }));
    expect(byTime.items.map((i) => i.id)).toEqual([made.otherStatus, made.textOtherCustomer]);
    expect(byTime.totalCount).toBe(4);
    expect(await ids(c, q({ searchString: "fruit.ex", statuses: "COMPLETED", PageSize: 2, PageNumber: 2 }))).toEqual([made.emailOnly, made.both]);
  });

  it("an empty searchString applies no filter", async () => {
    expect((await listOk(b, "?searchString=")).totalCount).toBe(12);
  });

  it("combines with other filters", async () => {
    expect(await ids(b, q({ searchString: "sale", toAmount: 10 }))).toEqual([p.fiveHundred, p.percent]);
    expect(await ids(b, q({ searchString: "item", PageSize: 1, PageNumber: 2 }))).toEqual([p.underscore]);
  });

  it("counts every match on each page, and past the last one", async () => {
    // " off sale" ×2, " item" ×2: "sale" matches 2, "e" matches most payments.
    const all = await listOk(b, q({ searchString: "e", PageSize: 100 }));
    const n = all.items.length;
    expect(n).toBeGreaterThan(3);
    expect(all.totalCount).toBe(n);
    for (const page of [1, 2, n]) {
      const data = await listOk(b, q({ searchString: "e", PageSize: 1, PageNumber: page }));
      expect(data).toMatchObject({ pageNumber: page, totalCount: n, totalPages: n });
      expect(data.items.map((i) => i.id)).toEqual([all.items[page - 1].id]);
    }
    const past = await listOk(b, q({ searchString: "e", PageSize: 1, PageNumber: n + 5 }));
    expect(past).toMatchObject({ items: [], totalCount: n, totalPages: n });
    const none = await listOk(b, q({ searchString: "sale", PageSize: 5, PageNumber: 3 }));
    expect(none).toMatchObject({ items: [], totalCount: 2, totalPages: 1 });
  });
});
