import type { CoinName } from "@/domain/coins";
import { TON_NETWORKS } from "@/domain/ton";
import type { JettonCoin } from "@/domain/ton";
import type { ChainNet } from "@/lib/wallets/derive";
import type { ChainDriver } from "../adapter";
import { masterchainInfo, type TonApi } from "./api";
import { followTon } from "./follower";
import { acceptedJettons, jettonHandler, jettonWalletsOf } from "./jettons";

/**
 * TON's chain ids as TON Connect names them (the networks' global ids: -239 mainnet, -3 testnet),
 * stored as the chain's id; a private network has none.
 */
export const TON_CHAIN_IDS = { mainnet: -239, testnet: -3 } as const;

/** The network a toncenter API serves, from its masterchain's zero state (domain/ton.ts). */
export function tonNetOf(chainId: number | null): ChainNet {
  if (chainId === TON_CHAIN_IDS.mainnet) return "main";
  return chainId === TON_CHAIN_IDS.testnet ? "test" : "regtest";
}

/**
 * A toncenter-compatible API (TON_API_URL, TON_API_KEY). Its network comes from the masterchain's
 * zero state. Each jetton coin's master (the built-in mainnet ones, or TON_JETTON_MASTERS) must
 * answer get_jetton_data with the catalogue's decimals where it states them (jettons.ts); a
 * refused master is logged and its coin not offered. Every tick reads each wallet's new
 * transactions after its cursor, so the first tick after a start is the downtime catch-up, and
 * there is nothing more to ask afterwards.
 */
export function tonDriver(url: string, o: { apiKey?: string; jettonMasters: Partial<Record<JettonCoin, string>> }): ChainDriver {
  const api: TonApi = { url, apiKey: o.apiKey };
  let masters = new Map<CoinName, string>();
  const walletsCache = new Map<string, Map<CoinName, string>>();
  return {
    async identify() {
      const { init } = await masterchainInfo(api);
      const net = TON_NETWORKS[init.root_hash];
      const chainId = net ? (net.testnet ? TON_CHAIN_IDS.testnet : TON_CHAIN_IDS.mainnet) : null;
      masters = await acceptedJettons(api, chainId === TON_CHAIN_IDS.mainnet, o.jettonMasters);
      walletsCache.clear();
      return { network: tonNetOf(chainId), chainId, coins: ["TON", ...masters.keys()], tokens: new Map() };
    },
    tick(db, id, t) {
      return followTon(db, {
        api,
        net: id.network,
        owner: t.owner,
        lateWindowMs: t.lateWindowMs,
        leaseMs: t.leaseMs,
        now: t.now,
        decide: t.decide,
        jettonWallets: (owner) => jettonWalletsOf(api, masters, owner, walletsCache),
        onJetton: jettonHandler(db),
      });
    },
    // Every tick reads each followed account from its cursor: a start catches up by itself.
    checkOpenAddresses: async () => 0,
  };
}
