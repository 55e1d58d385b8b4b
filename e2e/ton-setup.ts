import { keyPairFromSeed } from "@ton/crypto";
import { toNano } from "@ton/core";
import { WalletContractV4 } from "@ton/ton";
import { TonNode } from "../test/chains/nodes/ton-node";
import { E2E_TON_PAYER_SEED, e2eTonNode, TON_START_ERROR_ENV } from "./ton-node";

/** The customer's v4 wallet of the fixed test key (e2e/ton-node.ts). */
export function e2eTonPayer(): { wallet: WalletContractV4; secretKey: Buffer } {
  const keys = keyPairFromSeed(Buffer.from(E2E_TON_PAYER_SEED, "hex"));
  return { wallet: WalletContractV4.create({ workchain: 0, publicKey: keys.publicKey }), secretKey: keys.secretKey };
}

/**
 * globalSetup's TON part: the fake toncenter on the chosen port (a private network's zero
 * state), and the customer's v4 wallet deployed and funded with 1 000 TON by a treasury. A failure
 * is handed to the live TON spec (TON_START_ERROR_ENV); the other specs run.
 */
export async function startE2eTon(): Promise<TonNode | undefined> {
  const { port } = e2eTonNode();
  let node: TonNode | undefined;
  try {
    node = await TonNode.start({ port });
    const { wallet } = e2eTonPayer();
    const treasury = await node.wallet("e2e-funder");
    node.keep(await treasury.send({ to: wallet.address, value: toNano("1000"), init: wallet.init, bounce: false }));
    return node;
  } catch (err) {
    await node?.stop();
    process.env[TON_START_ERROR_ENV] = (err as Error).message;
    console.error(`[e2e] the fake toncenter on 127.0.0.1:${port} did not start: ${(err as Error).message}`);
    return undefined;
  }
}
