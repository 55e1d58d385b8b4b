import { randomBytes } from "node:crypto";
import { HDKey } from "@scure/bip32";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { toBaseUnits } from "@/domain/amounts";
import { deriveAddressForCoin, TEST_EXTENDED_PUBLIC_KEYS } from "@/lib/wallets/derive";
import { recordChainTransfer } from "@/db/queries/chain-watch";
import { selectCoin } from "@/lib/checkout/select";
import { expireDuePayments } from "@/lib/payments/expiry";
import { checkoutView } from "@/lib/checkout/view";
import { adminToken, chainFollowed, createPayment, json, newBusiness, paymentsPath, request } from "../helpers";

describe("deposit addresses of live businesses", () => {
  it("derive from the business's own extended public keys, a fresh index per charge", async () => {
    const db = await getDb();
    await chainFollowed("BITCOIN");
    // A key of its own: the address counter belongs to the key.
    const key = HDKey.fromMasterSeed(randomBytes(32)).derive("m/84'/0'/0'").publicExtendedKey;
    const b = await newBusiness({ mode: "live", extendedPublicKeys: { BITCOIN: key } });
    const first = await createPayment(b);
    const second = await createPayment(b);
    await selectCoin(db, first.id, "BITCOIN");
    await selectCoin(db, second.id, "BITCOIN");
    const a1 = (await checkoutView(db, first.id))!.charge!.address;
    const a2 = (await checkoutView(db, second.id))!.charge!.address;
    expect(a1).toBe(deriveAddressForCoin("BITCOIN", key, 0));
    expect(a2).toBe(deriveAddressForCoin("BITCOIN", key, 1));

    // Another business given the same key (a sub-business, say) goes on from the same counter.
    const sibling = await newBusiness({ mode: "live", extendedPublicKeys: { BITCOIN: key } });
    const third = await createPayment(sibling);
    await selectCoin(db, third.id, "BITCOIN");
    expect((await checkoutView(db, third.id))!.charge!.address).toBe(deriveAddressForCoin("BITCOIN", key, 2));
  });

  it("offer only coins whose family has a key; none at all → 400 at create", async () => {
    const db = await getDb();
    await chainFollowed("ETHEREUM");
    const b = await newBusiness({
      mode: "live",
      extendedPublicKeys: { ETHEREUM: TEST_EXTENDED_PUBLIC_KEYS.ETHEREUM },
      enabledCoins: ["BITCOIN", "ETHEREUM", "CONTRACT_ERC20_USDT", "TRON", "CONTRACT_TRC20_USDT"],
    });
    const { id } = await createPayment(b);
    const coins = (await checkoutView(db, id))!.coins.map((c) => c.coin);
    expect(coins).toContain("ETHEREUM");
    expect(coins).toContain("CONTRACT_ERC20_USDT");
    expect(coins).not.toContain("BITCOIN");
    expect(coins).not.toContain("TRON");
    expect(coins).not.toContain("CONTRACT_TRC20_USDT");
    // The wallet link names the chain the node serves (mainnet here) and the token's contract there.
    await selectCoin(db, id, "CONTRACT_ERC20_USDT");
    const charge = (await checkoutView(db, id))!.charge!;
    expect(charge.uri).toBe(`ethereum:0xdAC17F958D2ee523a2206206994597C13D831ec7@1/transfer?address=${charge.address}&uint256=${toBaseUnits("CONTRACT_ERC20_USDT", charge.amount)}`);

    const bare = await newBusiness({ mode: "live", extendedPublicKeys: {} });
    const res = await request("POST", paymentsPath(bare.businessId), { key: bare.apiKey, body: { currency: "USD", amount: 5 } });
    expect(res.status).toBe(400);
    expect((await json(res)).errors.paymentMethods).toBeDefined();
  });

  it("offer a coin only while its chain is healthy: configured but never followed, it cannot be chosen", async () => {
    const db = await getDb();
    // BITCOIN_CASH_RPC_URL is configured (test/setup.ts) but no node answers there: the payment is made, no coin is offered.
    const b = await newBusiness({ mode: "live", extendedPublicKeys: { BITCOIN_CASH: TEST_EXTENDED_PUBLIC_KEYS.BITCOIN_CASH }, enabledCoins: ["BITCOIN_CASH"] });
    const { id } = await createPayment(b);
    expect((await checkoutView(db, id))!.coins).toEqual([]);
    await expect(selectCoin(db, id, "BITCOIN_CASH")).rejects.toMatchObject({ status: 400 });
  });

  it("show money received after expiry on the checkout and in the record, without changing the status", async () => {
    const db = await getDb();
    await chainFollowed("BITCOIN");
    const b = await newBusiness({ mode: "live", extendedPublicKeys: { BITCOIN: TEST_EXTENDED_PUBLIC_KEYS.BITCOIN } });
    const { id } = await createPayment(b);
    await selectCoin(db, id, "BITCOIN");
    await expireDuePayments(db, new Date(Date.now() + 2 * 3_600_000));
    const view = (await checkoutView(db, id))!;
    expect(view.status).toBe("EXPIRED");
    // As the watcher records money to a closed payment's address within LATE_PAYMENT_WINDOW.
    await recordChainTransfer(db, {
      paymentId: id,
      txId: `${"ab".repeat(32)}:0`,
      amount: 12_345n,
      toAddress: view.charge!.address,
      blockNumber: 800_000,
      blockHash: "00".repeat(32),
      confirmations: 1,
      late: true,
      at: new Date(),
    });
    const after = (await checkoutView(db, id))!;
    expect(after).toMatchObject({ status: "EXPIRED", charge: { late: "0.00012345", paid: "0", transfers: 0 } });
    const record = (await json(await request("GET", `${paymentsPath(b.businessId)}/${id}`, { key: b.apiKey }))).data;
    expect(record.status).toBe("EXPIRED");
    expect(record.platformCryptoCharge.transactions).toEqual([expect.objectContaining({ amount: 0.00012345, blockNumber: "800000", confirmations: 1 })]);
  });

  it("the admin API validates keys per family and reports them in the settings", async () => {
    const bad = await request("POST", "/admin/v1/businesses", {
      key: adminToken(),
      body: { name: "Live", mode: "live", extendedPublicKeys: { BITCOIN: TEST_EXTENDED_PUBLIC_KEYS.ETHEREUM.slice(0, 50) } },
    });
    expect(bad.status).toBe(400);
    expect((await json(bad)).errors["extendedPublicKeys.BITCOIN"]).toBeDefined();
    const unknownFamily = await request("POST", "/admin/v1/businesses", {
      key: adminToken(),
      body: { name: "Live", mode: "live", extendedPublicKeys: { SOLANA: "x" } },
    });
    expect(unknownFamily.status).toBe(400);

    const ok = await request("POST", "/admin/v1/businesses", {
      key: adminToken(),
      body: { name: "Live", mode: "live", extendedPublicKeys: { TRON: TEST_EXTENDED_PUBLIC_KEYS.TRON } },
    });
    expect(ok.status).toBe(201);
    const created = (await json(ok)).data;
    expect(created.extendedPublicKeys).toEqual({ TRON: TEST_EXTENDED_PUBLIC_KEYS.TRON });
    const patched = await request("PATCH", `/admin/v1/businesses/${created.businessId}`, {
      key: adminToken(),
      body: { extendedPublicKeys: { TRON: "", ETHEREUM: TEST_EXTENDED_PUBLIC_KEYS.ETHEREUM } },
    });
    expect((await json(patched)).data.extendedPublicKeys).toEqual({ ETHEREUM: TEST_EXTENDED_PUBLIC_KEYS.ETHEREUM });
  });
});
