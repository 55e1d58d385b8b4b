import type { Business } from "@/db/schema";
import type { CoinName } from "./coins";
import { keyFamilyOf } from "./derive";

/**
 * Whether the business can give a deposit address for the coin: test businesses always (the
 * simulated chain), live businesses only from an extended public key of the coin's family.
 */
export function hasAddressSource(business: Pick<Business, "mode" | "extendedPublicKeys">, coin: CoinName): boolean {
  if (business.mode === "test") return true;
  const family = keyFamilyOf(coin);
  return family !== null && Boolean(business.extendedPublicKeys[family]);
}
