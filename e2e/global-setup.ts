import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { bitcoinRpc } from "../lib/chains/rpc/bitcoin-rpc";
import { e2eLitecoinNode, LITECOIN_START_ERROR_ENV, type LitecoinNode } from "./litecoin-node";

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
  let stop: (() => Promise<void>) | undefined;
  try {
    stop = await startLitecoind(node);
    const rpc = bitcoinRpc(node.url, { timeoutMs: 30_000 });
    await rpc.call("createwallet", ["miner"]);
    const miner = bitcoinRpc(`${node.url}wallet/miner`, { timeoutMs: 30_000 });
    await rpc.call("generatetoaddress", [101, await miner.call<string>("getnewaddress")]);
    return stop;
  } catch (err) {
    await stop?.();
    process.env[LITECOIN_START_ERROR_ENV] = (err as Error).message;
    console.error(`[e2e] litecoind on 127.0.0.1:${node.rpcPort} did not start: ${(err as Error).message}`);
    return undefined;
  }
}

/** litecoind -regtest on the chosen RPC port, ready once its RPC answers; returns its stop. */
async function startLitecoind(node: LitecoinNode): Promise<() => Promise<void>> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "litecoind-e2e-"));
  const child = spawn(
    "litecoind",
    [
      "-regtest",
      "-daemon=0",
      "-server",
      `-datadir=${dir}`,
      `-rpcuser=${node.user}`,
      `-rpcpassword=${node.password}`,
      `-rpcport=${node.rpcPort}`,
      "-rpcbind=127.0.0.1",
      "-rpcallowip=127.0.0.1",
      "-listen=0",
      "-fallbackfee=0.0001",
    ],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  let stderr = "";
  child.stderr?.on("data", (c) => (stderr += c));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const spawnError = new Promise<Error>((resolve) => child.once("error", resolve));
  const stop = async () => {
    if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) {
      await bitcoinRpc(node.url, { timeoutMs: 5_000 })
        .call("stop")
        .catch(() => child.kill("SIGTERM"));
      const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(dir, { recursive: true, force: true });
  };

  const rpc = bitcoinRpc(node.url, { timeoutMs: 5_000 });
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      await rpc.call("getblockcount");
      return stop;
    } catch (err) {
      const failed = child.exitCode !== null || child.signalCode !== null || child.pid === undefined;
      if (failed || Date.now() > deadline) {
        const why = stderr.trim() || (child.pid === undefined ? (await spawnError).message : (err as Error).message);
        child.kill("SIGKILL");
        await stop();
        throw new Error(why);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}
