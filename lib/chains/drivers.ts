import type { WatchedChain } from "@/domain/watched-chains";
import type { Config } from "@/lib/config";
import type { ChainDriver } from "./adapter";
import { bitcoinDriver } from "./bitcoin/driver";
import { evmDriver } from "./evm/driver";
import { moneroDriver } from "./monero/driver";
import { tronDriver } from "./tron/driver";
import { solanaDriver } from "./solana/driver";
import { tonDriver } from "./ton/driver";

/** The adapter of each watched chain's family (adapter.ts): a new family adds its folder and its line here. */
export function driverFor(chain: WatchedChain, url: string, chains: Pick<Config["chains"], "tokenContracts" | "tron" | "solana" | "monero" | "ton">): ChainDriver {
  if (chain === "ETHEREUM") return evmDriver(url, chains.tokenContracts);
  if (chain === "TRON") return tronDriver(url, chains.tron);
  if (chain === "SOLANA") return solanaDriver(url, chains.solana);
  if (chain === "TON") return tonDriver(url, chains.ton ?? { jettonMasters: {}, apiKey: undefined });
  if (chain === "MONERO") return moneroDriver(url, chains.monero?.walletRpcUrl);
  return bitcoinDriver(chain, url);
}
