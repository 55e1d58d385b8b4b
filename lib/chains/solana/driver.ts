import { COINS, type CoinName } from "@/domain/coins";
import { splMintsOn, type SplCoin } from "@/domain/solana";
import { coinsOfChain } from "@/domain/watched-chains";
import type { ChainNet } from "@/lib/wallets/derive";
import type { ChainDriver } from "../adapter";
import { followSolana } from "./follower";
import { SWEEP_EVERY_MS } from "./sweep";
import { readCluster, readMintDecimals, solanaClient } from "./rpc";
import { log } from "@/log/logger.mjs";

/** mainnet-beta is the main network, devnet and testnet test networks; a private cluster (a local validator) a development chain. */
export function solanaNetOf(chainId: number | null): ChainNet {
  if (chainId === 101) return "main";
  return chainId === null ? "regtest" : "test";
}

/**
 * A Solana JSON-RPC node (SOLANA_RPC_URL). Each SPL coin's mint must be an account of the SPL
 * Token program with the catalogue's decimals, as an ERC-20 contract must answer decimals(): a
 * wrong mint would be paid a thousandfold wrong or never, so it is refused with a logged reason
 * and its coin not offered. The first tick of a process asks about every watched reference
 * (downtime catch-up); later ticks follow each reference's backoff, and every SWEEP_EVERY_MS one
 * also sweeps the merchants' wallets for payments that came without a reference.
 */
export function solanaDriver(url: string, o: { tokenMints: Partial<Record<SplCoin, string>> }): ChainDriver {
  const rpc = solanaClient(url);
  const mints = new Map<CoinName, string>();
  let caughtUp = false;
  let sweptAt = 0;
  return {
    async identify() {
      const { chainId } = await readCluster(rpc);
      const accepted: Partial<Record<SplCoin, string>> = {};
      mints.clear();
      for (const [coin, mint] of Object.entries(splMintsOn(chainId, o.tokenMints)) as [SplCoin, string][]) {
        const want = COINS[coin].decimals;
        const got = await readMintDecimals(rpc, mint).catch((e: Error) => e);
        if (got !== want) {
          const why = got instanceof Error ? got.message.split("\n")[0] : `it has ${got} decimals, ${coin} has ${want}`;
          log.error({ component: "watcher", chain: "SOLANA", coin, mint }, `${coin} is not offered: the mint ${mint} is refused: ${why}`);
          continue;
        }
        accepted[coin] = mint;
        mints.set(coin, mint);
      }
      return { network: solanaNetOf(chainId), chainId, coins: coinsOfChain("SOLANA", accepted), tokens: new Map() };
    },
    async tick(db, id, t) {
      const now = t.now().getTime();
      const sweep = now - sweptAt >= SWEEP_EVERY_MS;
      const result = await followSolana(db, { rpc, net: id.network, owner: t.owner, lateWindowMs: t.lateWindowMs, leaseMs: t.leaseMs, now: t.now, decide: t.decide, mints, all: !caughtUp, sweep });
      if (result.followed) {
        caughtUp = true;
        if (sweep) sweptAt = now;
      }
      return result;
    },
    // The first tick after a start already asked the node about every watched reference (`all`).
    checkOpenAddresses: async () => 0,
  };
}
