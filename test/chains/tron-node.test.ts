import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, hexToBytes } from "@noble/hashes/utils.js";
import { Trx, TronWeb, utils, type Types } from "tronweb";
import { blockIdOf } from "./nodes/tron-node-encoding";
import { startTronNode, type TronAccount, type TronNode } from "./nodes/tron-node";

/**
 * The fake java-tron node the TRON watcher is tested against (nodes/tron-node.ts), checked over
 * real HTTP with plain fetch: the shapes of tronprotocol/documentation-en's pages, java-tron's
 * block ids, and transactions whose ids and signatures tronweb itself accepts.
 */

type Json = Record<string, any>;
async function post(node: TronNode, path: string, body: object = {}, headers: Record<string, string> = {}): Promise<{ status: number; json: any }> {
  const res = await fetch(node.url + path, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : null };
}
const call = async (node: TronNode, path: string, body: object = {}) => (await post(node, path, body)).json;
const text = (hex: string) => new TextDecoder().decode(hexToBytes(hex));
const TRX = 1_000_000n;

describe("the fake TRON node's chain", () => {
  let node: TronNode;
  let alice: TronAccount;
  let bob: TronAccount;
  beforeAll(async () => {
    node = await startTronNode({ network: "nile" });
    alice = node.newAccount();
    bob = node.newAccount(0n);
  });
  afterAll(async () => node?.stop());

  it("computes block ids as java-tron does (the real Nile block of getblock.md)", () => {
    const header = {
      number: 66987565,
      txTrieRoot: "faf8fe3858339ead25cc892461c82a59b84dca4a51c45b026676bf3f45a352a2",
      witness_address: "41b2f713d57dbcec679d93a8849fa0cd0e4db594ba",
      parentHash: "0000000003fe262c85cd6b02033f4c3e5c1efa35de256a17bd906dc61fb1aeed",
      version: 34,
      timestamp: 1777445121000,
    };
    expect(blockIdOf(header)).toBe("0000000003fe262d52bfa4b2814f816fd2e57af5b98a33d60d8630a03a908e0e");
  });

  it("mines a TRX transfer: documented shapes, txID = sha256(raw_data_hex), balances moved", async () => {
    const genesis = await call(node, "/wallet/getblock", { id_or_num: "0" });
    expect(genesis.blockID).toBe("0000000000000000d698d4192c56cb6be724a558448e2684802de4d6cd8690dc");
    expect(genesis.block_header.raw_data.number).toBeUndefined(); // protobuf JSON leaves out a zero field
    expect(await call(node, "/wallet/getaccount", { address: bob.hex })).toEqual({}); // never activated

    const txid = await node.sendTrx(alice, bob.address, 1_500_000n);
    expect((await call(node, "/wallet/gettransactionfrompending", { value: txid })).txID).toBe(txid);
    expect(await call(node, "/wallet/gettransactioninfobyid", { value: txid })).toEqual({});
    const [mined] = await node.mine();
    expect(mined.number).toBe(1);
    expect(await call(node, "/wallet/gettransactionfrompending", { value: txid })).toEqual({});

    const block = await call(node, "/wallet/getblock", { id_or_num: "1", detail: true });
    expect(block.blockID).toBe(mined.blockID);
    expect(block.blockID.slice(0, 16)).toBe("0000000000000001");
    expect(blockIdOf(block.block_header.raw_data)).toBe(block.blockID);
    expect(block.block_header.raw_data.parentHash).toBe(node.genesisId);
    expect(block.block_header.witness_signature).toMatch(/^[0-9a-f]{130}$/);
    const [tx] = block.transactions;
    expect(tx).toMatchObject({ txID: txid, ret: [{ contractRet: "SUCCESS" }] });
    expect(tx.raw_data.contract[0]).toMatchObject({
      type: "TransferContract",
      parameter: { value: { owner_address: alice.hex, to_address: bob.hex, amount: 1_500_000 }, type_url: "type.googleapis.com/protocol.TransferContract" },
    });
    expect(bytesToHex(sha256(hexToBytes(tx.raw_data_hex)))).toBe(txid);
    expect(Trx.ecRecover(tx)).toBe(alice.address);
    expect(await call(node, "/wallet/getblock", { id_or_num: "1" })).not.toHaveProperty("transactions");
    expect(await call(node, "/wallet/getblock", { id_or_num: block.blockID })).toMatchObject({ blockID: block.blockID });
    expect(await call(node, "/wallet/getblock", { id_or_num: "99" })).toEqual({});
    expect(await call(node, "/wallet/gettransactionbyid", { value: txid })).toEqual(tx);

    const info = await call(node, "/wallet/gettransactioninfobyid", { value: txid });
    expect(info).toEqual({ id: txid, fee: 1_100_000, blockNumber: 1, blockTimeStamp: block.block_header.raw_data.timestamp, contractResult: [""], receipt: { net_fee: 100_000 } });
    expect(await call(node, "/wallet/gettransactioninfobyblocknum", { num: 1 })).toEqual([info]);
    expect(await call(node, "/wallet/gettransactioninfobyblocknum", { num: 0 })).toEqual({});
    expect(await call(node, "/wallet/getaccount", { address: bob.hex })).toEqual({ address: bob.hex, balance: 1_500_000, create_time: block.block_header.raw_data.timestamp });
    expect(node.trxBalance(alice.address)).toBe(10_000n * TRX - 1_500_000n - 1_100_000n);
    expect(node.trxBalance(bob.hex)).toBe(1_500_000n);

    expect((await call(node, "/wallet/getnowblock")).blockID).toBe(block.blockID);
    expect((await call(node, "/walletsolidity/getnowblock")).blockID).toBe(node.genesisId); // 18 blocks behind
    expect(await call(node, "/walletsolidity/getblock", { id_or_num: "1" })).toEqual({});
  });

  it("refuses what java-tron refuses: too little TRX, a duplicate, a forged or altered signature, an expired or foreign ref block", async () => {
    await expect(node.sendTrx(bob, alice.address, 2n * TRX)).rejects.toThrow(
      "CONTRACT_VALIDATE_ERROR: Contract validate error : Validate TransferContract error, balance is not sufficient.",
    );
    // A client builds on the node's head as tronweb does, and signs offline.
    const head = await call(node, "/wallet/getnowblock");
    const raw = head.block_header.raw_data;
    const ref = { ref_block_bytes: raw.number.toString(16).padStart(4, "0").slice(-4), ref_block_hash: head.blockID.slice(16, 32), expiration: raw.timestamp + 60_000, timestamp: raw.timestamp };
    const tronWeb = new TronWeb({ fullHost: "http://127.0.0.1:9" });
    const build = async (blockHeader: typeof ref) => tronWeb.transactionBuilder.sendTrx(bob.address, 1_000, alice.address, { blockHeader });
    const mallory = node.newAccount();
    const broadcast = (tx: object) => call(node, "/wallet/broadcasttransaction", tx);

    const forged = utils.crypto.signTransaction(mallory.privateKey, await build(ref));
    expect(await broadcast(forged)).toMatchObject({ result: false, code: "SIGERROR", txid: forged.txID });
    const altered: Types.SignedTransaction = utils.crypto.signTransaction(alice.privateKey, await build(ref));
    (altered.raw_data.contract[0].parameter.value as { amount: number }).amount = 2_000;
    expect((await broadcast(altered)).code).toBe("SIGERROR");
    // java-tron hashes raw_data itself: without the hex and id, the altered amount fails on its signature.
    expect((await broadcast({ raw_data: altered.raw_data, signature: altered.signature })).code).toBe("SIGERROR");
    const expired = utils.crypto.signTransaction(alice.privateKey, await build({ ...ref, expiration: raw.timestamp }));
    expect((await broadcast(expired)).code).toBe("TRANSACTION_EXPIRATION_ERROR");
    const foreign = utils.crypto.signTransaction(alice.privateKey, await build({ ...ref, ref_block_hash: "00".repeat(8) }));
    expect((await broadcast(foreign)).code).toBe("TAPOS_ERROR");

    const good = utils.crypto.signTransaction(alice.privateKey, await build(ref));
    expect(await broadcast(good)).toEqual({ result: true, code: "SUCCESS", txid: good.txID });
    const bare = utils.crypto.signTransaction(alice.privateKey, await build({ ...ref, timestamp: ref.timestamp + 1 }));
    expect(await broadcast({ raw_data: bare.raw_data, signature: bare.signature })).toEqual({ result: true, code: "SUCCESS", txid: bare.txID });
    const dup = await broadcast(good);
    expect(dup).toMatchObject({ result: false, code: "DUP_TRANSACTION_ERROR" });
    expect(text(dup.message)).toBe("Dup transaction.");
  });

  it("runs TRC-20 transfers: the log decodes to (from, to, value) of the contract; reads answer", async () => {
    const usdt = node.deployToken({ symbol: "USDT", decimals: 6, name: "Tether USD" });
    node.mint(usdt.address, alice.address, 100_000_000n);
    const txid = await node.sendToken(alice, usdt.address, bob.address, 12_500_000n);
    const spender = node.newAccount();
    await node.approve(alice, usdt.address, spender.address, 5n);
    const pulled = await node.sendToken(alice, usdt.address, bob.address, 5n, { spender });
    const [{ number }] = await node.mine();

    const info = await call(node, "/wallet/gettransactioninfobyid", { value: txid });
    expect(info).toMatchObject({ blockNumber: number, contract_address: usdt.hex, receipt: { result: "SUCCESS", energy_usage_total: expect.any(Number), net_fee: 345_000 } });
    expect(info).not.toHaveProperty("result");
    const [log] = info.log;
    expect(TronWeb.address.fromHex(`41${log.address}`)).toBe(usdt.address);
    expect(log.topics[0]).toBe("ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef");
    expect(TronWeb.address.fromHex(`41${log.topics[1].slice(24)}`)).toBe(alice.address);
    expect(TronWeb.address.fromHex(`41${log.topics[2].slice(24)}`)).toBe(bob.address);
    expect(BigInt(`0x${log.data}`)).toBe(12_500_000n);
    const byBlock: Json[] = await call(node, "/wallet/gettransactioninfobyblocknum", { num: number });
    const pulledLog = byBlock.find((i) => i.id === pulled)!.log[0];
    expect([pulledLog.topics[1].slice(24), pulledLog.topics[2].slice(24), BigInt(`0x${pulledLog.data}`)]).toEqual([alice.hex.slice(2), bob.hex.slice(2), 5n]);
    expect(node.tokenBalance(usdt.address, bob.address)).toBe(12_500_005n);
    expect(node.tokenBalance(usdt.hex, alice.hex)).toBe(87_499_995n);

    const read = (function_selector: string, parameter = "", contract_address = usdt.hex) =>
      call(node, "/wallet/triggerconstantcontract", { owner_address: `41${"0".repeat(40)}`, contract_address, function_selector, parameter });
    expect(await read("balanceOf(address)", bob.hex.slice(2).padStart(64, "0"))).toMatchObject({ result: { result: true }, constant_result: [(12_500_005).toString(16).padStart(64, "0")] });
    expect(BigInt(`0x${(await read("decimals()")).constant_result[0]}`)).toBe(6n);
    expect(text((await read("symbol()")).constant_result[0].slice(128, 134))).toBe("USD");
    const none = await read("decimals()", "", bob.hex);
    expect(none.result.code).toBe("CONTRACT_VALIDATE_ERROR");
    expect(text(none.result.message)).toBe("Smart contract is not exist.");
  });

  it("includes a reverting token transfer with REVERT, FAILED and no log", async () => {
    const usdt = node.deployToken({ symbol: "USDT", decimals: 6 });
    const carol = node.newAccount();
    const txid = await node.sendToken(carol, usdt.address, alice.address, 1n); // carol holds none
    const stray = await node.sendToken(carol, bob.address, alice.address, 1n); // no contract there
    const [{ number }] = await node.mine();
    const block = await call(node, "/wallet/getblock", { id_or_num: String(number), detail: true });
    expect(block.transactions.map((t: Json) => t.ret[0].contractRet)).toEqual(["REVERT", "REVERT"]);
    for (const id of [txid, stray]) {
      const info = await call(node, "/wallet/gettransactioninfobyid", { value: id });
      expect(info).toMatchObject({ result: "FAILED", receipt: { result: "REVERT" } });
      expect(info).not.toHaveProperty("log");
      expect(text(info.resMessage)).toBe("REVERT opcode executed");
    }
    expect(node.tokenBalance(usdt.address, alice.address)).toBe(0n);
  });

  it("fills blocks with genuine transfers for benchmarks", async () => {
    const usdt = node.deployToken({ symbol: "USDT", decimals: 6 });
    const before = node.head();
    await node.mineBusy(2, { trx: 3, token: { contract: usdt.address, count: 2 } });
    expect(node.head()).toBe(before + 2);
    const block = await call(node, "/wallet/getblock", { id_or_num: String(before + 2), detail: true });
    expect(block.transactions).toHaveLength(5);
    for (const tx of block.transactions) {
      expect(tx.ret[0].contractRet).toBe("SUCCESS");
      expect(utils.transaction.txCheck(tx)).toBe(true);
      expect(TronWeb.address.toHex(Trx.ecRecover(tx) as string).toLowerCase()).toBe(tx.raw_data.contract[0].parameter.value.owner_address);
    }
    expect((await call(node, "/wallet/gettransactioninfobyblocknum", { num: before + 2 })).filter((i: Json) => i.log).length).toBe(2);
  });
});

describe("the fake TRON node's reorgs and solidity view", () => {
  it("changes the ids above the solidified block, returns their transactions to the pool, and refuses to reorg below it", async () => {
    const node = await startTronNode();
    try {
      node.solidLag = 3;
      const [alice, bob] = [node.newAccount(), node.newAccount()];
      await node.mine(4);
      const txid = await node.sendTrx(alice, bob.address, 7n);
      const gone = await node.sendTrx(bob, alice.address, 9n);
      await node.mine(); // head 5, solidified 2
      const ids = async (from: number, to: number) => Promise.all(Array.from({ length: to - from + 1 }, async (_, i) => (await call(node, "/wallet/getblock", { id_or_num: String(from + i) })).blockID));
      const before = await ids(0, 5);
      const balances = [node.trxBalance(alice.hex), node.trxBalance(bob.hex)];

      await node.reorg(3, { extra: 1, drop: [gone] });
      expect(node.head()).toBe(6);
      const after = await ids(0, 6);
      expect(after.slice(0, 3)).toEqual(before.slice(0, 3));
      for (let n = 3; n <= 5; n++) expect(after[n]).not.toBe(before[n]);
      expect((await call(node, "/wallet/getblock", { id_or_num: "3" })).block_header.raw_data.parentHash).toBe(before[2]);
      expect(await call(node, "/wallet/getblock", { id_or_num: before[5] })).toEqual({});
      expect(await call(node, "/wallet/gettransactioninfobyid", { value: txid })).toEqual({});
      expect((await call(node, "/wallet/gettransactionfrompending", { value: txid })).txID).toBe(txid);
      expect(await call(node, "/wallet/gettransactionfrompending", { value: gone })).toEqual({});
      expect(node.trxBalance(alice.hex)).toBe(balances[0] + 7n + 267_000n - 9n);

      const [again] = await node.mine();
      expect((await call(node, "/wallet/gettransactioninfobyid", { value: txid })).blockNumber).toBe(again.number);
      expect(node.solidified()).toBe(4);
      await expect(node.reorg(4)).rejects.toThrow(/solidified 4/);

      node.holdSolidified(1);
      expect((await call(node, "/walletsolidity/getnowblock")).block_header.raw_data.number).toBe(1);
      expect(await call(node, "/walletsolidity/getblock", { id_or_num: "2" })).toEqual({});
      expect(await call(node, "/walletsolidity/gettransactioninfobyblocknum", { num: again.number })).toEqual([]);
      node.holdSolidified(null);
      expect(node.solidified()).toBe(4);
    } finally {
      await node.stop();
    }
  });
});

describe("the fake TRON node's HTTP behaviour", () => {
  it("answers 401 without the API key it was started with, 503 when down and 404 off the API; it records every key", async () => {
    const node = await startTronNode({ apiKey: "test-key", network: "mainnet" });
    try {
      expect((await post(node, "/wallet/getnowblock")).status).toBe(401);
      expect((await post(node, "/wallet/getnowblock", {}, { "TRON-PRO-API-KEY": "wrong" })).status).toBe(401);
      const ok = await post(node, "/wallet/getnowblock", {}, { "TRON-PRO-API-KEY": "test-key" });
      expect(ok).toMatchObject({ status: 200, json: { blockID: "00000000000000001ebf88508a03865c71d452e25f4d51194196a1d22b6653dc" } });
      expect((await post(node, "/wallet/nosuchthing", {}, { "TRON-PRO-API-KEY": "test-key" })).status).toBe(404);
      node.setDown(true);
      expect((await post(node, "/wallet/getnowblock", {}, { "TRON-PRO-API-KEY": "test-key" })).status).toBe(503);
      node.setDown(false);
      expect(node.requests.map((r) => r.apiKey)).toEqual([null, "wrong", "test-key", "test-key", "test-key"]);
      expect(node.requests[0].path).toBe("/wallet/getnowblock");
    } finally {
      await node.stop();
    }
  });
});
