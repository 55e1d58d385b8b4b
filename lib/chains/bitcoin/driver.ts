import { coinsOfChain } from "@/domain/watched-chains";
import type { ChainDriver } from "../adapter";
import { bitcoinWatchList, followBitcoinChain, type BitcoinChain } from "./follower";
import { bitcoinRpc, chainNetOf } from "./rpc";
import { checkOpenAddresses } from "./safety-net";

/** A Bitcoin-family node (Bitcoin Core, Litecoin Core, Bitcoin Cash Node) behind the chain adapter interface. */
export function bitcoinDriver(chain: BitcoinChain, url: string): ChainDriver {
  const rpc = bitcoinRpc(url);
  const seenInMempool = new Set<string>();
  // The watch set, kept between ticks and brought up to date by each (lib/chains/watch-list.ts).
  const watch = bitcoinWatchList(chain);
  return {
    async identify() {
      return { network: await chainNetOf(rpc), chainId: null, coins: coinsOfChain(chain), tokens: new Map() };
    },
    async tick(db, id, o) {
      // Transactions leave the mempool as they are mined: keep the memory of them from growing for ever.
      if (seenInMempool.size > 100_000) seenInMempool.clear();
      return followBitcoinChain(db, { chain, rpc, net: id.network, owner: o.owner, lateWindowMs: o.lateWindowMs, leaseMs: o.leaseMs, now: o.now, decide: o.decide, seenInMempool, watch });
    },
    checkOpenAddresses: (db, now, decide) => checkOpenAddresses(db, { chain, rpc, now, decide }),
  };
}
