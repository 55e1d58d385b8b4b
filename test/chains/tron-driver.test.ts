import { createServer, type Server } from "node:http";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { getDb, type Db } from "@/db/client";
import { listTransfers } from "@/db/queries/charges";
import type { CoinName } from "@/domain/coins";
import { tronDriver } from "@/lib/chains/tron/driver";
import { reconcilePayment } from "@/lib/payments/reconcile";
import { oneChainFileAtATime } from "../serial";
import { freePort } from "./nodes/free-port";
import { startTronNode, type TronNode } from "./nodes/tron-node";
import { freshTronCursor, tronLivePayment, tronWatcher } from "./tron-live-payment";
import { log } from "@/log/logger.mjs";

/**
 * The TRON driver (lib/chains/tron/driver.ts), as the runner's job uses it, against fake java-tron
 * nodes over HTTP: the network read from the genesis block, the contracts checked by their
 * decimals(), the provider's key sent on every request, and the safety net that asks the node
 * what each open payment's address holds. Its ticks follow the chain's own cursor, "TRON".
 */

const chainFile = oneChainFileAtATime();
const tick = { lateWindowMs: 86_400_000, leaseMs: 30_000, now: () => new Date(), decide: reconcilePayment };

describe("TRON driver: identifying the node", () => {
  const nodes: TronNode[] = [];
  const started = async (o: Parameters<typeof startTronNode>[0]) => {
    const node = await startTronNode(o);
    nodes.push(node);
    return node;
  };
  afterAll(async () => Promise.all(nodes.map((n) => n.stop())));
  afterEach(() => vi.restoreAllMocks());

  it("reads the network from the genesis block: mainnet is main, Nile test, any other regtest; the chain id is the id's last 4 bytes", async () => {
    const mainnet = await started({ network: "mainnet" });
    const nile = await started({ network: "nile" });
    const own = await started({ network: "private" });
    const errors = vi.spyOn(log, "error").mockImplementation(() => {});
    const usdt = mainnet.deployToken({ symbol: "USDT", decimals: 6 });

    // On mainnet the configured USDT replaces the built-in one; the built-in USDC is not on this node, so it is refused.
    const main = await tronDriver(mainnet.url, { tokenContracts: { TRX_TETHER: usdt.address } }).identify();
    expect(main).toMatchObject({ network: "main", chainId: 0x2b6653dc, coins: ["TRON", "CONTRACT_TRC20_TRX", "TRX_TETHER", "CONTRACT_TRC20_USDT"] });
    expect([...main.tokens]).toEqual([[usdt.hex, ["TRX_TETHER", "CONTRACT_TRC20_USDT"]]]);
    expect(errors.mock.calls.map((c) => c[1])).toEqual([
      expect.stringMatching(/TRX_USD_C is not offered: the contract TEkxiTehnzSmSe2XqrBj4w32RUN966rdz8 is refused: its decimals\(\) failed .*Smart contract is not exist/),
      expect.stringMatching(/CONTRACT_TRC20_USDC is not offered/),
    ]);

    expect(await tronDriver(nile.url, { tokenContracts: {} }).identify()).toMatchObject({ network: "test", chainId: 0xcd8690dc, coins: ["TRON", "CONTRACT_TRC20_TRX"] });
    const id = await tronDriver(own.url, { tokenContracts: {} }).identify();
    expect(id).toMatchObject({ network: "regtest", chainId: Number.parseInt(own.genesisId.slice(-8), 16), coins: ["TRON", "CONTRACT_TRC20_TRX"] });
    expect(id.tokens.size).toBe(0);
  });

  it("refuses a configured contract whose decimals() is not the coin's: its coins are not offered", async () => {
    const node = await started({ network: "private" });
    const usdt = node.deployToken({ symbol: "USDT", decimals: 6 });
    const usdc = node.deployToken({ symbol: "USDC", decimals: 18 });
    const errors = vi.spyOn(log, "error").mockImplementation(() => {});
    const id = await tronDriver(node.url, { tokenContracts: { TRX_TETHER: usdt.address, TRX_USD_C: usdc.address } }).identify();
    expect(id.coins).toEqual(["TRON", "CONTRACT_TRC20_TRX", "TRX_TETHER", "CONTRACT_TRC20_USDT"]);
    expect([...id.tokens.keys()]).toEqual([usdt.hex]);
    expect(errors.mock.calls.map((c) => c[1])).toEqual([
      `TRX_USD_C is not offered: the contract ${usdc.address} is refused: it has 18 decimals, TRX_USD_C has 6`,
      `CONTRACT_TRC20_USDC is not offered: the contract ${usdc.address} is refused: it has 18 decimals, CONTRACT_TRC20_USDC has 6`,
    ]);
  });
});

describe("TRON driver: the provider's key and the safety net", () => {
  let node: TronNode;
  let db: Db;
  let usdt: { address: string; hex: string };
  const livePayment = (coin: CoinName) => tronLivePayment(db, coin, (id) => chainFile.retire(id));

  beforeAll(async () => {
    db = await getDb();
    await freshTronCursor(db);
    node = await startTronNode({ apiKey: "provider-key", network: "mainnet" });
    usdt = node.deployToken({ symbol: "USDT", decimals: 6 });
  });
  afterAll(async () => node?.stop());
  // A mainnet node: the built-in USDC contract is not on it, and each identify logs its refusal.
  beforeEach(() => void vi.spyOn(log, "error").mockImplementation(() => {}));
  afterEach(() => vi.restoreAllMocks());

  it("sends TRON-PRO-API-KEY on every request; without it the node answers 401 and identify fails", async () => {
    await expect(tronDriver(node.url, { tokenContracts: {} }).identify()).rejects.toThrow(/HTTP 401/);
    await expect(tronDriver(node.url, { apiKey: "another", tokenContracts: {} }).identify()).rejects.toThrow(/HTTP 401/);

    const from = node.requests.length;
    const driver = tronDriver(node.url, { apiKey: "provider-key", tokenContracts: { TRX_TETHER: usdt.address } });
    const id = await driver.identify();
    expect(id.coins).toContain("TRX_TETHER");
    const p = await livePayment("TRX_TETHER");
    expect(await driver.tick(db, id, { owner: "a", ...tick })).toMatchObject({ followed: true });
    const payer = node.newAccount();
    node.mint(usdt.address, payer.address, p.units);
    await node.sendToken(payer, usdt.address, p.address, p.units);
    await node.mine();
    expect(await driver.tick(db, id, { owner: "a", ...tick })).toMatchObject({ followed: true, transfers: 1 });
    vi.spyOn(log, "info").mockImplementation(() => {});
    expect(await driver.checkOpenAddresses(db, new Date(), reconcilePayment)).toBe(0);

    const made = node.requests.slice(from);
    const paths = new Set(made.map((r) => r.path));
    for (const path of ["/wallet/getblock", "/wallet/getnodeinfo", "/wallet/gettransactioninfobyblocknum", "/wallet/triggerconstantcontract"]) expect(paths).toContain(path);
    expect(made.filter((r) => r.apiKey !== "provider-key")).toEqual([]);
  });

  it("counts and logs each open payment whose address holds more than recorded: money that came while nobody read the blocks", async () => {
    const driver = tronDriver(node.url, { apiKey: "provider-key", tokenContracts: { TRX_TETHER: usdt.address } });
    const id = await driver.identify();
    const payer = node.newAccount();
    node.mint(usdt.address, payer.address, 10n ** 9n);
    const trx = await livePayment("TRON");
    const tether = await livePayment("TRX_TETHER");
    const unpaid = await livePayment("TRON");
    const watched = await livePayment("TRON");
    const open = [trx, tether, unpaid, watched];
    // Paid while no watcher ran; the service then starts for the first time, and its first tick starts at the tip, past them.
    await node.sendTrx(payer, trx.address, trx.units);
    await node.sendToken(payer, usdt.address, tether.address, tether.units - 1n);
    await node.mine();
    await freshTronCursor(db);
    expect(await driver.tick(db, id, { owner: "a", ...tick })).toMatchObject({ followed: true, from: null, to: node.head() });
    await node.sendTrx(payer, watched.address, watched.units);
    await node.mine();
    expect(await driver.tick(db, id, { owner: "a", ...tick })).toMatchObject({ transfers: 1 });
    for (const p of open) expect(await listTransfers(db, p.id)).toHaveLength(p === watched ? 1 : 0);

    const warn = vi.spyOn(log, "warn").mockImplementation(() => {});
    const info = vi.spyOn(log, "info").mockImplementation(() => {});
    expect(await driver.checkOpenAddresses(db, new Date(), reconcilePayment)).toBe(2);
    expect(warn.mock.calls.map((c) => c[1]).sort()).toEqual(
      [
        `payment ${trx.id}: ${trx.address} holds ${trx.units} base units of TRON, 0 recorded`,
        `payment ${tether.id}: ${tether.address} holds ${tether.units - 1n} base units of TRX_TETHER, 0 recorded`,
      ].sort(),
    );
    expect(info.mock.calls.at(-1)?.[1]).toMatch(/checked the \d+ open address\(es\) directly; 2 hold more than recorded/);
  });
});

/**
 * An own java-tron full node's HTTP port as it is (framework/…/FullNodeHttpApiService.java):
 * /wallet/* on node.http.fullNodePort (8090); the /walletsolidity/* twins are another service's,
 * on node.http.solidityPort (8091), so this port answers them 404. Forwards the rest to `node`.
 */
async function fullNodePort(node: TronNode): Promise<{ url: string; server: Server }> {
  const server = createServer(async (req, res) => {
    if (!req.url?.startsWith("/wallet/")) return void res.writeHead(404).end();
    let body = "";
    for await (const chunk of req) body += chunk;
    const answer = await fetch(node.url + req.url, { method: req.method, headers: { "content-type": "application/json" }, body: body || undefined });
    res.writeHead(answer.status, { "content-type": "application/json" }).end(await answer.text());
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${port}`, server };
}

describe("TRON watcher on an own full node's HTTP port (8090: /wallet only)", () => {
  let node: TronNode;
  let port: Awaited<ReturnType<typeof fullNodePort>>;
  beforeAll(async () => {
    node = await startTronNode();
    port = await fullNodePort(node);
  });
  afterAll(async () => {
    port?.server.closeAllConnections();
    port?.server.close();
    await node?.stop();
  });

  it("reads the solidified block through /wallet and completes a payment once its block is solidified", async () => {
    const db = await getDb();
    const w = tronWatcher(db, node, () => new Map(), port.url);
    expect((await fetch(`${port.url}/walletsolidity/getblock`, { method: "POST", body: "{}" })).status).toBe(404);
    const id = await tronDriver(port.url, { tokenContracts: {} }).identify();
    expect(id.network).toBe("regtest");
    const o = await w.started();
    const p = await tronLivePayment(db, "TRON", (b) => chainFile.retire(b));
    await node.sendTrx(node.newAccount(), p.address, p.units);
    await node.mine(18);
    await w.tick(o);
    expect(await w.transfersOf(p.id)).toMatchObject([{ confirmations: 18 }]);
    expect(await w.status(p.id)).toBe("PENDING");
    await node.mine();
    await w.tick(o);
    expect(await w.transfersOf(p.id)).toMatchObject([{ confirmations: 19 }]);
    expect(await w.status(p.id)).toBe("COMPLETED");
  });
});
