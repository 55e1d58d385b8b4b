import { startLitecoind, type Litecoind } from "../test/chains/nodes/litecoind";
import { e2eLitecoinNode, LITECOIN_START_ERROR_ENV } from "./litecoin-node";

/**
 * Starts the regtest litecoind the e2e server follows (LITECOIN_RPC_URL, see e2e/litecoin-node.ts)
 * on the port the config chose, with a data directory of its own, a funded `miner` wallet (101
 * blocks: one spendable coinbase, far below MWEB's activation at height 432). Playwright runs this
 * after the webServer is up; the function it returns is the global teardown: it stops the node
 * and removes its data directory, whatever the tests did.
 *
 * A node that cannot start does not stop the run: the error is handed to the workers
 * (E2E_LITECOIN_START_ERROR) and the live spec fails with it; the other specs run as usual.
 */
export default async function globalSetup(): Promise<(() => Promise<void>) | undefined> {
  const node = e2eLitecoinNode();
  if (!node) return undefined;
  let litecoind: Litecoind | undefined;
  try {
    litecoind = await startLitecoind({ rpcPort: node.rpcPort, user: node.user, password: node.password });
    await litecoind.rpc.call("createwallet", ["miner"]);
    await litecoind.rpc.call("generatetoaddress", [101, await litecoind.wallet("miner").call<string>("getnewaddress")]);
    return litecoind.stop;
  } catch (err) {
    await litecoind?.stop();
    process.env[LITECOIN_START_ERROR_ENV] = (err as Error).message;
    console.error(`[e2e] litecoind on 127.0.0.1:${node.rpcPort} did not start: ${(err as Error).message}`);
    return undefined;
  }
}
