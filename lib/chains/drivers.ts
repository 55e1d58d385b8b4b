import type { Erc20Coin } from "@/domain/token-contracts";
import type { WatchedChain } from "@/domain/watched-chains";
import type { ChainDriver } from "./adapter";
import { bitcoinDriver } from "./bitcoin/driver";
import { evmDriver } from "./evm/driver";

/** The adapter of each watched chain's family (adapter.ts): a new family adds its folder and its line here. */
export function driverFor(chain: WatchedChain, url: string, tokenContracts: Partial<Record<Erc20Coin, string>>): ChainDriver {
  return chain === "ETHEREUM" ? evmDriver(url, tokenContracts) : bitcoinDriver(chain, url);
}
