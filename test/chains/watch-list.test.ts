import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb, type Db } from "@/db/client";
import { databaseNow } from "@/db/queries/chain-watch";
import { findCharge, upsertCharge } from "@/db/queries/charges";
import { charges, payments } from "@/db/schema";
import { selectCoin } from "@/lib/checkout/select";
import { CHANGE_OVERLAP_MS, FULL_READ_EVERY_MS, WatchList } from "@/lib/chains/watch-list";
import { chainFollowed, createPayment, newBusiness } from "../helpers";
import { oneChainFileAtATime } from "../serial";
import { LITECOIN_REGTEST_TPUB as tpub } from "./nodes/litecoind";

const chainFile = oneChainFileAtATime();

/**
 * A chain watcher's watch set kept between ticks (lib/chains/watch-list.ts), against the
 * database alone: read whole once, then only the charges made or replaced since (by whichever
 * instance), with an overlap for transactions that commit after a read, and whole again every
 * FULL_READ_EVERY_MS, which also lets go of the charges no longer watched.
 */
describe("a kept watch set", () => {
  let db: Db;
  const week = 7 * 86_400_000;
  const lateSince = () => new Date(Date.now() - week);
  /** A Litecoin watch set keyed by address, and the addresses it holds. */
  const list = () => new WatchList(["LITECOIN"], (c) => ({ part: "address", key: c.address }));
  const held = (w: WatchList) => new Set(w.part("address").keys());

  beforeAll(async () => {
    db = await getDb();
    await chainFollowed("LITECOIN", { network: "regtest" });
  });

  /** A live business's LITECOIN payment with its charge, as the checkout makes them (on any instance). */
  async function livePayment() {
    const business = await newBusiness({ mode: "live", enabledCoins: ["LITECOIN"], extendedPublicKeys: { LITECOIN: tpub } });
    chainFile.retire(business.businessId);
    const { id } = await createPayment(business);
    await selectCoin(db, id, "LITECOIN");
    return { id, address: (await findCharge(db, id))!.address };
  }

  it("reads the whole set once, then only the charges made or replaced since", async () => {
    const w = list();
    const before = await livePayment();
    await w.refresh(db, lateSince(), new Date());
    expect(w.reads).toEqual({ full: 1, changes: 0 });
    expect(held(w).has(before.address)).toBe(true);

    const after = await livePayment();
    await w.refresh(db, lateSince(), new Date());
    expect(w.reads).toEqual({ full: 1, changes: 1 });
    expect(held(w).has(after.address)).toBe(true);
    expect(w.part("address").get(after.address)).toEqual([{ paymentId: after.id, address: after.address, coin: "LITECOIN", status: "AWAITING_PAYMENT" }]);

    // The charge replaced (a coin chosen again) moves to its new address.
    const charge = (await findCharge(db, after.id))!;
    const moved = `${after.address.slice(0, -4)}zzzz`;
    await upsertCharge(db, { ...charge, address: moved });
    await w.refresh(db, lateSince(), new Date());
    expect(held(w).has(moved)).toBe(true);
    expect(held(w).has(after.address)).toBe(false);
    expect(w.reads).toEqual({ full: 1, changes: 2 });
  });

  it("catches a charge whose transaction committed after a read, within the overlap; an older one at the next full read", async () => {
    const w = list();
    const t0 = new Date();
    await w.refresh(db, lateSince(), t0);
    const read = await databaseNow(db);
    // Two charges stamped before the read (their transactions began then and committed after it).
    const late = await livePayment();
    const later = await livePayment();
    await db.update(charges).set({ changedAt: new Date(read.getTime() - CHANGE_OVERLAP_MS / 2) }).where(eq(charges.paymentId, late.id));
    await db.update(charges).set({ changedAt: new Date(read.getTime() - 2 * CHANGE_OVERLAP_MS) }).where(eq(charges.paymentId, later.id));
    await w.refresh(db, lateSince(), new Date(t0.getTime() + 5_000));
    expect(held(w).has(late.address)).toBe(true);
    expect(held(w).has(later.address)).toBe(false);
    await w.refresh(db, lateSince(), new Date(t0.getTime() + FULL_READ_EVERY_MS));
    expect(w.reads).toEqual({ full: 2, changes: 1 });
    expect(held(w).has(later.address)).toBe(true);
  });

  it("keeps a payment closed past the late-payment window until the next full read lets it go", async () => {
    const w = list();
    const p = await livePayment();
    const t0 = new Date();
    await w.refresh(db, lateSince(), t0);
    expect(held(w).has(p.address)).toBe(true);
    await db.update(payments).set({ status: "EXPIRED", updatedAt: new Date(Date.now() - week - 60_000) }).where(eq(payments.id, p.id));
    await w.refresh(db, lateSince(), new Date(t0.getTime() + 5_000));
    expect(held(w).has(p.address)).toBe(true); // a match is checked against the database before it is recorded
    await w.refresh(db, lateSince(), new Date(t0.getTime() + FULL_READ_EVERY_MS));
    expect(held(w).has(p.address)).toBe(false);
  });
});
