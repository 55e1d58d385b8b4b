import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { deriveAddressForCoin, TEST_EXTENDED_PUBLIC_KEYS } from "@/lib/chains/derive";
import { selectCoin } from "@/lib/checkout/select";
import { checkoutView } from "@/lib/checkout/view";
import { adminToken, createPayment, json, newBusiness, paymentsPath, request } from "../helpers";

describe("deposit addresses of live businesses", () => {
  it("derive from the business's own extended public keys, a fresh index per charge", async () => {
    const db = await getDb();
    const b = await newBusiness({ mode: "live", extendedPublicKeys: { BITCOIN: TEST_EXTENDED_PUBLIC_KEYS.BITCOIN } });
    const first = await createPayment(b);
    const second = await createPayment(b);
    await selectCoin(db, first.id, "BITCOIN");
    await selectCoin(db, second.id, "BITCOIN");
    const a1 = (await checkoutView(db, first.id))!.charge!.address;
    const a2 = (await checkoutView(db, second.id))!.charge!.address;
    expect(a1).toBe(deriveAddressForCoin("BITCOIN", TEST_EXTENDED_PUBLIC_KEYS.BITCOIN, 0));
    expect(a2).toBe(deriveAddressForCoin("BITCOIN", TEST_EXTENDED_PUBLIC_KEYS.BITCOIN, 1));
  });

  it("offer only coins whose family has a key; none at all → 400 at create", async () => {
    const db = await getDb();
    const b = await newBusiness({ mode: "live", extendedPublicKeys: { ETHEREUM: TEST_EXTENDED_PUBLIC_KEYS.ETHEREUM } });
    const { id } = await createPayment(b);
    const coins = (await checkoutView(db, id))!.coins.map((c) => c.coin);
    expect(coins).toContain("ETHEREUM");
    expect(coins).toContain("CONTRACT_ERC20_USDT");
    expect(coins).not.toContain("BITCOIN");
    expect(coins).not.toContain("TRON");

    const bare = await newBusiness({ mode: "live", extendedPublicKeys: {} });
    const res = await request("POST", paymentsPath(bare.businessId), { key: bare.apiKey, body: { currency: "USD", amount: 5 } });
    expect(res.status).toBe(400);
    expect((await json(res)).errors.paymentMethods).toBeDefined();
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
      body: { extendedPublicKeys: { TRON: "", LITECOIN: TEST_EXTENDED_PUBLIC_KEYS.LITECOIN } },
    });
    expect((await json(patched)).data.extendedPublicKeys).toEqual({ LITECOIN: TEST_EXTENDED_PUBLIC_KEYS.LITECOIN });
  });
});
