import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { inArray } from "drizzle-orm";
import { listChainCursors } from "@/db/queries/chain-cursors";
import { findCharge } from "@/db/queries/charges";
import { chainCursors } from "@/db/schema";
import { loadConfig } from "@/lib/config";
import { CHAIN_POLL_MS, followConfiguredChains } from "@/lib/chains/follow";
import { chainsHealth, TICK_STALE_MS } from "@/lib/chains/health";
import { deriveAddressForCoin, TEST_EXTENDED_PUBLIC_KEYS } from "@/lib/wallets/derive";
import { selectCoin } from "@/lib/checkout/select";
import { checkoutView } from "@/lib/checkout/view";
import { adminToken, createPayment, json, newBusiness, request } from "../helpers";
import { oneChainFileAtATime } from "../serial";
import { LITECOIN_REGTEST_TPUB, litecoindInstalled, startLitecoind, type Litecoind } from "./nodes/litecoind";
import { reconcilePayment } from "@/lib/payments/reconcile";

oneChainFileAtATime();

const run = litecoindInstalled() || process.env.CI === "true";

describe("configuration of the chains' nodes", () => {
  it("reads each RPC URL and the late-payment window, and names a wrong one", () => {
    const cfg = loadConfig({ DATA_DIR: ":memory:", LITECOIN_RPC_URL: "http://u:p@127.0.0.1:9332/", LATE_PAYMENT_WINDOW: "12h" } as unknown as NodeJS.ProcessEnv);
    expect(cfg.chains).toEqual({ rpcUrls: { LITECOIN: "http://u:p@127.0.0.1:9332/" }, tokenContracts: {}, tron: { tokenContracts: {}, apiKey: undefined }, solana: { tokenMints: {} }, ton: { jettonMasters: {}, apiKey: undefined }, monero: { walletRpcUrl: undefined }, latePaymentWindowMs: 12 * 3_600_000 });
    expect(loadConfig({ DATA_DIR: ":memory:" } as unknown as NodeJS.ProcessEnv).chains).toEqual({ rpcUrls: {}, tokenContracts: {}, tron: { tokenContracts: {}, apiKey: undefined }, solana: { tokenMints: {} }, ton: { jettonMasters: {}, apiKey: undefined }, monero: { walletRpcUrl: undefined }, latePaymentWindowMs: 7 * 86_400_000 });
    expect(() => loadConfig({ DATA_DIR: ":memory:", BITCOIN_RPC_URL: "tcp://x", LATE_PAYMENT_WINDOW: "a week" } as unknown as NodeJS.ProcessEnv)).toThrow(
      /BITCOIN_RPC_URL: must be an http\(s\) URL[\s\S]*LATE_PAYMENT_WINDOW: must be a duration/,
    );
  });
});

describe.runIf(run)("the runner's chain job (Litecoin Core, regtest)", () => {
  let node: Litecoind;
  beforeAll(async () => {
    node = await startLitecoind();
    // The chains' own rows, as on a service's first start (a shared database keeps other files' rows; files take turns).
    await (await getDb()).delete(chainCursors).where(inArray(chainCursors.chain, ["LITECOIN", "BITCOIN_CASH"]));
  }, 60_000);
  afterAll(async () => node?.stop(), 30_000);

  it("follows each configured node at most every CHAIN_POLL_MS, and reports a node that fails without stopping the others", async () => {
    const db = await getDb();
    const chains = { rpcUrls: { LITECOIN: node.url, BITCOIN_CASH: "http://u:p@127.0.0.1:9/" }, tokenContracts: {}, tron: { tokenContracts: {}, apiKey: undefined }, solana: { tokenMints: {} }, latePaymentWindowMs: 86_400_000 };
    const t0 = new Date();
    const [bitcoin, litecoin] = (await followConfiguredChains(db, chains, reconcilePayment, t0)).sort((a, b) => a.chain.localeCompare(b.chain)); // BITCOIN_CASH, LITECOIN
    expect(litecoin).toMatchObject({ chain: "LITECOIN", net: "regtest", lastError: null, lastResult: { followed: true } });
    expect(litecoin.endpoint).not.toContain(":p@");
    expect(bitcoin).toMatchObject({ chain: "BITCOIN_CASH", net: null, lastErrorAt: t0 });
    expect(bitcoin.lastError).toMatch(/did not answer/);
    expect((await listChainCursors(db)).find((c) => c.chain === "LITECOIN")).toMatchObject({ network: "regtest", height: 0 });
    await node.rpc.call("generatetoaddress", [3, "rltc1qjmxnz78nmc8nq77wuxh25n2es7rzm5c23g5xdr"]);
    // Within the interval: not asked again.
    await followConfiguredChains(db, chains, reconcilePayment, new Date(t0.getTime() + CHAIN_POLL_MS - 1));
    expect((await listChainCursors(db)).find((c) => c.chain === "LITECOIN")!.height).toBe(0);
    const later = await followConfiguredChains(db, chains, reconcilePayment, new Date(t0.getTime() + CHAIN_POLL_MS));
    expect(later.find((s) => s.chain === "LITECOIN")!.lastResult).toMatchObject({ from: 1, to: 3 });

    // What every instance reads: the litecoin node healthy with its coin offered, the bitcoin one failing.
    const health = await chainsHealth(db, new Date(t0.getTime() + CHAIN_POLL_MS), chains.rpcUrls);
    expect(health.find((h) => h.chain === "LITECOIN")).toMatchObject({ state: "healthy", network: "regtest", tip: 3, cursor: 3, lag: 0, coins: ["LITECOIN"] });
    expect(health.find((h) => h.chain === "BITCOIN_CASH")).toMatchObject({ state: "failing", coins: [], lastErrorAt: new Date(t0.getTime() + CHAIN_POLL_MS) });
    expect(health.find((h) => h.chain === "BITCOIN_CASH")!.lastError).toMatch(/did not answer/);
    expect(health.find((h) => h.chain === "ETHEREUM")).toMatchObject({ state: "not configured", configured: false });
    // A minute without a tick: no longer offered.
    const silent = await chainsHealth(db, new Date(t0.getTime() + CHAIN_POLL_MS + TICK_STALE_MS + 1_000), chains.rpcUrls);
    expect(silent.find((h) => h.chain === "LITECOIN")).toMatchObject({ state: "failing", coins: [] });
  }, 60_000);

  it("makes live businesses derive for the node's network, refuses keys of another, and reports the chain to the operator", async () => {
    const db = await getDb();
    // The node above serves regtest: a mainnet key is refused, naming the network.
    const bad = await request("POST", "/admin/v1/businesses", {
      key: adminToken(),
      body: { name: "Live", mode: "live", extendedPublicKeys: { LITECOIN: TEST_EXTENDED_PUBLIC_KEYS.LITECOIN } },
    });
    expect(bad.status).toBe(400);
    expect((await json(bad)).errors["extendedPublicKeys.LITECOIN"][0]).toMatch(/mainnet key, but the LITECOIN node serves regtest.*vpub or tpub/);

    const b = await newBusiness({ mode: "live", enabledCoins: ["LITECOIN"], extendedPublicKeys: { LITECOIN: LITECOIN_REGTEST_TPUB } });
    const { id } = await createPayment(b, { currency: "USD", amount: 20 });
    expect((await checkoutView(db, id))!.coins.map((c) => c.coin)).toEqual(["LITECOIN"]);
    await selectCoin(db, id, "LITECOIN");
    const charge = (await checkoutView(db, id))!.charge!;
    expect(charge.address).toBe(deriveAddressForCoin("LITECOIN", LITECOIN_REGTEST_TPUB, (await findCharge(db, id))!.derivationIndex!, "regtest"));
    expect(charge.address).toMatch(/^rltc1q/);
    expect(charge.uri).toBe(`litecoin:${charge.address}?amount=${charge.amount}`);
    // The node itself takes the address: it is of its network.
    expect(await node.rpc.call("validateaddress", [charge.address])).toMatchObject({ isvalid: true });

    const chains = (await json(await request("GET", "/admin/v1/chains", { key: adminToken() }))).data;
    expect(chains.map((c: { chain: string }) => c.chain)).toEqual(["BITCOIN", "LITECOIN", "BITCOIN_CASH", "ETHEREUM", "TRON", "SOLANA", "MONERO", "TON"]);
    expect(chains.find((c: { chain: string }) => c.chain === "LITECOIN")).toMatchObject({
      state: "healthy",
      network: "regtest",
      tip: 3,
      cursor: 3,
      lag: 0,
      coins: ["LITECOIN"],
    });
  }, 60_000);
});
