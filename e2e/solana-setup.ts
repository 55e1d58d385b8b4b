import { createKeyPairSignerFromPrivateKeyBytes } from "@solana/kit";
import { DEVNET_GENESIS, startSolanaNode, type SolanaNode } from "../test/chains/nodes/solana-node";
import { SolanaWallet } from "../test/chains/nodes/solana-wallet";
import { E2E_SOLANA_MINT_SEED, E2E_SOLANA_PAYER_SEED, E2E_SOLANA_SLOT_MS, e2eSolanaNode, SOLANA_START_ERROR_ENV } from "./solana-node";

const signerOf = (hex: string) => createKeyPairSignerFromPrivateKeyBytes(new Uint8Array(Buffer.from(hex, "hex")));

/**
 * globalSetup's Solana part: the fake node on the chosen port with devnet's genesis and a slot
 * every E2E_SOLANA_SLOT_MS, the USDC-like mint made at its fixed address by a real
 * createAccount + initializeMint2, and the payer funded with SOL and 1 000 000 USDC. A failure is
 * handed to the live Solana spec (SOLANA_START_ERROR_ENV); the other specs run.
 */
export async function startE2eSolana(): Promise<SolanaNode | undefined> {
  const { port } = e2eSolanaNode();
  let node: SolanaNode | undefined;
  try {
    node = await startSolanaNode({ port, genesisHash: DEVNET_GENESIS, slotMs: E2E_SOLANA_SLOT_MS });
    const issuer = await SolanaWallet.funded(node.url);
    const mint = await issuer.createMint(6, await signerOf(E2E_SOLANA_MINT_SEED));
    const payer = await SolanaWallet.funded(node.url, 100_000_000_000n, await signerOf(E2E_SOLANA_PAYER_SEED));
    await issuer.mintTo(mint, payer.address, 1_000_000_000_000n);
    return node;
  } catch (err) {
    await node?.close();
    process.env[SOLANA_START_ERROR_ENV] = (err as Error).message;
    console.error(`[e2e] the fake Solana node on 127.0.0.1:${port} did not start: ${(err as Error).message}`);
    return undefined;
  }
}
