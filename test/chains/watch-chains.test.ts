import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { listChainCursors } from "@/db/queries/chain-cursors";
import { loadConfig } from "@/lib/config";
import { CHAIN_POLL_MS, followConfiguredChains } from "@/lib/chains/watch/chains";
import { litecoindInstalled, startLitecoind, type Litecoind } from "./nodes/litecoind";

const run = litecoindInstalled() || process.env.CI === "true";

describe("configuration of the chains' nodes", () => {
  it("reads each RPC URL and the late-payment window, and names a wrong one", () => {
    const cfg = loadConfig({ DATA_DIR: ":memory:", LITECOIN_RPC_URL: "http://u:p@127.0.0.1:9332/", LATE_PAYMENT_WINDOW: "12h" } as unknown as NodeJS.ProcessEnv);
    expect(cfg.chains).toEqual({ rpcUrls: { LITECOIN: "http://u:p@127.0.0.1:9332/" }, latePaymentWindowMs: 12 * 3_600_000 });
    expect(loadConfig({ DATA_DIR: ":memory:" } as unknown as NodeJS.ProcessEnv).chains).toEqual({ rpcUrls: {}, latePaymentWindowMs: 7 * 86_400_000 });
    expect(() => loadConfig({ DATA_DIR: ":memory:", BITCOIN_RPC_URL: "tcp://x", LATE_PAYMENT_WINDOW: "a week" } as unknown as NodeJS.ProcessEnv)).toThrow(
      /BITCOIN_RPC_URL: must be an http\(s\) URL[\s\S]*LATE_PAYMENT_WINDOW: must be a duration/,
    );
  });
});

describe.runIf(run)("the runner's chain job (Litecoin Core, regtest)", () => {
  let node: Litecoind;
  beforeAll(async () => {
    node = await startLitecoind();
  }, 60_000);
  afterAll(async () => node?.stop(), 30_000);

  it("follows each configured node at most every CHAIN_POLL_MS, and reports a node that fails without stopping the others", async () => {
    const db = await getDb();
    const chains = { rpcUrls: { LITECOIN: node.url, BITCOIN: "http://u:p@127.0.0.1:9/" }, latePaymentWindowMs: 86_400_000 };
    const t0 = new Date();
    const [bitcoin, litecoin] = (await followConfiguredChains(db, chains, t0)).sort((a, b) => a.chain.localeCompare(b.chain));
    expect(litecoin).toMatchObject({ chain: "LITECOIN", net: "regtest", lastError: null, lastResult: { followed: true } });
    expect(litecoin.endpoint).not.toContain(":p@");
    expect(bitcoin).toMatchObject({ chain: "BITCOIN", net: null, lastErrorAt: t0 });
    expect(bitcoin.lastError).toMatch(/did not answer/);
    expect((await listChainCursors(db)).find((c) => c.chain === "LITECOIN")).toMatchObject({ network: "regtest", height: 0 });
    await node.rpc.call("generatetoaddress", [3, "rltc1qjmxnz78nmc8nq77wuxh25n2es7rzm5c23g5xdr"]);
    // Within the interval: not asked again.
    await followConfiguredChains(db, chains, new Date(t0.getTime() + CHAIN_POLL_MS - 1));
    expect((await listChainCursors(db)).find((c) => c.chain === "LITECOIN")!.height).toBe(0);
    const later = await followConfiguredChains(db, chains, new Date(t0.getTime() + CHAIN_POLL_MS));
    expect(later.find((s) => s.chain === "LITECOIN")!.lastResult).toMatchObject({ from: 1, to: 3 });
  }, 60_000);
});
