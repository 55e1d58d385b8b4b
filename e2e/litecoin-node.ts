import { spawnSync } from "node:child_process";
import { freePortSync } from "./free-port-sync";

/**
 * Where the live Litecoin flow's regtest node listens (e2e/live-litecoin.spec.ts). The webServer's
 * environment is fixed when the config is evaluated, and Playwright starts the webServer before
 * globalSetup, so the node's RPC port is chosen here, when the config is first evaluated, and
 * kept in E2E_LITECOIN_RPC_PORT: the workers inherit the runner's environment and evaluate the
 * config again, so every process agrees on it. e2e/global-setup.ts starts the node on that port
 * (the server's watcher logs a failed tick or two until then and retries every 5 s) and stops it
 * at the end. Kept free of the service's modules: the config imports it.
 *
 * E2E_LITECOIN_RPC_PORT may be set beforehand to choose the port, or to "none" to run without a
 * node (the live spec then skips). Without litecoind installed it is "none".
 */
export type LitecoinNode = {
  rpcPort: number;
  /** The RPC URL with its credentials, as the service takes it (LITECOIN_RPC_URL). */
  url: string;
  user: string;
  password: string;
};

const PORT_ENV = "E2E_LITECOIN_RPC_PORT";
const USER = "e2e";
const PASSWORD = "e2e-regtest-only";

export function litecoindInstalled(): boolean {
  return spawnSync("litecoind", ["-version"]).error === undefined;
}

if (process.env[PORT_ENV] === undefined) {
  process.env[PORT_ENV] = litecoindInstalled() ? String(freePortSync()) : "none";
}

/** The node the e2e server follows, or null when there is none (litecoind not installed). */
export function e2eLitecoinNode(): LitecoinNode | null {
  const port = Number(process.env[PORT_ENV]);
  if (!Number.isInteger(port) || port <= 0) return null;
  return { rpcPort: port, url: `http://${USER}:${PASSWORD}@127.0.0.1:${port}/`, user: USER, password: PASSWORD };
}

/** Set by globalSetup when the node could not be started: the live spec fails with it, the others run. */
export const LITECOIN_START_ERROR_ENV = "E2E_LITECOIN_START_ERROR";
