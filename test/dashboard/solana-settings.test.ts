import { generateKeyPairSigner } from "@solana/kit";
import { describe, expect, it } from "vitest";
import { recordUnmatched } from "@/db/queries/solana";
import { getBusiness } from "@/lib/businesses/businesses";
import { saveSolanaSettings, solanaSettingsOf, SOLANA_WALLET_NOTE } from "@/lib/dashboard/solana-settings";
import { rejects, team } from "./support";

/** The Settings page's Solana wallet: owners set a public address (nothing secret), see the payments that matched no payment. */
describe("dashboard: the Solana wallet", () => {
  it("lets an owner set and remove the wallet's address, refusing anything that is not a public key; others may not", async () => {
    const { db, a, owner, developer, ownerOfB } = await team();
    const wallet = (await generateKeyPairSigner()).address;
    expect(await solanaSettingsOf(db, owner, a.businessId)).toEqual({ wallet: null, note: SOLANA_WALLET_NOTE, unmatched: [] });
    expect(SOLANA_WALLET_NOTE).toMatch(/Never enter your secret key or recovery phrase/);
    expect(await saveSolanaSettings(db, owner, a.businessId, { solanaWallet: ` ${wallet} ` })).toEqual({ solanaWallet: wallet });
    expect((await getBusiness(db, a.businessId)).solanaWallet).toBe(wallet);
    // A 64-byte secret key in base58, a recovery phrase: refused, naming the field.
    const secret = "4Z7cXSyeFR8wNGMVXUE1TwtKn5D5Vu7FzEv69dokLv7KrQk7h6pu4LF8ZRR9yQBhc7uSM6RTTZtU1fmaxiNrxXrs";
    await rejects(saveSolanaSettings(db, owner, a.businessId, { solanaWallet: secret }), 400, ["solanaWallet"]);
    await rejects(saveSolanaSettings(db, owner, a.businessId, { solanaWallet: "abandon ".repeat(11) + "about" }), 400, ["solanaWallet"]);
    await rejects(saveSolanaSettings(db, developer, a.businessId, { solanaWallet: wallet }), 403);
    await rejects(solanaSettingsOf(db, ownerOfB, a.businessId), 404);
    expect((await solanaSettingsOf(db, owner, a.businessId)).wallet).toBe(wallet);
    expect(await saveSolanaSettings(db, owner, a.businessId, { solanaWallet: "" })).toEqual({ solanaWallet: null });
  });

  it("lists the payments to the wallet that matched no payment, newest first", async () => {
    const { db, a, owner } = await team();
    await recordUnmatched(db, { signature: "sig-one", businessId: a.businessId, coin: "SOLANA", amount: "1500000000", slot: 7, seenAt: new Date("2026-11-28T10:00:00Z") });
    await recordUnmatched(db, { signature: "sig-two", businessId: a.businessId, coin: "SOL_USD_COIN", amount: "2500000", slot: 9, seenAt: new Date("2026-11-28T11:00:00Z") });
    expect((await solanaSettingsOf(db, owner, a.businessId)).unmatched).toEqual([
      { signature: "sig-two", coin: "SOL_USD_COIN", amount: "2500000", slot: 9, seenAt: "2026-11-28T11:00:00.000Z" },
      { signature: "sig-one", coin: "SOLANA", amount: "1500000000", slot: 7, seenAt: "2026-11-28T10:00:00.000Z" },
    ]);
  });
});
