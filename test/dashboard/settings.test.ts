import { getBusiness } from "@/lib/businesses/businesses";
import { sha256 } from "@noble/hashes/sha2.js";
import { createBase58check } from "@scure/base";
import { beforeAll, describe, expect, it } from "vitest";
import { deriveAddressForCoin, KEY_FAMILIES, TEST_EXTENDED_PUBLIC_KEYS, type KeyFamily } from "@/lib/wallets/derive";
import { PREVIEW_ADDRESSES, previewAddresses, saveSettings, settingsOf } from "@/lib/dashboard/settings";
import { adminToken, chainFollowed, json, request } from "../helpers";
import { oneChainFileAtATime } from "../serial";
import { rejects, team } from "./support";

/** The Settings section's services: owners only, the admin API's validation, and the address preview before a key is saved. */

// The preview reads the network the LITECOIN node serves from chain_cursors, which this file
// writes (chainFollowed): with a shared PostgreSQL, not while a file follows a real node.
oneChainFileAtATime();

let t: Awaited<ReturnType<typeof team>>;
beforeAll(async () => {
  t = await team();
});

const base58check = createBase58check(sha256);

/** The same account key with another version (`vpub`: the testnet P2WPKH export Litecoin Core makes for regtest). */
function withVersion(key: string, version: number): string {
  const bytes = base58check.decode(key);
  new DataView(bytes.buffer, bytes.byteOffset, 4).setUint32(0, version, false);
  return base58check.encode(bytes);
}

describe("dashboard settings: permissions", () => {
  it("only owners read and change settings or preview addresses; other businesses' users get 404", async () => {
    const key = { family: "BITCOIN", key: TEST_EXTENDED_PUBLIC_KEYS.BITCOIN };
    for (const userId of [t.viewer, t.developer]) {
      await rejects(settingsOf(t.db, userId, t.a.businessId), 403);
      await rejects(previewAddresses(t.db, userId, t.a.businessId, key), 403);
      await rejects(saveSettings(t.db, userId, t.a.businessId, { name: "Taken over" }), 403);
    }
    await rejects(settingsOf(t.db, t.ownerOfB, t.a.businessId), 404);
    await rejects(previewAddresses(t.db, t.ownerOfB, t.a.businessId, key), 404);
    await rejects(saveSettings(t.db, t.ownerOfB, t.a.businessId, { name: "Taken over" }), 404);
    await rejects(saveSettings(t.db, t.owner, t.b.businessId, { name: "Taken over" }), 404);
    const view = await settingsOf(t.db, t.owner, t.a.businessId);
    expect(view).toMatchObject({ businessId: t.a.businessId, mode: "test", paymentLifetimeSeconds: 3600, underpaymentTolerancePercent: 0 });
    expect(JSON.stringify(view)).not.toContain(t.a.webhookSecret);
    expect(await settingsOf(t.db, t.ownerOfB, t.b.businessId)).toMatchObject({ name: expect.not.stringMatching(/Taken over/) });
  });
});

describe("dashboard settings: validation and saving", () => {
  it("answers the admin API schema's field errors, and refuses the settings that stay the operator's", async () => {
    const save = (input: unknown) => saveSettings(t.db, t.owner, t.a.businessId, input);
    await rejects(save({ name: "   " }), 400, ["name"]);
    await rejects(save({ paymentLifetimeSeconds: 1 }), 400, ["paymentLifetimeSeconds"]);
    await rejects(save({ paymentLifetimeSeconds: 60.5 }), 400, ["paymentLifetimeSeconds"]);
    await rejects(save({ underpaymentTolerancePercent: 101 }), 400, ["underpaymentTolerancePercent"]);
    await rejects(save({ enabledCoins: [] }), 400, ["enabledCoins"]);
    await rejects(save({ enabledCoins: ["DOGECOIN"] }), 400, ["enabledCoins[0]"]);
    await rejects(save({ extendedPublicKeys: { BITCOIN: "xpub-not-a-key" } }), 400, ["extendedPublicKeys.BITCOIN"]);
    const e = await rejects(save({ mode: "live", feePercent: 50 }), 400, ["mode", "feePercent"]);
    expect(e.fieldErrors!.mode).toEqual(["unknown field"]);
  });

  it("saves name, lifetime, tolerance and coins, as the admin API then reads them", async () => {
    const saved = await saveSettings(t.db, t.owner, t.a.businessId, {
      name: "  Corner shop  ",
      paymentLifetimeSeconds: 1800,
      underpaymentTolerancePercent: 0.5,
      enabledCoins: ["BITCOIN", "ETHEREUM", "BITCOIN"],
    });
    expect(saved.name).toBe("Corner shop");
    const admin = (await json(await request("GET", `/admin/v1/businesses/${t.a.businessId}`, { key: adminToken() }))).data;
    expect(admin).toMatchObject({ name: "Corner shop", paymentLifetimeSeconds: 1800, underpaymentTolerancePercent: 0.5, enabledCoins: ["BITCOIN", "ETHEREUM"], feePercent: 0 });
    expect(await settingsOf(t.db, t.owner, t.a.businessId)).toMatchObject({ name: "Corner shop", paymentLifetimeSeconds: 1800 });
  });

  it("saves a changed wallet key only once its addresses were confirmed; unchanged and removed keys need no confirmation", async () => {
    const { BITCOIN, ETHEREUM } = TEST_EXTENDED_PUBLIC_KEYS;
    await rejects(saveSettings(t.db, t.owner, t.a.businessId, { extendedPublicKeys: { BITCOIN } }), 400, ["extendedPublicKeys.BITCOIN"]);
    await rejects(saveSettings(t.db, t.owner, t.a.businessId, { extendedPublicKeys: { BITCOIN } }, ["ETHEREUM"]), 400, ["extendedPublicKeys.BITCOIN"]);
    expect((await saveSettings(t.db, t.owner, t.a.businessId, { extendedPublicKeys: { BITCOIN } }, ["BITCOIN"])).extendedPublicKeys).toEqual({ BITCOIN });
    // The same key again (the form sends every key) and another setting: no confirmation needed.
    await saveSettings(t.db, t.owner, t.a.businessId, { name: "Corner shop 2", extendedPublicKeys: { BITCOIN, ETHEREUM: "" } });
    expect((await saveSettings(t.db, t.owner, t.a.businessId, { extendedPublicKeys: { ETHEREUM } }, ["ETHEREUM"])).extendedPublicKeys).toEqual({ BITCOIN, ETHEREUM });
    expect((await saveSettings(t.db, t.owner, t.a.businessId, { extendedPublicKeys: { BITCOIN: "" } })).extendedPublicKeys).toEqual({ ETHEREUM });
  });

  it("keeps a live business to the live rules (patchBusiness's): every coin is on a watched chain, TON's included", async () => {
    const live = await team({ mode: "live" });
    await saveSettings(live.db, live.owner, live.a.businessId, { enabledCoins: ["BITCOIN", "TON", "TON_TETHER"] });
    expect((await getBusiness(live.db, live.a.businessId)).enabledCoins).toEqual(["BITCOIN", "TON", "TON_TETHER"]);
  });
});

describe("dashboard settings: address preview", () => {
  it("shows the first receiving addresses the checkout would derive, for every family, on the nodes' network", async () => {
    // Nodes on mainnet (another file may have left a regtest node's health behind on a shared database).
    for (const chain of ["BITCOIN", "ETHEREUM", "LITECOIN"] as const) await chainFollowed(chain, { network: "main" });
    for (const family of KEY_FAMILIES) {
      const key = TEST_EXTENDED_PUBLIC_KEYS[family];
      const preview = await previewAddresses(t.db, t.owner, t.a.businessId, { family, key: `  ${key}\n` });
      expect(preview.network).toBe("main");
      expect(preview.addresses).toHaveLength(PREVIEW_ADDRESSES);
      preview.addresses.forEach((a, i) => {
        expect(a).toEqual({ index: i, path: expect.stringMatching(/^m\/\d+'\/\d+'\/0'\/0\/\d$/), address: deriveAddressForCoin(family, key, i, "main") });
      });
    }
    const btc = await previewAddresses(t.db, t.owner, t.a.businessId, { family: "BITCOIN", key: TEST_EXTENDED_PUBLIC_KEYS.BITCOIN });
    // BIP84's published first address of the "abandon … about" mnemonic.
    expect(btc.addresses[0]).toEqual({ index: 0, path: "m/84'/0'/0'/0/0", address: "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu" });
  });

  it("validates the key as saving does: the schema's field error, then the network of the chain's node", async () => {
    const preview = (family: string, key: string) => previewAddresses(t.db, t.owner, t.a.businessId, { family, key });
    await rejects(preview("BITCOIN", ""), 400, ["extendedPublicKeys.BITCOIN"]);
    await rejects(preview("BITCOIN", "zpub123"), 400, ["extendedPublicKeys.BITCOIN"]);
    await rejects(preview("BITCOIN", TEST_EXTENDED_PUBLIC_KEYS.ETHEREUM.replace("xpub", "xprv")), 400, ["extendedPublicKeys.BITCOIN"]);
    await rejects(preview("DOGECOIN", TEST_EXTENDED_PUBLIC_KEYS.BITCOIN), 400, ["family"]);
    // The LITECOIN node of a live business serves regtest: a mainnet key does not fit, its vpub does.
    const live = await team({ mode: "live" });
    await chainFollowed("LITECOIN", { network: "regtest" });
    const mainnet = TEST_EXTENDED_PUBLIC_KEYS.LITECOIN;
    const e = await rejects(previewAddresses(live.db, live.owner, live.a.businessId, { family: "LITECOIN", key: mainnet }), 400, ["extendedPublicKeys.LITECOIN"]);
    expect(e.fieldErrors!["extendedPublicKeys.LITECOIN"][0]).toMatch(/regtest/);
    const vpub = withVersion(mainnet, 0x045f1cf6);
    const regtest = await previewAddresses(live.db, live.owner, live.a.businessId, { family: "LITECOIN" as KeyFamily, key: vpub });
    expect(regtest.network).toBe("regtest");
    expect(regtest.addresses.map((a) => a.address)).toEqual([0, 1, 2, 3, 4].map((i) => deriveAddressForCoin("LITECOIN", vpub, i, "regtest")));
    expect(regtest.addresses[0].address).toMatch(/^rltc1/);
  });

  it("previews a test business's key on the network saving checks it against, so the two agree", async () => {
    await chainFollowed("LITECOIN", { network: "regtest" });
    const mainnet = TEST_EXTENDED_PUBLIC_KEYS.LITECOIN;
    const vpub = withVersion(mainnet, 0x045f1cf6);
    const save = (key: string) => saveSettings(t.db, t.owner, t.a.businessId, { extendedPublicKeys: { LITECOIN: key } }, ["LITECOIN"]);
    await rejects(previewAddresses(t.db, t.owner, t.a.businessId, { family: "LITECOIN", key: mainnet }), 400, ["extendedPublicKeys.LITECOIN"]);
    await rejects(save(mainnet), 400, ["extendedPublicKeys.LITECOIN"]);
    const preview = await previewAddresses(t.db, t.owner, t.a.businessId, { family: "LITECOIN", key: vpub });
    expect(preview.network).toBe("regtest");
    expect(preview.addresses[0].address).toMatch(/^rltc1/);
    expect((await save(vpub)).extendedPublicKeys.LITECOIN).toBe(vpub);
    // A family with no node (TRON) is previewed on the network of the key itself, which saving accepts.
    const tron = await previewAddresses(t.db, t.owner, t.a.businessId, { family: "TRON", key: TEST_EXTENDED_PUBLIC_KEYS.TRON });
    expect(tron.network).toBe("main");
    expect(tron.addresses[0].address).toMatch(/^T/);
  });
});
