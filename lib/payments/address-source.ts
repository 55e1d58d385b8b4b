import type { Business } from "@/db/schema";
import { config } from "@/lib/config";
import type { LiveCoin } from "@/lib/chains/health";
import type { CoinName } from "@/domain/coins";
import { keyFamilyOf, networkOfFamily, validateExtendedPublicKey } from "@/lib/wallets/derive";
import { watchedChainOf } from "@/domain/watched-chains";

type Source = Pick<Business, "mode" | "extendedPublicKeys">;

/**
 * Whether a payment may offer the coin (at creation, from configuration alone): test businesses
 * always (the simulated chain); live businesses when the coin's chain has a node configured and
 * the business an extended public key of the coin's family. Whether the chain is healthy now is
 * asked when the customer chooses (canServeNow).
 */
export function hasAddressSource(business: Source, coin: CoinName): boolean {
  if (business.mode === "test") return true;
  const chain = watchedChainOf(coin);
  const family = keyFamilyOf(coin);
  return chain !== null && config().chains.rpcUrls[chain] !== undefined && family !== null && Boolean(business.extendedPublicKeys[family]);
}

/**
 * Whether the customer can pay in the coin now: for a live business, its chain is healthy
 * (`live`, from chainsHealth) and the business's key derives addresses on the chain's network
 * (a mainnet key cannot pay a regtest node, nor the reverse).
 */
export function canServeNow(business: Source, coin: CoinName, live: ReadonlyMap<CoinName, LiveCoin>): boolean {
  if (business.mode === "test") return true;
  const on = live.get(coin);
  const family = keyFamilyOf(coin);
  const key = family && business.extendedPublicKeys[family];
  if (!on || !family || !key) return false;
  try {
    validateExtendedPublicKey(networkOfFamily(family), key, coin, on.network);
    return true;
  } catch {
    return false;
  }
}
