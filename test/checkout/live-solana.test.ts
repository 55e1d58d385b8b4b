import { generateKeyPairSigner, isAddress, type Address } from "@solana/kit";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { getDb, type Db } from "@/db/client";
import { findSolanaReference } from "@/db/queries/solana";
import { config } from "@/lib/config";
import { CHAIN_POLL_MS, followConfiguredChains } from "@/lib/chains/follow";
import { selectCoin } from "@/lib/checkout/select";
import { checkoutView } from "@/lib/checkout/view";
import { reconcilePayment } from "@/lib/payments/reconcile";
import { solanaPayUri } from "@/lib/wallets/solana";
import { canServeNow } from "@/lib/payments/address-source";
import { createUser } from "@/lib/accounts/users";
import { exportPayments } from "@/lib/dashboard/payments-export";
import { listTransfers } from "@/db/queries/charges";
import { adminToken, createPayment, json, newBusiness, paymentsPath, request } from "../helpers";
import { oneChainFileAtATime } from "../serial";
import { freePort } from "../chains/nodes/free-port";
import { startSolanaNode, type SolanaNode } from "../chains/nodes/solana-node";
import { parseTransferRequest, SolanaWallet } from "../chains/nodes/solana-wallet";
import { freshSolanaCursor } from "../chains/solana-live-payment";
import { log } from "@/log/logger.mjs";

/**
 * Live businesses paid on Solana, with SOLANA_RPC_URL naming a fake Solana node (LiteSVM behind
 * JSON-RPC) that the runner's chain job follows: the merchant's wallet address (a public key only)
 * checked when given, Solana coins offered only with it and a healthy node, each payment's
 * reference, and the checkout's Solana Pay transfer request, which the test wallet reads and pays.
 */

const chainFile = oneChainFileAtATime();

describe("Solana payments of live businesses", () => {
  let node: SolanaNode;
  let db: Db;
  let usdc: Address;
  let payer: SolanaWallet;
  const t0 = new Date();
  let tick = 0;
  /** The runner's chain job, as the service runs it, each call a poll interval after the last. */
  const follow = () => followConfiguredChains(db, { ...config().chains, rpcUrls: { SOLANA: node.url } }, reconcilePayment, new Date(t0.getTime() + tick++ * CHAIN_POLL_MS));
  const admin = (method: string, path: string, body?: unknown) => request(method, `/admin/v1/businesses${path}`, { key: adminToken(), body });

  beforeAll(async () => {
    node = await startSolanaNode({ port: await freePort() });
    const issuer = await SolanaWallet.funded(node.url);
    usdc = await issuer.createMint(6);
    payer = await SolanaWallet.funded(node.url, 100_000_000_000n);
    await issuer.mintTo(usdc, payer.address, 10n ** 12n);
    // The configuration is read on first use: the node and its mint are set before.
    process.env.SOLANA_RPC_URL = node.url;
    process.env.SOLANA_TOKEN_MINTS = JSON.stringify({ SOL_USD_COIN: usdc });
    expect(config().chains.rpcUrls.SOLANA).toBe(node.url);
    db = await getDb();
    await freshSolanaCursor(db);
    vi.spyOn(log, "info").mockImplementation(() => {});
    const [solana] = await follow();
    expect(solana).toMatchObject({ chain: "SOLANA", net: "regtest", lastError: null, lastResult: { followed: true } });
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    await node?.close();
  });

  it("takes the merchant's wallet as a public key only: anything else is a 400 naming solanaWallet", async () => {
    const secretLike = "4Z7cXSyeFR8wNGMVXUE1TwtKn5D5Vu7FzEv69dokLv7KrQk7h6pu4LF8ZRR9yQBhc7uSM6RTTZtU1fmaxiNrxXrs"; // 64 bytes: a secret key's length
    for (const bad of [secretLike, "0x52908400098527886E0F7030069857D2E4169EE7", "not a key", "abandon ".repeat(11) + "about"]) {
      const res = await admin("POST", "", { name: "Live", mode: "live", solanaWallet: bad });
      expect(res.status).toBe(400);
      expect(Object.keys((await json(res)).errors)).toEqual(["solanaWallet"]);
    }
    const wallet = (await generateKeyPairSigner()).address;
    const created = (await json(await admin("POST", "", { name: "Live", mode: "live", solanaWallet: wallet }))).data;
    chainFile.retire(created.businessId);
    expect(created.solanaWallet).toBe(wallet);
    expect((await json(await admin("GET", `/${created.businessId}`))).data.solanaWallet).toBe(wallet);
    expect((await json(await admin("PATCH", `/${created.businessId}`, { solanaWallet: null }))).data.solanaWallet).toBeNull();
  });

  it("offers Solana coins to a live business only with a wallet address and a healthy node", async () => {
    const b = await newBusiness({ mode: "live", enabledCoins: ["BITCOIN", "SOLANA", "SOL_USD_COIN"], paymentLifetimeSeconds: 86_400 });
    chainFile.retire(b.businessId);
    const refused = await request("POST", paymentsPath(b.businessId), { key: b.apiKey, body: { currency: "USD", amount: 10, paymentMethods: { PLATFORM_CRYPTO: ["SOLANA"] } } });
    expect(refused.status).toBe(400);
    expect((await json(refused)).detail).toMatch(/SOLANA: no Solana wallet address \(solanaWallet\)/);
    const wallet = (await generateKeyPairSigner()).address;
    await admin("PATCH", `/${b.businessId}`, { solanaWallet: wallet });
    const p = await createPayment(b);
    expect((await checkoutView(db, p.id))!.coins.map((c) => c.coin)).toEqual(expect.arrayContaining(["SOLANA", "SOL_USD_COIN"]));
    // No healthy Solana chain (its node down, stalled or not yet followed): none is offered to the customer.
    const business = { mode: "live" as const, extendedPublicKeys: {}, solanaWallet: wallet };
    const on = { chain: "SOLANA" as const, network: "regtest" as const, chainId: null };
    expect(canServeNow(business, "SOLANA", new Map([["SOLANA", on]]))).toBe(true);
    expect(canServeNow(business, "SOLANA", new Map())).toBe(false);
    expect(canServeNow({ ...business, solanaWallet: null }, "SOLANA", new Map([["SOLANA", on]]))).toBe(false);
  });

  it("shows the charge as a Solana Pay transfer request to the merchant's wallet with the payment's reference; the wallet that pays it completes the payment", async () => {
    const merchant = (await generateKeyPairSigner()).address;
    const b = await newBusiness({ mode: "live", displayName: "Corner Café", enabledCoins: ["SOLANA", "SOL_USD_COIN"], paymentLifetimeSeconds: 86_400, solanaWallet: merchant });
    chainFile.retire(b.businessId);
    const sol = await createPayment(b, { currency: "USD", amount: 10, name: "Order 42" });
    const token = await createPayment(b, { currency: "USD", amount: 10 });
    await selectCoin(db, sol.id, "SOLANA");
    await selectCoin(db, token.id, "SOL_USD_COIN");
    const [solRef, tokenRef] = [await findSolanaReference(db, sol.id), await findSolanaReference(db, token.id)];
    expect(isAddress(solRef!) && isAddress(tokenRef!) && solRef !== tokenRef).toBe(true);
    // Choosing again keeps the payment's reference.
    await selectCoin(db, sol.id, "SOLANA");
    expect(await findSolanaReference(db, sol.id)).toBe(solRef);

    const a = (await checkoutView(db, sol.id))!.charge!;
    expect(a).toMatchObject({ address: merchant, transferRequest: true, tokenContract: null, networkName: "Solana" });
    expect(a.uri).toBe(solanaPayUri({ recipient: merchant, amount: a.amount, reference: solRef, label: "Corner Café", message: "Order 42" }));
    expect(a.uri).toBe(`solana:${merchant}?amount=${a.amount}&reference=${solRef}&label=Corner%20Caf%C3%A9&message=Order%2042`);
    const t = (await checkoutView(db, token.id))!.charge!;
    expect(t).toMatchObject({ address: merchant, transferRequest: true, tokenContract: usdc, standard: "SPL" });
    expect(t.uri).toBe(`solana:${merchant}?amount=${t.amount}&spl-token=${usdc}&reference=${tokenRef}&label=Corner%20Caf%C3%A9`);

    // The customer's wallet reads each request and pays it as it says (the USDC one making the merchant's token account).
    await payer.pay(parseTransferRequest(a.uri, 9));
    await payer.pay(parseTransferRequest(t.uri, 6), { createRecipientAccount: true, guards: true });
    const [solana] = await follow();
    expect(solana).toMatchObject({ lastError: null, lastResult: { followed: true, transfers: 2 } });
    expect(await checkoutView(db, sol.id)).toMatchObject({ status: "COMPLETED" });
    expect(await checkoutView(db, token.id)).toMatchObject({ status: "COMPLETED" });

    // The dashboard's CSV export names each payment's transaction by its signature.
    const owner = (await createUser(db, { email: `owner-${sol.id}@example.com`, businessId: b.businessId, role: "owner" })).userId;
    const { lines } = await exportPayments(db, owner, b.businessId, new URLSearchParams());
    let csv = "";
    for await (const chunk of lines) csv += chunk;
    const signatures = await Promise.all([sol.id, token.id].map(async (id) => (await listTransfers(db, id))[0].txId));
    for (const [i, id] of [sol.id, token.id].entries()) expect(csv.split("\r\n").find((l) => l.startsWith(id))).toContain(signatures[i]);
  });
});
