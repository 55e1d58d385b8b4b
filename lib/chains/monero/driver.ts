import { z } from "zod";
import type { ChainDriver } from "../adapter";
import { followMoneroChain } from "./follower";
import { moneroNetOf, moneroRpc } from "./rpc";

/**
 * monerod (MONERO_DAEMON_URL) and the monero-wallet-rpc holding the businesses' view-only
 * wallets (MONERO_WALLET_RPC_URL) behind the chain adapter interface. The network is the
 * daemon's; the wallet-rpc must answer too, or no Monero payment can be seen.
 */
export function moneroDriver(daemonUrl: string, walletRpcUrl: string | undefined): ChainDriver {
  const daemon = moneroRpc(daemonUrl);
  const wallet = walletRpcUrl ? moneroRpc(walletRpcUrl, { timeoutMs: 120_000 }) : null;
  return {
    async identify() {
      if (!wallet) throw new Error("MONERO_WALLET_RPC_URL is not set: the view-only wallets that see Monero payments live in a monero-wallet-rpc");
      const { net } = await moneroNetOf(daemon);
      await wallet.call("get_version", {}, z.object({ version: z.number() }));
      return { network: net, chainId: null, coins: ["MONERO"], tokens: new Map() };
    },
    tick(db, id, o) {
      return followMoneroChain(db, { daemon, wallet: wallet!, net: id.network, owner: o.owner, lateWindowMs: o.lateWindowMs, leaseMs: o.leaseMs, now: o.now, decide: o.decide });
    },
    // Every tick already asks each wallet about all of its subaddresses: nothing is left to check.
    checkOpenAddresses: async () => 0,
  };
}
