import { sql } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { getDb } from "@/db/client";
import { afterCommit, inTransaction } from "@/db/transaction";
import { log } from "@/log/logger.mjs";

describe("after-commit work (db/transaction.ts)", () => {
  it("runs once the transaction has committed, in registration order", async () => {
    const db = await getDb();
    const seen: string[] = [];
    const result = await inTransaction(db, async (tx) => {
      afterCommit(tx, () => seen.push("first"));
      await tx.execute(sql`select 1`);
      afterCommit(tx, () => seen.push("second"));
      expect(seen).toEqual([]);
      return 42;
    });
    expect(result).toBe(42);
    expect(seen).toEqual(["first", "second"]);
  });

  it("is dropped when the transaction rolls back", async () => {
    const db = await getDb();
    const fn = vi.fn();
    await expect(
      inTransaction(db, async (tx) => {
        afterCommit(tx, fn);
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    await new Promise((r) => setTimeout(r, 10));
    expect(fn).not.toHaveBeenCalled();
  });

  it("on the database handle itself (each statement commits), runs as soon as the caller yields", async () => {
    const db = await getDb();
    const fn = vi.fn();
    afterCommit(db, fn);
    expect(fn).not.toHaveBeenCalled();
    await Promise.resolve();
    expect(fn).toHaveBeenCalledOnce();
  });

  it("refuses a transaction not begun with inTransaction, where the work would never run", async () => {
    const db = await getDb();
    await expect(db.transaction(async (tx) => afterCommit(tx, () => {}))).rejects.toThrow(/inTransaction/);
  });

  it("one failing piece of work does not stop the others", async () => {
    const db = await getDb();
    const error = vi.spyOn(log, "error").mockImplementation(() => {});
    const seen: string[] = [];
    await inTransaction(db, async (tx) => {
      afterCommit(tx, () => {
        throw new Error("boom");
      });
      afterCommit(tx, () => Promise.reject(new Error("async boom")));
      afterCommit(tx, () => seen.push("ran"));
    });
    await new Promise((r) => setTimeout(r, 10));
    expect(seen).toEqual(["ran"]);
    expect(error).toHaveBeenCalledTimes(2);
    error.mockRestore();
  });
});
