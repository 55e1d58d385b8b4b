import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { freePort } from "./free-port";
import os from "node:os";
import path from "node:path";
import { sha256 } from "@noble/hashes/sha2.js";
import { createBase58check } from "@scure/base";
import { TEST_EXTENDED_PUBLIC_KEYS } from "@/lib/wallets/derive";
import { bitcoinRpc, type BitcoinRpc } from "@/lib/chains/bitcoin/rpc";

/**
 * A real Litecoin Core node in regtest for a test file: its own data directory and ports, ready
 * once its JSON-RPC answers. Debian's `litecoind` (`apt-get install litecoind`, which `.ci/run`
 * does). It speaks Bitcoin Core's RPC, so it stands for the whole Bitcoin family.
 */
export type Litecoind = {
  /** The RPC URL with its credentials, as the service takes it (LITECOIN_RPC_URL). */
  url: string;
  rpc: BitcoinRpc;
  /** The same node's RPC for one of its wallets (`/wallet/<name>`). */
  wallet(name: string): BitcoinRpc;
  stop(): Promise<void>;
};

export function litecoindInstalled(): boolean {
  return spawnSync("litecoind", ["-version"]).error === undefined;
}

/**
 * Starts one. `rpcPort`, `user` and `password` fix what the RPC URL will be (the e2e server's
 * configuration names it before the node starts); by default a free port and test credentials.
 * A node that exits, or does not answer within 30 s, fails with its own stderr.
 */
export async function startLitecoind(o: { rpcPort?: number; user?: string; password?: string } = {}): Promise<Litecoind> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "litecoind-"));
  const [rpcPort, p2pPort] = [o.rpcPort ?? (await freePort()), await freePort()];
  const [user, password] = [o.user ?? "test", o.password ?? "secret"];
  const child: ChildProcess = spawn(
    "litecoind",
    [
      "-regtest",
      "-daemon=0",
      "-server",
      `-datadir=${dir}`,
      `-rpcuser=${user}`,
      `-rpcpassword=${password}`,
      `-rpcport=${rpcPort}`,
      "-rpcbind=127.0.0.1",
      "-rpcallowip=127.0.0.1",
      `-port=${p2pPort}`,
      "-listen=0",
      "-fallbackfee=0.0001",
      "-txindex",
    ],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  let stderr = "";
  child.stderr?.on("data", (c) => (stderr += c));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const spawnError = new Promise<Error>((resolve) => child.once("error", resolve));
  const running = () => child.pid !== undefined && child.exitCode === null && child.signalCode === null;
  const url = `http://${user}:${password}@127.0.0.1:${rpcPort}/`;
  // createwallet and mining write the wallet and blocks to disk: seconds on a loaded machine.
  const rpc = bitcoinRpc(url, { timeoutMs: 30_000 });
  const stop = async () => {
    if (running()) {
      await rpc.call("stop").catch(() => child.kill("SIGTERM"));
      const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      await rpc.call("getblockcount");
      break;
    } catch (err) {
      if (!running() || Date.now() > deadline) {
        const why = stderr.trim() || (child.pid === undefined ? (await spawnError).message : (err as Error).message);
        child.kill("SIGKILL");
        await stop();
        throw new Error(`litecoind did not start: ${why}`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  return { url, rpc, wallet: (name) => bitcoinRpc(`${url}wallet/${name}`, { timeoutMs: 30_000 }), stop };
}

/**
 * The test mnemonic's Litecoin account key (TEST_EXTENDED_PUBLIC_KEYS.LITECOIN) with the
 * testnet version bytes (tpub), the form Litecoin Core takes on regtest.
 */
export const LITECOIN_REGTEST_TPUB = (() => {
  const base58check = createBase58check(sha256);
  const bytes = base58check.decode(TEST_EXTENDED_PUBLIC_KEYS.LITECOIN);
  new DataView(bytes.buffer, bytes.byteOffset, 4).setUint32(0, 0x043587cf, false);
  return base58check.encode(bytes);
})();
