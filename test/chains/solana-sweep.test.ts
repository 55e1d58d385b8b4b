import type { Address } from "@solana/kit";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { getDb, type Db } from "@/db/client";
import { listUnmatched, setSolanaWallet } from "@/db/queries/solana";
import { charges } from "@/db/schema";
import { log } from "@/log/logger.mjs";
import { oneChainFileAtATime } from "../serial";
import { startSolanaNode, type SolanaNode } from "./nodes/solana-node";
import { SolanaWallet } from "./nodes/solana-wallet";
import { solanaLivePayment, solanaWatcher } from "./solana-live-payment";

/**
 * The sweep of the merchants' wallets (lib/chains/solana/sweep.ts) for payments that came
 * without their reference, against the fake Solana node: matched by amount to the one open charge
 * due exactly that much, otherwise kept for the merchant's review; never counted twice.
 */

const chainFile = oneChainFileAtATime();

describe("Solana watcher: payments without a reference", () => {
  let node: SolanaNode;
  let db: Db;
  let payer: SolanaWallet;
  let usdc: Address;
  let w: ReturnType<typeof solanaWatcher>;

  /** A live business with its own wallet and payments in `coins`; its wallet's first sweep starts at its newest signature. */
  const merchantWith = async (coins: ("SOLANA" | "SOL_USD_COIN")[]) => {
    const merchant = (await SolanaWallet.funded(node.url, 1_000_000_000n)).address;
    const first = await solanaLivePayment(db, coins[0], merchant, (id) => chainFile.retire(id), { enabledCoins: ["SOLANA", "SOL_USD_COIN"] });
    const payments = [first];
    for (const coin of coins.slice(1)) payments.push(await solanaLivePayment(db, coin, merchant, (id) => chainFile.retire(id), {}, first.business));
    const businessId = first.business.businessId;
    await setSolanaWallet(db, businessId, merchant, new Date());
    const o = w.options({ sweep: true });
    await w.tick(o);
    return { merchant, businessId, payments, o };
  };

  beforeAll(async () => {
    db = await getDb();
    node = await startSolanaNode();
    const issuer = await SolanaWallet.funded(node.url);
    payer = await SolanaWallet.funded(node.url, 100_000_000_000n);
    usdc = await issuer.createMint(6);
    await issuer.mintTo(usdc, payer.address, 10n ** 12n);
    w = solanaWatcher(db, node.url, () => new Map([["SOL_USD_COIN", usdc]]));
    vi.spyOn(log, "warn").mockImplementation(() => {});
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    await node?.close();
  });

  it("records a SOL transfer without a reference on the one open payment due exactly that amount", async () => {
    const { merchant, payments: [p], o } = await merchantWith(["SOLANA"]);
    const sig = await payer.pay({ recipient: merchant, amount: p.units });
    expect(await w.tick(o)).toMatchObject({ transfers: 1 });
    expect(await w.transfersOf(p.id)).toMatchObject([{ txId: sig, amount: String(p.units) }]);
    expect(await w.status(p.id)).toBe("COMPLETED");
  });

  it("records a USDC transfer without a reference to the merchant's token account the same way", async () => {
    const { merchant, payments: [p], o } = await merchantWith(["SOL_USD_COIN"]);
    const sig = await payer.pay({ recipient: merchant, amount: p.units, splToken: usdc }, { createRecipientAccount: true });
    // The token account did not exist at the first sweep: its first signatures are this payment's.
    await w.tick(o);
    await w.tick(o);
    expect(await w.transfersOf(p.id)).toMatchObject([{ txId: sig, amount: String(p.units) }]);
    expect(await w.status(p.id)).toBe("COMPLETED");
  });

  it("keeps for review a transfer no open payment is due, and one that two open payments are due alike", async () => {
    const { merchant, businessId, payments: [a, b], o } = await merchantWith(["SOLANA", "SOLANA"]);
    await db.update(charges).set({ quotedUnits: String(a.units) }).where(eq(charges.paymentId, b.id));
    const odd = await payer.pay({ recipient: merchant, amount: a.units + 1n });
    const twice = await payer.pay({ recipient: merchant, amount: a.units });
    expect(await w.tick(o)).toMatchObject({ transfers: 0 });
    const rows = await listUnmatched(db, businessId);
    expect(rows.map((r) => [r.signature, r.coin, r.amount]).sort()).toEqual([[odd, "SOLANA", String(a.units + 1n)], [twice, "SOLANA", String(a.units)]].sort());
    expect(await w.transfersOf(a.id)).toEqual([]);
    expect(await w.transfersOf(b.id)).toEqual([]);
  });

  it("leaves a payment carrying its reference to the reference polling: recorded once", async () => {
    const { merchant, businessId, payments: [p], o } = await merchantWith(["SOLANA"]);
    const sig = await payer.pay({ recipient: merchant, amount: p.units, reference: p.reference });
    await w.tick(o);
    await w.tick(o);
    expect(await w.transfersOf(p.id)).toMatchObject([{ txId: sig }]);
    expect(await listUnmatched(db, businessId)).toEqual([]);
  });
});
