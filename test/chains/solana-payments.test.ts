import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Address } from "@solana/kit";
import { getDb, type Db } from "@/db/client";
import type { CoinName } from "@/domain/coins";
import { expirePaymentIfDue } from "@/lib/payments/expiry";
import { json, paymentsPath, request } from "../helpers";
import { oneChainFileAtATime } from "../serial";
import { startSolanaNode, type SolanaNode } from "./nodes/solana-node";
import { SolanaWallet } from "./nodes/solana-wallet";
import { solanaLivePayment, solanaWatcher } from "./solana-live-payment";

/**
 * The Solana watcher (followSolana) against the fake Solana node over JSON-RPC (LiteSVM running
 * the real System and SPL Token programs), deciding statuses with the payments layer's step: what
 * pays a charge and what does not. Transactions are built and signed by @solana/kit as a wallet
 * does. The tests share one node and run in order, each under a cursor of its own.
 */

const chainFile = oneChainFileAtATime();

describe("Solana watcher: payments (LiteSVM behind JSON-RPC)", () => {
  let node: SolanaNode;
  let db: Db;
  let issuer: SolanaWallet; // the USDC-like mint's authority
  let payer: SolanaWallet;
  let merchant: Address;
  let usdc: Address;
  let w: ReturnType<typeof solanaWatcher>;

  const livePayment = (coin: CoinName, wallet: string = merchant) => solanaLivePayment(db, coin, wallet, (id) => chainFile.retire(id));
  const recordOf = async (p: { id: string; business: { businessId: number; apiKey: string } }) =>
    (await json(await request("GET", `${paymentsPath(p.business.businessId)}/${p.id}`, { key: p.business.apiKey }))).data;
  const started = async () => {
    const o = w.options();
    expect(await w.tick(o)).toMatchObject({ followed: true, to: node.chain.slot });
    return o;
  };

  beforeAll(async () => {
    db = await getDb();
    node = await startSolanaNode();
    issuer = await SolanaWallet.funded(node.url);
    payer = await SolanaWallet.funded(node.url, 100_000_000_000n);
    merchant = (await SolanaWallet.funded(node.url, 1_000_000_000n)).address;
    usdc = await issuer.createMint(6);
    await issuer.mintTo(usdc, payer.address, 1_000_000_000_000n);
    w = solanaWatcher(db, node.url, () => new Map([["SOL_USD_COIN", usdc]]));
  });
  afterAll(async () => node?.close());

  it("sees an exact SOL payment carrying the reference at finalized: COMPLETED, its transaction the signature on the SOLANA network", async () => {
    const o = await started();
    const p = await livePayment("SOLANA");
    const sig = await payer.pay({ recipient: merchant, amount: p.units, reference: p.reference });
    const slot = node.chain.slot; // each transaction is its own slot's block
    expect(await w.tick(o)).toMatchObject({ followed: true, transfers: 1, to: node.chain.slot });
    expect(await w.transfersOf(p.id)).toMatchObject([{ txId: sig, amount: String(p.units), toAddress: merchant, blockNumber: String(slot), blockHash: node.chain.blocks[slot].blockhash, confirmations: 32, late: false }]);
    expect(await w.status(p.id)).toBe("COMPLETED");
    const record = await recordOf(p);
    expect(record.platformCryptoCharge.transaction).toMatchObject({ id: sig, network: "SOLANA", toAddress: merchant, amount: Number(p.units) / 1e9, confirmations: 32 });
  });

  it("sees an exact USDC payment whose merchant token account is made in the same transaction, with guard instructions before and after the transfer", async () => {
    const o = await started();
    const fresh = (await SolanaWallet.funded(node.url, 1_000_000_000n)).address; // no USDC account yet
    const p = await livePayment("SOL_USD_COIN", fresh);
    const sig = await payer.pay({ recipient: fresh, amount: p.units, splToken: usdc, reference: p.reference }, { guards: true, createRecipientAccount: true });
    const tx = node.chain.bySignature.get(sig)!;
    expect(tx.message.instructions.length).toBe(4);
    expect(tx.preTokenBalances.some((b) => b.owner === fresh)).toBe(false);
    expect(await w.tick(o)).toMatchObject({ transfers: 1 });
    expect(await w.transfersOf(p.id)).toMatchObject([{ txId: sig, amount: String(p.units) }]);
    expect(await w.status(p.id)).toBe("COMPLETED");
  });

  it("takes a partial SOL payment as UNDERPAID and completes it with a top-up under the same reference", async () => {
    const o = await started();
    const p = await livePayment("SOLANA");
    const first = p.units / 3n;
    await payer.pay({ recipient: merchant, amount: first, reference: p.reference });
    await w.tick(o);
    expect(await w.status(p.id)).toBe("UNDERPAID");
    await payer.pay({ recipient: merchant, amount: p.units - first, reference: p.reference });
    expect(await w.tick(o)).toMatchObject({ transfers: 1 });
    expect((await w.transfersOf(p.id)).map((t) => t.amount)).toEqual([String(first), String(p.units - first)]);
    expect(await w.status(p.id)).toBe("COMPLETED");
  });

  it("completes a SOL payment short by less than the business's underpayment tolerance", async () => {
    const o = await started();
    const p = await solanaLivePayment(db, "SOLANA", merchant, (id) => chainFile.retire(id), { underpaymentTolerancePercent: 1 });
    await payer.pay({ recipient: merchant, amount: p.units - p.units / 200n, reference: p.reference }); // 0.5 % short
    await w.tick(o);
    expect(await w.status(p.id)).toBe("COMPLETED");
  });

  it("completes an overpaid USDC payment and records the whole amount", async () => {
    const o = await started();
    const p = await livePayment("SOL_USD_COIN");
    await payer.pay({ recipient: merchant, amount: p.units * 2n, splToken: usdc, reference: p.reference }, { createRecipientAccount: true });
    await w.tick(o);
    expect(await w.transfersOf(p.id)).toMatchObject([{ amount: String(p.units * 2n) }]);
    expect(await w.status(p.id)).toBe("COMPLETED");
  });

  it("passes over a failed transaction carrying the reference (included with err set), and over another mint's transfer to the merchant", async () => {
    const o = await started();
    const p = await livePayment("SOL_USD_COIN");
    // More than the payer holds: the token program fails (InsufficientFunds), the node includes it with err.
    const failed = await payer.pay({ recipient: merchant, amount: 10n ** 18n, splToken: usdc, reference: p.reference }, { createRecipientAccount: true });
    expect(node.chain.bySignature.get(failed)!.err).toMatchObject({ InstructionError: [1, { Custom: 1 }] });
    const other = await payer.createMint(6);
    await payer.mintTo(other, payer.address, 10n ** 12n);
    const wrongMint = await payer.pay({ recipient: merchant, amount: p.units, splToken: other, reference: p.reference }, { createRecipientAccount: true });
    const sigs = await w.rpc.getSignaturesForAddress(p.reference as Address, { commitment: "finalized" }).send();
    expect(sigs.map((s) => s.signature)).toEqual([wrongMint, failed]);
    expect(sigs[1].err).not.toBeNull();
    expect(await w.tick(o)).toMatchObject({ transfers: 0 });
    expect(await w.transfersOf(p.id)).toEqual([]);
    expect(await w.status(p.id)).toBe("AWAITING_PAYMENT");
  });

  it("records a SOL payment after expiry as late, leaving the status EXPIRED", async () => {
    const o = await started();
    const p = await livePayment("SOLANA");
    expect(await expirePaymentIfDue(db, p.id, new Date(Date.now() + 2 * 86_400_000))).toBe(true);
    expect(await w.status(p.id)).toBe("EXPIRED");
    const sig = await payer.pay({ recipient: merchant, amount: p.units, reference: p.reference });
    await w.tick(o);
    expect(await w.transfersOf(p.id)).toMatchObject([{ txId: sig, late: true }]);
    expect(await w.status(p.id)).toBe("EXPIRED");
  });
});
