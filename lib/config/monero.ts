import { z } from "zod";

const url = (example: string) =>
  z.preprocess(
    (v) => (v === "" ? undefined : v),
    z
      .url({ protocol: /^https?$/, error: `must be an http(s) URL such as ${example}` })
      // The service speaks no HTTP digest: the wallet-rpc listens on a private interface with --disable-rpc-login (docs/real-chains.md).
      .refine((u) => !new URL(u).username && !new URL(u).password, "must carry no credentials: run it on loopback or a private network with --disable-rpc-login")
      .optional(),
  );

/**
 * Monero: monerod's RPC (the chain: heights, blocks, its pool) and a monero-wallet-rpc started
 * with --wallet-dir, where the service makes each business's view-only wallet. Both are needed;
 * unset MONERO_DAEMON_URL: Monero is not watched.
 */
export const MONERO_ENV = {
  MONERO_DAEMON_URL: url("http://127.0.0.1:18081"),
  MONERO_WALLET_RPC_URL: url("http://127.0.0.1:18083"),
};
