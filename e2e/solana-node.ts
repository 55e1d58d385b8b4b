import { freePortSync } from "./free-port-sync";

/**
 * The fake Solana node the e2e server follows (test/chains/nodes/solana-node.ts: LiteSVM behind
 * JSON-RPC), for the live Solana flow (e2e/live-solana.spec.ts). As with the TRON node
 * (e2e/tron-node.ts), the port is chosen when the config is first evaluated and kept in
 * E2E_SOLANA_PORT for every process, and the USDC mint and the customer's key are fixed: the
 * server is told the mint (SOLANA_TOKEN_MINTS) before the node exists, and the spec, in a worker,
 * reaches the node only over JSON-RPC, so it signs with the payer's key itself.
 * e2e/global-setup.ts starts the node, makes the mint at that address and funds the payer. Kept
 * free of the service's modules and of @solana/kit: the config imports it.
 */

const PORT_ENV = "E2E_SOLANA_PORT";

/** The seed of the USDC-like mint's key (sha256 of "e2e solana mint") and its address, 6 decimals. A test key: it exists only in the fake node. */
export const E2E_SOLANA_MINT_SEED = "105861f5ca6753712b3a374ab5633f6a85e5b7a6b2d9eb79d38b554778f2bf04";
export const E2E_SOLANA_USDC = "FXYYMCrmJeUBktdYgesGvtT9sib93S5y3joxA5uAxUMH";
/** The customer's key seed (sha256 of "e2e solana payer") and address, funded with SOL (fees) and USDC at setup. */
export const E2E_SOLANA_PAYER_SEED = "d1407ebe780fdc5eb851aa637636bb66dbd073e636035c077e28966bf5a28d52";
export const E2E_SOLANA_PAYER = "8rsAh4mDFZhKk5Na9uK4H3k1RiCLJmYvbx5bmmZ2Yr2b";
/** An empty slot this often: the cluster's tip moves, so the server never reads it as stalled. */
export const E2E_SOLANA_SLOT_MS = 500;

if (process.env[PORT_ENV] === undefined) process.env[PORT_ENV] = String(freePortSync());

export function e2eSolanaNode(): { port: number; url: string } {
  const port = Number(process.env[PORT_ENV]);
  return { port, url: `http://127.0.0.1:${port}` };
}

/** The server's Solana settings: the node, and USDC (SOL_USD_COIN) at the fixed mint. */
export function solanaServerEnv(): Record<string, string> {
  return { SOLANA_RPC_URL: e2eSolanaNode().url, SOLANA_TOKEN_MINTS: JSON.stringify({ SOL_USD_COIN: E2E_SOLANA_USDC }) };
}

/** Set by globalSetup when the node could not be started: the live Solana spec fails with it, the others run. */
export const SOLANA_START_ERROR_ENV = "E2E_SOLANA_START_ERROR";
