import { freePortSync } from "./free-port-sync";

/**
 * The fake toncenter the e2e server follows (test/chains/nodes/ton-node.ts: the TVM emulator
 * behind toncenter v2), for the live TON flow (e2e/live-ton.spec.ts). Its port is chosen once,
 * in the Playwright config's process, and handed to every process in E2E_TON_PORT; the customer's
 * wallet key is fixed, so the spec (in a worker) signs for the wallet globalSetup deployed. Kept
 * free of the service's modules: the config imports it.
 */

const PORT_ENV = "E2E_TON_PORT";

/** The customer's wallet key seed (sha256 of "e2e ton payer"): a v4 wallet deployed and funded at setup. A test key: it exists only in the emulator. */
export const E2E_TON_PAYER_SEED = "e6d2e7610fddd0ba750fd7e58a70de10341bff1799b84b3c6d8901d082976dba";
/** The merchant's wallet: an address nobody deployed, paid non-bounceable (its UQ form), as a fresh wallet is. */
export const E2E_TON_MERCHANT_RAW = `0:${"5e".repeat(32)}`;

if (process.env[PORT_ENV] === undefined) process.env[PORT_ENV] = String(freePortSync());

export function e2eTonNode(): { port: number; url: string } {
  const port = Number(process.env[PORT_ENV]);
  return { port, url: `http://127.0.0.1:${port}` };
}

/** The server's TON settings: the fake toncenter. */
export function tonServerEnv(): Record<string, string> {
  return { TON_API_URL: e2eTonNode().url };
}

/** Set by globalSetup when the node could not be started: the live TON spec fails with it, the others run. */
export const TON_START_ERROR_ENV = "E2E_TON_START_ERROR";
