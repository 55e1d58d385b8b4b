import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { z } from "zod";
import { moneroRpc, moneroTip, MoneroRpcError, type MoneroRpc } from "@/lib/chains/monero/rpc";
import { freePort } from "./free-port";

/**
 * Real Monero nodes for the tests: Debian's `monero` package (monerod and monero-wallet-rpc,
 * which `.ci/run` installs). Mining a regtest block takes ~0.3 s (RandomX), and a coinbase output
 * is spent only 60 blocks later, so the Monero test files share ONE monerod: the first file of a
 * vitest run to ask starts it (a directory named after the vitest process, created atomically,
 * says who), writes its port for the others, and the run's global teardown
 * (`stopSharedMonerods`, test/global-setup.ts) stops it. Each file starts its own
 * monero-wallet-rpc processes against it: a wallet-rpc has one wallet open at a time, and files
 * run in parallel.
 */

export function moneroInstalled(): boolean {
  return spawnSync("monerod", ["--version"]).error === undefined && spawnSync("monero-wallet-rpc", ["--version"]).error === undefined;
}

/** The directory where the run's shared monerod is described: named after the vitest process (a test file's parent). */
function sharedDir(runPid: number) {
  return path.join(os.tmpdir(), `monero-shared-${runPid}`);
}

type Shared = { port: number; pid: number; dataDir: string; spenderDir: string; spenderAddress: string };

/**
 * Blocks mined to the spending wallet when the chain starts. A wallet picks its ring's decoys
 * mostly among the last ~60 blocks' outputs, where a regtest chain of coinbase-only blocks has
 * only locked ones: with 65 blocks a second payment hung in monero-wallet-rpc's transfer; with
 * 100 it never did.
 */
const FUNDING_BLOCKS = 100;

/** The chain a file is given: monerod, and the spending wallet's directory and address (the wallet is used by one file at a time, in its turn). */
export type SharedChain = { url: string; daemon: MoneroRpc; spenderDir: string; spenderAddress: string };

async function waitUntil<T>(what: string, attempt: () => Promise<T | null>, ms: number, why: () => string = () => ""): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const got = await attempt().catch(() => null);
    if (got !== null) return got;
    if (Date.now() > deadline) throw new Error(`${what} within ${ms / 1000} s${why() ? `: ${why()}` : ""}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

function startMonerod(dataDir: string, rpcPort: number, p2pPort: number, extra: string[] = []): ChildProcess {
  const log = openSync(path.join(dataDir, "stdout.log"), "a");
  return spawn(
    "monerod",
    [
      "--regtest",
      "--offline",
      "--fixed-difficulty",
      "1",
      `--data-dir=${dataDir}`,
      "--rpc-bind-ip=127.0.0.1",
      `--rpc-bind-port=${rpcPort}`,
      "--p2p-bind-ip=127.0.0.1",
      `--p2p-bind-port=${p2pPort}`,
      "--no-zmq",
      "--no-igd",
      "--disable-dns-checkpoints",
      "--check-updates=disabled",
      "--non-interactive",
      "--log-level=0",
      ...extra,
    ],
    // Detached: it outlives the test file that started it; the run's teardown stops it.
    { stdio: ["ignore", log, log], detached: true },
  );
}

/** The run's monerod: started by the first file that asks, reused by the others. */
export async function sharedMonerod(): Promise<SharedChain> {
  const dir = sharedDir(process.ppid);
  mkdirSync(dir, { recursive: true });
  const info = path.join(dir, "monerod.json");
  let first = false;
  try {
    mkdirSync(path.join(dir, "lock"));
    first = true;
  } catch {
    // Another file starts (or started) it.
  }
  if (first) {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "monerod-"));
    const [port, p2p] = [await freePort(), await freePort()];
    const child = startMonerod(dataDir, port, p2p);
    child.unref();
    const url = `http://127.0.0.1:${port}`;
    const daemon = moneroRpc(url, { timeoutMs: 300_000 });
    let spender: WalletRpc | undefined;
    try {
      await waitUntil("monerod did not answer", () => moneroTip(daemon), 90_000, () => readLog(dataDir));
      spender = await startWalletRpc(url, { keep: true });
      await spender.rpc.call("create_wallet", { filename: "spender", password: "", language: "English" }, z.unknown());
      const { address } = await spender.rpc.call("get_address", { account_index: 0 }, z.object({ address: z.string() }));
      await mine(daemon, FUNDING_BLOCKS, address);
      await spender.stop();
      writeFileSync(info, JSON.stringify({ port, pid: child.pid!, dataDir, spenderDir: spender.dir, spenderAddress: address } satisfies Shared));
    } catch (err) {
      writeFileSync(path.join(dir, "error.txt"), (err as Error).message);
      child.kill("SIGKILL");
      await spender?.stop();
      rmSync(dataDir, { recursive: true, force: true });
      if (spender) rmSync(spender.dir, { recursive: true, force: true });
      throw err;
    }
  }
  const shared = await waitUntil(
    "the shared monerod was not started",
    async () => {
      if (existsSync(path.join(dir, "error.txt"))) throw new Error(readFileSync(path.join(dir, "error.txt"), "utf8"));
      return existsSync(info) ? (JSON.parse(readFileSync(info, "utf8")) as Shared) : null;
    },
    300_000,
  );
  const url = `http://127.0.0.1:${shared.port}`;
  return { url, daemon: moneroRpc(url, { timeoutMs: 300_000 }), spenderDir: shared.spenderDir, spenderAddress: shared.spenderAddress };
}

function readLog(dir: string): string {
  try {
    return readFileSync(path.join(dir, "stdout.log"), "utf8").split("\n").filter((l) => /error|fail/i.test(l)).slice(-5).join(" | ");
  } catch {
    return "";
  }
}

/** The global teardown's part: stops the run's shared monerod, if a file started one. */
/**
 * Holds the shared chain for this test file alone until `release`: files that mine, reorganise
 * and count confirmations take turns (a directory created atomically is the token; a holder that
 * died leaves its pid, and the next file takes the turn over).
 */
export async function takeChainTurn(): Promise<{ release(): void }> {
  const turn = path.join(sharedDir(process.ppid), "turn");
  await waitUntil(
    "another Monero test file kept the shared chain",
    async () => {
      try {
        mkdirSync(turn);
        writeFileSync(path.join(turn, "pid"), String(process.pid));
        return true;
      } catch {
        const holder = Number(readFileSync(path.join(turn, "pid"), "utf8").trim() || "0");
        if (holder && !alive(holder)) rmSync(turn, { recursive: true, force: true });
        return null;
      }
    },
    600_000,
  );
  return { release: () => rmSync(turn, { recursive: true, force: true }) };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export function stopSharedMonerods(runPid = process.pid) {
  const dir = sharedDir(runPid);
  try {
    const shared = JSON.parse(readFileSync(path.join(dir, "monerod.json"), "utf8")) as Shared;
    try {
      process.kill(shared.pid, "SIGTERM");
    } catch {
      // Already gone.
    }
    rmSync(shared.dataDir, { recursive: true, force: true });
    rmSync(shared.spenderDir, { recursive: true, force: true });
  } catch {
    // None was started.
  }
  rmSync(dir, { recursive: true, force: true });
}

export type WalletRpc = { url: string; rpc: MoneroRpc; dir: string; stop(): Promise<void> };

/**
 * A monero-wallet-rpc in `--wallet-dir` mode against `daemonUrl`, no login, on a free loopback
 * port; its directory is removed when it stops unless `keep` (or it is given as `dir`).
 */
export async function startWalletRpc(daemonUrl: string, o: { port?: number; dir?: string; keep?: boolean } = {}): Promise<WalletRpc> {
  const dir = o.dir ?? mkdtempSync(path.join(os.tmpdir(), "monero-wallets-"));
  const port = o.port ?? (await freePort());
  const log = openSync(path.join(dir, "stdout.log"), "a");
  const child = spawn(
    "monero-wallet-rpc",
    [
      `--daemon-address=${new URL(daemonUrl).host}`,
      "--trusted-daemon",
      // Else every open_wallet makes an RSA certificate for a TLS it never uses (docs/real-chains.md#monero).
      "--daemon-ssl=disabled",
      `--wallet-dir=${dir}`,
      "--rpc-bind-ip=127.0.0.1",
      `--rpc-bind-port=${port}`,
      "--disable-rpc-login",
      "--non-interactive",
      "--log-level=0",
      // Else it writes monero-wallet-rpc.log into the working directory.
      `--log-file=${path.join(dir, "wallet-rpc.log")}`,
    ],
    { stdio: ["ignore", log, log] },
  );
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const rpc = moneroRpc(url, { timeoutMs: 120_000 });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      // stop_wallet saves the open wallet and exits; with none open, a signal.
      await rpc.call("stop_wallet", {}, z.unknown()).catch(() => child.kill("SIGTERM"));
      const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      await exited;
      clearTimeout(timer);
    }
    if (!o.keep && !o.dir) rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitUntil("monero-wallet-rpc did not answer", async () => (await rpc.call("get_version", {}, z.object({ version: z.number() }))).version, 60_000, () => readLog(dir));
  } catch (err) {
    await stop();
    throw err;
  }
  return { url, rpc, dir, stop };
}

/** A spending wallet in its own wallet-rpc, paid by mined blocks: what pays the service's subaddresses in the tests. */
export type Spender = { address: string; wallet: WalletRpc; pay(to: string, piconero: bigint, o?: { unlockTime?: number }): Promise<string> };

/** Mines `blocks` blocks whose coinbase pays `address` (regtest's generateblocks), 20 a call: RandomX on a loaded machine takes seconds a block. */
export async function mine(daemon: MoneroRpc, blocks: number, address: string): Promise<number> {
  let height = 0;
  for (let left = blocks; left > 0; left -= 20) {
    height = (await daemon.call("generateblocks", { amount_of_blocks: Math.min(left, 20), wallet_address: address }, z.object({ height: z.number() }))).height;
  }
  return height;
}

/**
 * The chain's spending wallet, opened in a wallet-rpc of the calling file's own (in its turn on
 * the chain: one file at a time uses it). Mined to when the chain started (FUNDING_BLOCKS).
 */
export async function openSpender(chain: SharedChain): Promise<Spender> {
  const { daemon, spenderAddress: address } = chain;
  const wallet = await startWalletRpc(chain.url, { dir: chain.spenderDir });
  await wallet.rpc.call("open_wallet", { filename: "spender", password: "" }, z.unknown());
  await wallet.rpc.call("refresh", {}, z.unknown());
  return {
    address,
    wallet,
    async pay(to, piconero, o = {}) {
      for (let attempt = 0; ; attempt++) {
        try {
          await wallet.rpc.call("refresh", {}, z.unknown());
          const r = await wallet.rpc.call(
            "transfer",
            { destinations: [{ amount: Number(piconero), address: to }], unlock_time: o.unlockTime ?? 0, priority: 0, get_tx_key: false },
            z.object({ tx_hash: z.string() }),
          );
          return r.tx_hash;
        } catch (err) {
          // Its change is locked for 10 blocks after each payment: mine and try again.
          if (!(err instanceof MoneroRpcError) || attempt >= 3 || !/unlocked|not enough/i.test(err.message)) throw err;
          await mine(daemon, 10, address);
        }
      }
    },
  };
}

/** A merchant's wallet keys, from a fresh full wallet in `wallet` (closed again: a view-only one is made from them). */
export async function merchantKeys(wallet: WalletRpc, name: string): Promise<{ primaryAddress: string; privateViewKey: string; restoreHeight: number }> {
  await wallet.rpc.call("create_wallet", { filename: name, password: "", language: "English" }, z.unknown());
  const { address } = await wallet.rpc.call("get_address", { account_index: 0 }, z.object({ address: z.string() }));
  const { key } = await wallet.rpc.call("query_key", { key_type: "view_key" }, z.object({ key: z.string() }));
  const { height } = await wallet.rpc.call("get_height", {}, z.object({ height: z.number() }));
  await wallet.rpc.call("close_wallet", {}, z.unknown());
  return { primaryAddress: address, privateViewKey: key, restoreHeight: Math.max(height - 1, 0) };
}

export { startMonerod };
