import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { Address } from "@ton/core";
import { listTransfers, findCharge } from "@/db/queries/charges";
import { findTonComment, recordTonUnmatched } from "@/db/queries/ton";
import { charges, payments } from "@/db/schema";
import { getBusiness } from "@/lib/businesses/businesses";
import { selectCoin } from "@/lib/checkout/select";
import { resolveTonReview, saveTonSettings, tonSettingsOf, TON_WALLET_NOTE } from "@/lib/dashboard/ton-settings";
import { createPayment } from "../helpers";
import { rejects, team } from "./support";

const RAW = `0:${"ab".repeat(32)}`;
const FRIENDLY = Address.parseRaw(RAW).toString({ bounceable: false });
const HASH = (n: number) => n.toString(16).padStart(64, "0");

/** The Settings page's TON wallet: owners set the address, and review the money that came without a known comment. */
describe("dashboard: the TON wallet and its review", () => {
  it("lets an owner set and remove the address in any form, refusing what is not one; others may not", async () => {
    const { db, a, owner, developer, ownerOfB } = await team();
    expect(await tonSettingsOf(db, owner, a.businessId)).toEqual({ wallet: null, note: TON_WALLET_NOTE, review: [] });
    expect(await saveTonSettings(db, owner, a.businessId, { tonWallet: ` ${Address.parseRaw(RAW).toString({ bounceable: true })} ` })).toEqual({ tonWallet: FRIENDLY });
    expect((await getBusiness(db, a.businessId)).tonWallet).toBe(FRIENDLY);
    expect(await saveTonSettings(db, owner, a.businessId, { tonWallet: RAW })).toEqual({ tonWallet: RAW });
    await rejects(saveTonSettings(db, owner, a.businessId, { tonWallet: "EQ-not-an-address" }), 400, ["tonWallet"]);
    await rejects(saveTonSettings(db, developer, a.businessId, { tonWallet: RAW }), 403);
    await rejects(tonSettingsOf(db, ownerOfB, a.businessId), 404);
    expect(await saveTonSettings(db, owner, a.businessId, { tonWallet: "" })).toEqual({ tonWallet: null });
  });

  it("assigns money awaiting review to a payment of the business, whose status follows; leaves another; refuses a payment of another coin", async () => {
    const { db, a, owner } = await team({ enabledCoins: ["TON", "BITCOIN"] });
    await saveTonSettings(db, owner, a.businessId, { tonWallet: FRIENDLY });
    const { id } = await createPayment(a);
    await selectCoin(db, id, "TON");
    await db.update(charges).set({ address: FRIENDLY }).where(eq(charges.paymentId, id));
    expect(await findTonComment(db, id)).toMatch(/^[2-9A-HJKMNP-Z]{10}$/);
    const units = (await findCharge(db, id))!.quotedUnits;
    await recordTonUnmatched(db, { txHash: HASH(1), businessId: a.businessId, coin: "TON", amount: units, comment: null, sender: null, lt: "5", seenAt: new Date("2026-11-28T10:00:00Z") });
    await recordTonUnmatched(db, { txHash: HASH(2), businessId: a.businessId, coin: "TON", amount: "1", comment: "HELLO", sender: null, lt: "6", seenAt: new Date("2026-11-28T11:00:00Z") });
    expect((await tonSettingsOf(db, owner, a.businessId)).review.map((r) => r.txHash)).toEqual([HASH(2), HASH(1)]);

    const other = await createPayment(a);
    await selectCoin(db, other.id, "BITCOIN");
    await rejects(resolveTonReview(db, owner, a.businessId, { txHash: HASH(1), coin: "TON", paymentId: other.id }), 400, ["paymentId"]);

    expect(await resolveTonReview(db, owner, a.businessId, { txHash: HASH(1), coin: "TON", paymentId: id })).toEqual({ assigned: id });
    expect(await listTransfers(db, id)).toMatchObject([{ txId: HASH(1), amount: units, confirmations: 1 }]);
    expect((await db.select().from(payments).where(eq(payments.id, id)))[0].status).toBe("COMPLETED");
    expect(await resolveTonReview(db, owner, a.businessId, { txHash: HASH(2), coin: "TON", paymentId: null })).toEqual({ assigned: null });
    expect((await tonSettingsOf(db, owner, a.businessId)).review).toEqual([]);
    await rejects(resolveTonReview(db, owner, a.businessId, { txHash: HASH(2), coin: "TON", paymentId: null }), 404);
  });
});
