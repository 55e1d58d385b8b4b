import { COINS, type CoinName } from "@/domain/coins";
import type { Erc20Coin } from "@/domain/token-contracts";
import { coinsOfChain, tokenContractsOn } from "@/domain/watched-chains";
import type { ChainNet } from "@/lib/wallets/derive";
import type { ChainDriver, NodeIdentity } from "../adapter";
import { evmWatchList, followEvmChain } from "./follower";
import type { WatchList } from "../watch-list";
import { evmChainIdOf, evmClient, readErc20Decimals } from "./rpc";
import { checkOpenEvmAddresses } from "./safety-net";
import { log } from "@/log/logger.mjs";

/** EVM chain ids of local development nodes (anvil, Hardhat, Ganache): blocks on demand, like regtest. */
const DEV_CHAIN_IDS = new Set([31337, 1337]);

export function evmNetOf(chainId: number): ChainNet {
  if (chainId === 1) return "main";
  return DEV_CHAIN_IDS.has(chainId) ? "regtest" : "test";
}

/**
 * An EVM node. Each token's contract must answer `decimals()` with the catalogue's decimals:
 * amounts are quoted and settled in the catalogue's base units, so a contract with other
 * decimals (a wrong address, another token) would be paid a thousandfold wrong. Such a token
 * is refused with a logged reason and not offered; Ether and the other tokens go on.
 */
export function evmDriver(url: string, configured: Partial<Record<Erc20Coin, string>>): ChainDriver {
  const client = evmClient(url);
  /** Each accepted token coin's contract, as the node's last identity found them. */
  const contractOf = new Map<CoinName, string>();
  // The watch set, kept between ticks (lib/chains/watch-list.ts), for the token contracts of the node's last identity.
  let watch: { tokens: NodeIdentity["tokens"]; list: WatchList } | null = null;
  return {
    async identify() {
      const chainId = await evmChainIdOf(client);
      const tokens = new Map<string, CoinName[]>();
      const accepted: Partial<Record<Erc20Coin, string>> = {};
      for (const [coin, contract] of Object.entries(tokenContractsOn(chainId, configured)) as [Erc20Coin, string][]) {
        const want = COINS[coin].decimals;
        const got = await readErc20Decimals(client, contract).catch((e: Error) => e);
        if (got !== want) {
          const why = got instanceof Error ? `its decimals() failed (${got.message.split("\n")[0]})` : `it has ${got} decimals, ${coin} has ${want}`;
          log.error({ component: "watcher", chain: "ETHEREUM", coin, contract, chainId }, `${coin} is not offered: the contract ${contract} on chain ${chainId} is refused: ${why}`);
          continue;
        }
        accepted[coin] = contract;
        contractOf.set(coin, contract);
        const key = contract.toLowerCase();
        tokens.set(key, [...(tokens.get(key) ?? []), coin]);
      }
      return { network: evmNetOf(chainId), chainId, coins: coinsOfChain("ETHEREUM", accepted), tokens };
    },
    tick(db, id, o) {
      if (watch?.tokens !== id.tokens) watch = { tokens: id.tokens, list: evmWatchList(id.tokens) };
      return followEvmChain(db, { client, net: id.network, owner: o.owner, lateWindowMs: o.lateWindowMs, leaseMs: o.leaseMs, now: o.now, decide: o.decide, tokens: id.tokens, watch: watch.list });
    },
    checkOpenAddresses: (db, now) => checkOpenEvmAddresses(db, { client, now, contractOf: (coin) => contractOf.get(coin) }),
  };
}
