import { spawnSync } from "node:child_process";
import { freePortSync } from "./free-port-sync";

/**
 * The regtest monerod and monero-wallet-rpcs of the live Monero flow (e2e/live-monero.spec.ts).
 * As with litecoind (e2e/litecoin-node.ts) the ports are chosen when the config is first
 * evaluated and kept in E2E_MONERO_PORTS ("daemon,wallet,spender", or "none" without Debian's
 * `monero`): the server is told the daemon's and the wallet-rpc's URLs before they exist, and
 * the spec, in a worker, reaches the spending wallet's wallet-rpc at the third. e2e/monero-setup.ts
 * starts them. Kept free of the service's modules: the config imports it.
 */
const PORTS_ENV = "E2E_MONERO_PORTS";

export function moneroInstalled(): boolean {
  return spawnSync("monerod", ["--version"]).error === undefined && spawnSync("monero-wallet-rpc", ["--version"]).error === undefined;
}

if (process.env[PORTS_ENV] === undefined) {
  process.env[PORTS_ENV] = moneroInstalled() ? [freePortSync(), freePortSync(), freePortSync()].join(",") : "none";
}

export type MoneroE2eNodes = { daemonPort: number; walletPort: number; spenderPort: number; daemonUrl: string; walletUrl: string; spenderUrl: string };

/** The nodes the e2e server follows, or null when there are none (monero not installed). */
export function e2eMoneroNodes(): MoneroE2eNodes | null {
  const ports = (process.env[PORTS_ENV] ?? "none").split(",").map(Number);
  if (ports.length !== 3 || !ports.every((p) => Number.isInteger(p) && p > 0)) return null;
  const [daemonPort, walletPort, spenderPort] = ports;
  const url = (port: number) => `http://127.0.0.1:${port}`;
  return { daemonPort, walletPort, spenderPort, daemonUrl: url(daemonPort), walletUrl: url(walletPort), spenderUrl: url(spenderPort) };
}

/** The server's Monero settings: the daemon and the wallet-rpc for the businesses' view-only wallets. */
export function moneroServerEnv(): Record<string, string> {
  const nodes = e2eMoneroNodes();
  return nodes ? { MONERO_DAEMON_URL: nodes.daemonUrl, MONERO_WALLET_RPC_URL: nodes.walletUrl } : {};
}

/** Set by globalSetup: a merchant wallet's keys (JSON), made before the spending wallet was opened. */
export const MONERO_MERCHANT_ENV = "E2E_MONERO_MERCHANT";
/** Set by globalSetup when the nodes could not be started: the live Monero spec fails with it, the others run. */
export const MONERO_START_ERROR_ENV = "E2E_MONERO_START_ERROR";
