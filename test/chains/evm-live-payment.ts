import { eq } from "drizzle-orm";
import type { Address } from "viem";
import type { Db } from "@/db/client";
import { findCharge } from "@/db/queries/charges";
import { businesses } from "@/db/schema";
import type { CoinName } from "@/domain/coins";
import { selectCoin } from "@/lib/checkout/select";
import { createPayment, newBusiness } from "../helpers";

/**
 * A live business's payment with a charge in `coin`, for the EVM watcher's tests. The checkout
 * offers a live coin only on a configured, healthy chain, and those files follow a node of their
 * own under cursors of their own; so the payment is made by a test business (offered that coin,
 * its addresses EIP-55, from the test key with one counter for all test businesses: no two
 * charges share one), which then turns live, as the watcher follows live businesses' charges
 * only. `retire` (the file's oneChainFileAtATime handle) turns it back to test mode at the end.
 */
export async function evmLivePayment(db: Db, coin: CoinName, retire: (businessId: number) => void) {
  const business = await newBusiness({ enabledCoins: [coin] });
  const { id } = await createPayment(business);
  await selectCoin(db, id, coin);
  await db.update(businesses).set({ mode: "live" }).where(eq(businesses.id, business.businessId));
  retire(business.businessId);
  const charge = (await findCharge(db, id))!;
  return { id, address: charge.address as Address, units: BigInt(charge.quotedUnits), required: charge.requiredConfirmations };
}
