import { eq } from "drizzle-orm";
import { Address, toNano } from "@ton/core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { getDb, type Db } from "@/db/client";
import { findTonComment } from "@/db/queries/ton";
import { findCharge } from "@/db/queries/charges";
import { chainCursors } from "@/db/schema";
import { config } from "@/lib/config";
import { CHAIN_POLL_MS, followConfiguredChains } from "@/lib/chains/follow";
import { selectCoin } from "@/lib/checkout/select";
import { checkoutView } from "@/lib/checkout/view";
import { reconcilePayment } from "@/lib/payments/reconcile";
import { adminToken, createPayment, json, newBusiness, paymentsPath, request } from "../helpers";
import { oneChainFileAtATime } from "../serial";
import { TonNode } from "../chains/nodes/ton-node";
import { log } from "@/log/logger.mjs";

/**
 * Live businesses paid on TON, with TON_API_URL naming a fake toncenter over the TVM emulator that
 * the runner's chain job follows: the merchant's wallet address checked when given, TON offered
 * only with it, each payment's comment, and the checkout's ton://transfer link, which the test
 * wallet reads and pays as it says.
 */

const chainFile = oneChainFileAtATime();

/** What a wallet reads from a ton://transfer link: the recipient, the amount in nanotons, the comment. */
function parseTonLink(uri: string) {
  const url = new URL(uri);
  expect(url.protocol).toBe("ton:");
  expect(url.host).toBe("transfer");
  return { to: Address.parse(url.pathname.slice(1)), amount: BigInt(url.searchParams.get("amount")!), text: url.searchParams.get("text"), jetton: url.searchParams.get("jetton") };
}

describe("TON payments of live businesses", () => {
  let node: TonNode;
  let db: Db;
  const t0 = new Date();
  let tick = 0;
  const follow = () => followConfiguredChains(db, { ...config().chains, rpcUrls: { TON: node.url } }, reconcilePayment, new Date(t0.getTime() + tick++ * CHAIN_POLL_MS));
  const admin = (method: string, path: string, body?: unknown) => request(method, `/admin/v1/businesses${path}`, { key: adminToken(), body });

  beforeAll(async () => {
    node = await TonNode.start();
    node.apiKey = "test-key";
    process.env.TON_API_URL = node.url;
    process.env.TON_API_KEY = "test-key";
    expect(config().chains.rpcUrls.TON).toBe(node.url);
    db = await getDb();
    await db.update(chainCursors).set({ height: null, blockHash: null, recent: [], leaseOwner: null, leaseUntil: null }).where(eq(chainCursors.chain, "TON"));
    vi.spyOn(log, "info").mockImplementation(() => {});
    const [ton] = await follow();
    expect(ton).toMatchObject({ chain: "TON", net: "regtest", lastError: null, lastResult: { followed: true } });
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    await node?.stop();
  });

  it("takes the merchant's wallet in any form and gives it back non-bounceable; anything else is a 400 naming tonWallet; without one TON is refused", async () => {
    for (const bad of ["EQ-not-an-address", "0x52908400098527886E0F7030069857D2E4169EE7", "-1:00"]) {
      const res = await admin("POST", "", { name: "Live", mode: "live", tonWallet: bad });
      expect(res.status).toBe(400);
      expect(Object.keys((await json(res)).errors)).toEqual(["tonWallet"]);
    }
    const wallet = (await node.wallet("merchant-form")).address;
    const created = (await json(await admin("POST", "", { name: "Live", mode: "live", tonWallet: wallet.toString({ bounceable: true }) }))).data;
    chainFile.retire(created.businessId);
    expect(created.tonWallet).toBe(wallet.toString({ bounceable: false }));
    const b = await newBusiness({ mode: "live", enabledCoins: ["TON"], paymentLifetimeSeconds: 86_400 });
    chainFile.retire(b.businessId);
    const refused = await request("POST", paymentsPath(b.businessId), { key: b.apiKey, body: { currency: "USD", amount: 10, paymentMethods: { PLATFORM_CRYPTO: ["TON"] } } });
    expect(refused.status).toBe(400);
    expect((await json(refused)).detail).toMatch(/TON: no TON wallet address \(tonWallet\)/);
  });

  it("shows a ton://transfer link with the amount and the payment's comment, and the comment itself; the wallet that pays the link completes the payment", async () => {
    const merchant = (await node.wallet("merchant-checkout")).address;
    const b = await newBusiness({ mode: "live", enabledCoins: ["TON"], paymentLifetimeSeconds: 86_400, tonWallet: merchant.toRawString() });
    chainFile.retire(b.businessId);
    const p = await createPayment(b);
    await selectCoin(db, p.id, "TON");
    const comment = (await findTonComment(db, p.id))!;
    await selectCoin(db, p.id, "TON"); // choosing again keeps the comment
    expect(await findTonComment(db, p.id)).toBe(comment);
    const c = (await checkoutView(db, p.id))!.charge!;
    expect(c).toMatchObject({ address: merchant.toString({ bounceable: false }), comment, networkName: "TON", tokenContract: null });
    expect(c.uri).toBe(`ton://transfer/${merchant.toString({ bounceable: false })}?amount=${(await findCharge(db, p.id))!.quotedUnits}&text=${comment}`);

    const link = parseTonLink(c.uri);
    expect(link.to.equals(merchant)).toBe(true);
    await node.pay(await node.wallet("customer"), link.to, link.amount, link.text);
    const [ton] = await follow();
    expect(ton).toMatchObject({ lastError: null, lastResult: { followed: true, transfers: 1 } });
    expect((await checkoutView(db, p.id))!.status).toBe("COMPLETED");
    // The API key went with every request: the node refuses any request without it.
    expect(node.calls.get("getTransactions")).toBeGreaterThan(0);
  });

  it("asks for what is still due after a partial payment, with the same comment", async () => {
    const merchant = (await node.wallet("merchant-partial")).address;
    const b = await newBusiness({ mode: "live", enabledCoins: ["TON"], paymentLifetimeSeconds: 86_400, tonWallet: merchant.toString() });
    chainFile.retire(b.businessId);
    const p = await createPayment(b);
    await selectCoin(db, p.id, "TON");
    const first = parseTonLink((await checkoutView(db, p.id))!.charge!.uri);
    await node.pay(await node.wallet("customer"), first.to, first.amount - toNano("0.5"), first.text);
    await follow();
    const view = (await checkoutView(db, p.id))!;
    expect(view.status).toBe("UNDERPAID");
    const rest = parseTonLink(view.charge!.uri);
    expect(rest).toMatchObject({ amount: toNano("0.5"), text: first.text });
  });
});
