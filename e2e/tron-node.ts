import { freePortSync } from "./free-port-sync";

/**
 * The fake java-tron node the e2e server follows (test/chains/nodes/tron-node.ts), for the live
 * TRON flow (e2e/live-tron.spec.ts). As with litecoind (e2e/litecoin-node.ts), Playwright starts
 * the webServer before globalSetup and fixes its environment when the config is evaluated, so
 * the node's port is chosen here, once, and kept in E2E_TRON_PORT: the workers inherit the
 * runner's environment and evaluate the config again, so every process agrees on it. The token
 * contract and the payer are fixed for the same reason: the server is told the contract
 * (TRON_TOKEN_CONTRACTS) before the node exists, and the spec, in a worker, cannot reach the
 * node's in-memory API, only its HTTP one, so it signs with the payer's key itself.
 * e2e/global-setup.ts starts the node on that port (the server's watcher logs a failed tick or
 * two until then and retries every 5 s) and stops it at the end. Kept free of the service's
 * modules and of tronweb: the config imports it.
 */

const PORT_ENV = "E2E_TRON_PORT";

/**
 * Nile's USDT contract (TRON's test network, whose genesis the node serves): the address a Nile
 * merchant would configure, emulated by the node with USDT's 6 decimals.
 */
export const E2E_TRON_USDT = "TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf";
/** The customer's key, funded at the node's genesis with TRX (fees) and USDT. A test key: it exists only in the fake node. */
export const E2E_TRON_PAYER_KEY = "8f2a6c1d4b7e9a0c3f5e8d1b6a4c7e2f9d0b3a5c8e1f4a7d2c6b9e0f3a5d8c1e";
/** A block a second: three times a real node's pace, so 19 confirmations take ~19 s. */
export const E2E_TRON_BLOCK_MS = 1_000;

if (process.env[PORT_ENV] === undefined) process.env[PORT_ENV] = String(freePortSync());

export function e2eTronNode(): { port: number; url: string } {
  const port = Number(process.env[PORT_ENV]);
  return { port, url: `http://127.0.0.1:${port}` };
}

/** The server's TRON settings: the node, and USDT (TRX_TETHER, and CONTRACT_TRC20_USDT with it) at the fixed contract. */
export function tronServerEnv(): Record<string, string> {
  return { TRON_RPC_URL: e2eTronNode().url, TRON_TOKEN_CONTRACTS: JSON.stringify({ TRX_TETHER: E2E_TRON_USDT }) };
}

/** Set by globalSetup when the node could not be started: the live TRON spec fails with it, the others run. */
export const TRON_START_ERROR_ENV = "E2E_TRON_START_ERROR";
