import { COINS, type CoinName } from "@/domain/coins";
import type { Trc20Coin } from "@/domain/token-contracts";
import { coinsOfChain, trc20ContractsOn, TRON_NETWORKS } from "@/domain/watched-chains";
import type { ChainNet } from "@/lib/wallets/derive";
import type { ChainDriver, NodeIdentity } from "../adapter";
import type { WatchList } from "../watch-list";
import { tronHexOf } from "./address";
import { followTronChain, tronWatchList } from "./follower";
import { readTronBlock, readTrc20Decimals, tronClient } from "./rpc";
import { checkOpenTronAddresses } from "./safety-net";
import { log } from "@/log/logger.mjs";

/**
 * The network a TRON node serves, from its genesis block: the chain id is the id's last 4 bytes
 * (domain/watched-chains.ts TRON_NETWORKS). Nile and Shasta are test networks; any other genesis
 * is a private network, counted as a development chain (its blocks may stop when nobody makes them).
 */
export function tronNetOf(chainId: number): ChainNet {
  if (TRON_NETWORKS[chainId] === "mainnet") return "main";
  return TRON_NETWORKS[chainId] ? "test" : "regtest";
}

/**
 * A java-tron node (TRON_RPC_URL). Each token's contract must answer `decimals()` with the
 * catalogue's decimals, as on Ethereum: a contract with other decimals (a wrong address, another
 * token) would be paid a millionfold wrong, so it is refused with a logged reason and not offered.
 */
export function tronDriver(url: string, o: { apiKey?: string; tokenContracts: Partial<Record<Trc20Coin, string>> }): ChainDriver {
  const client = tronClient(url, { apiKey: o.apiKey });
  const contractOf = new Map<CoinName, string>();
  let watch: { tokens: NodeIdentity["tokens"]; list: WatchList } | null = null;
  return {
    async identify() {
      const genesis = await readTronBlock(client, 0);
      const chainId = Number.parseInt(genesis.blockID.slice(-8), 16);
      const tokens = new Map<string, CoinName[]>();
      const accepted: Partial<Record<Trc20Coin, string>> = {};
      contractOf.clear();
      for (const [coin, contract] of Object.entries(trc20ContractsOn(chainId, o.tokenContracts)) as [Trc20Coin, string][]) {
        const want = COINS[coin].decimals;
        const got = await readTrc20Decimals(client, contract).catch((e: Error) => e);
        if (got !== want) {
          const why = got instanceof Error ? `its decimals() failed (${got.message.split("\n")[0]})` : `it has ${got} decimals, ${coin} has ${want}`;
          log.error({ component: "watcher", chain: "TRON", coin, contract }, `${coin} is not offered: the contract ${contract} is refused: ${why}`);
          continue;
        }
        accepted[coin] = contract;
        contractOf.set(coin, contract);
        const key = tronHexOf(contract);
        tokens.set(key, [...(tokens.get(key) ?? []), coin]);
      }
      return { network: tronNetOf(chainId), chainId, coins: coinsOfChain("TRON", accepted), tokens };
    },
    tick(db, id, t) {
      if (watch?.tokens !== id.tokens) watch = { tokens: id.tokens, list: tronWatchList(id.tokens) };
      return followTronChain(db, { client, net: id.network, owner: t.owner, lateWindowMs: t.lateWindowMs, leaseMs: t.leaseMs, now: t.now, decide: t.decide, tokens: id.tokens, watch: watch.list });
    },
    checkOpenAddresses: (db, now) => checkOpenTronAddresses(db, { client, now, contractOf: (coin) => contractOf.get(coin) }),
  };
}
