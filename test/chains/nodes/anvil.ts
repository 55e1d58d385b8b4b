import { spawn, type ChildProcess } from "node:child_process";
import { createRequire } from "node:module";
import { freePort } from "./free-port";
import path from "node:path";
import { evmChainIdOf, evmClient, type EvmClient } from "@/lib/chains/evm/rpc";

/**
 * A real anvil (Foundry's local Ethereum node) for a test file, on a free port, ready once
 * eth_chainId answers. The binary comes from the `@foundry-rs/anvil` devDependency's platform
 * package, spawned directly rather than through its Node wrapper so that killing the child
 * stops the node itself. Anvil starts with ten funded dev accounts and mines a block per
 * transaction.
 */
export type Anvil = {
  url: string;
  client: EvmClient;
  stop(): Promise<void>;
};

export const ANVIL_CHAIN_ID = 31337;

/** Dev account 0 of anvil's default mnemonic: public knowledge, holds 10 000 test ETH. */
export const ANVIL_DEV_KEY_0 = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";

const ARCH: Partial<Record<string, string>> = { x64: "amd64", arm64: "arm64" };

function anvilBinary(): string {
  const pkg = `@foundry-rs/anvil-${process.platform}-${ARCH[process.arch] ?? process.arch}`;
  const manifest = createRequire(import.meta.url).resolve(`${pkg}/package.json`);
  return path.join(path.dirname(manifest), "bin", process.platform === "win32" ? "anvil.exe" : "anvil");
}

export async function startAnvil(): Promise<Anvil> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    anvilBinary(),
    ["--host", "127.0.0.1", "--port", String(port), "--chain-id", String(ANVIL_CHAIN_ID), "--silent"],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  let stderr = "";
  child.stderr?.on("data", (c) => (stderr += c));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const client = evmClient(url, { timeoutMs: 5_000 });
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      await evmChainIdOf(client);
      break;
    } catch (err) {
      if (child.exitCode !== null || Date.now() > deadline) {
        child.kill("SIGKILL");
        throw new Error(`anvil did not start: ${stderr || (err as Error).message}`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  return {
    url,
    client,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
