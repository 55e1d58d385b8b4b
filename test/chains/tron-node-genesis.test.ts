import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TronWeb } from "tronweb";
import { freePort } from "./nodes/free-port";
import { startTronNode, type TronAccount, type TronNode } from "./nodes/tron-node";

/**
 * The fake TRON node's options for a client in another process (the e2e server and spec): a
 * fixed port, accounts and a TRC-20 contract fixed at genesis, and blocks mined by themselves.
 * Checked over HTTP only, as such a client sees the node.
 */

const PAYER_KEY = "5b1e5f1c3a4e7d2b9c8f6a0e1d2c3b4a59687766554433221100ffeeddccbbaa";
const NILE_USDT = "TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf";
const post = async (node: TronNode, path: string, body: object = {}) =>
  (await fetch(node.url + path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })).json();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("the fake TRON node's genesis state and auto-miner", () => {
  let node: TronNode;
  let port: number;
  const payer: TronAccount = {
    privateKey: PAYER_KEY,
    address: TronWeb.address.fromPrivateKey(PAYER_KEY) as string,
    hex: TronWeb.address.toHex(TronWeb.address.fromPrivateKey(PAYER_KEY) as string).toLowerCase(),
  };
  beforeAll(async () => {
    port = await freePort();
    node = await startTronNode({
      network: "nile",
      port,
      accounts: [{ privateKey: PAYER_KEY, sun: 500_000_000n }],
      tokens: [{ address: NILE_USDT, symbol: "USDT", decimals: 6, name: "Tether USD", balances: { [payer.address]: 1_000_000_000n } }],
      autoMineMs: 100,
    });
  });
  afterAll(async () => node?.stop());

  it("listens on the port given, with the key's account funded and the token at its address", async () => {
    expect(node.url).toBe(`http://127.0.0.1:${port}`);
    expect(await post(node, "/wallet/getaccount", { address: payer.hex })).toMatchObject({ address: payer.hex, balance: 500_000_000 });
    const contract_address = TronWeb.address.toHex(NILE_USDT).toLowerCase();
    const read = (function_selector: string, parameter = "") =>
      post(node, "/wallet/triggerconstantcontract", { owner_address: payer.hex, contract_address, function_selector, parameter });
    expect((await read("decimals()")).constant_result).toEqual([(6).toString(16).padStart(64, "0")]);
    expect((await read("balanceOf(address)", payer.hex.slice(2).padStart(64, "0"))).constant_result).toEqual([(1_000_000_000).toString(16).padStart(64, "0")]);
  });

  it("mines a block every autoMineMs with the pending pool, and stops at stop()", async () => {
    const start = node.head();
    const to = node.newAccount(0n);
    const txid = await node.sendToken(payer, NILE_USDT, to.address, 2_500_000n);
    await sleep(350);
    expect(node.head()).toBeGreaterThanOrEqual(start + 2);
    const info = await post(node, "/wallet/gettransactioninfobyid", { value: txid });
    expect(info.blockNumber).toBeGreaterThan(start);
    expect(info.receipt.result).toBe("SUCCESS");
    expect(info.log).toHaveLength(1);
    expect(node.tokenBalance(NILE_USDT, to.address)).toBe(2_500_000n);

    // Solidified lags head by 18 blocks, as without the auto-miner.
    expect(node.solidified()).toBe(Math.max(0, node.head() - 18));
    await node.stop();
    const stopped = node.head();
    await sleep(300);
    expect(node.head()).toBe(stopped);
  });
});
