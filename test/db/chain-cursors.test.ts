import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { advanceChainCursor, claimChainLease, listChainCursors, releaseChainLease } from "@/db/queries/chain-cursors";
import { inTransaction } from "@/db/transaction";

describe("chain cursors and their leases (db/queries/chain-cursors.ts)", () => {
  // Names of their own: test files may share one PostgreSQL database.
  const [LITECOIN, BITCOIN, BITCOIN_CASH] = ["LITECOIN", "BITCOIN", "BITCOIN_CASH"].map((c) => `${c}-${randomUUID()}`);
  const t0 = new Date("2026-11-26T08:00:00.000Z");
  const at = (ms: number) => new Date(t0.getTime() + ms);

  it("gives a chain's lease to one of two instances asking at once, and keeps it with its holder while renewed", async () => {
    const db = await getDb();
    const [a, b] = await Promise.all(
      ["instance-a", "instance-b"].map((owner) => inTransaction(db, (tx) => claimChainLease(tx, LITECOIN, "regtest", owner, t0, 10_000))),
    );
    expect([a, b].filter(Boolean)).toHaveLength(1);
    const holder = (a ?? b)!.leaseOwner!;
    const other = holder === "instance-a" ? "instance-b" : "instance-a";
    expect(await claimChainLease(db, LITECOIN, "regtest", other, at(5_000), 10_000)).toBeUndefined();
    expect(await claimChainLease(db, LITECOIN, "regtest", holder, at(9_000), 10_000)).toMatchObject({ leaseOwner: holder, leaseUntil: at(19_000) });
    expect(await claimChainLease(db, LITECOIN, "regtest", other, at(15_000), 10_000)).toBeUndefined();
  });

  it("passes a lapsed lease to another instance, and then refuses the old holder's cursor moves", async () => {
    const db = await getDb();
    await claimChainLease(db, BITCOIN, "regtest", "old", t0, 10_000);
    expect(await advanceChainCursor(db, BITCOIN, "old", { network: "regtest", height: 5, blockHash: "aa" }, at(1_000))).toBe(true);
    // The old holder stops renewing (it died or hangs); after its lease lapses another takes over.
    expect(await claimChainLease(db, BITCOIN, "regtest", "new", at(10_001), 10_000)).toMatchObject({ leaseOwner: "new", height: 5, blockHash: "aa" });
    expect(await advanceChainCursor(db, BITCOIN, "old", { network: "regtest", height: 6, blockHash: "bb" }, at(10_002))).toBe(false);
    expect(await advanceChainCursor(db, BITCOIN, "new", { network: "regtest", height: 6, blockHash: "cc" }, at(10_003))).toBe(true);
    // Nor may a holder move the cursor once its own lease has run out, before anyone took it.
    expect(await advanceChainCursor(db, BITCOIN, "new", { network: "regtest", height: 7, blockHash: "dd" }, at(30_000))).toBe(false);
    const bitcoin = (await listChainCursors(db)).find((c) => c.chain === BITCOIN);
    expect(bitcoin).toMatchObject({ height: 6, blockHash: "cc", leaseOwner: "new" });
    // A holder making progress renews its lease with each move (a catch-up longer than a lease keeps it).
    await claimChainLease(db, BITCOIN, "regtest", "new", at(40_000), 10_000);
    expect(await advanceChainCursor(db, BITCOIN, "new", { network: "regtest", height: 7, blockHash: "dd" }, at(49_000), 10_000)).toBe(true);
    expect(await claimChainLease(db, BITCOIN, "regtest", "old", at(55_000), 10_000)).toBeUndefined();
    expect(await advanceChainCursor(db, BITCOIN, "new", { network: "regtest", height: 8, blockHash: "ee" }, at(58_000), 10_000)).toBe(true);
  });

  it("frees a released lease at once", async () => {
    const db = await getDb();
    await claimChainLease(db, BITCOIN_CASH, "main", "a", t0, 60_000);
    await releaseChainLease(db, BITCOIN_CASH, "b"); // not b's to release
    expect(await claimChainLease(db, BITCOIN_CASH, "main", "b", at(1), 60_000)).toBeUndefined();
    await releaseChainLease(db, BITCOIN_CASH, "a");
    expect(await claimChainLease(db, BITCOIN_CASH, "main", "b", at(2), 60_000)).toMatchObject({ leaseOwner: "b" });
  });
});
