import { generateKeyPairSigner } from "@solana/kit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSolanaNode, type SolanaNode } from "./nodes/solana-node";
import { SolanaWallet } from "./nodes/solana-wallet";

/**
 * The fake Solana node's answers on the wire, held to the fields the RPC documentation gives each
 * method (solana.com/docs/rpc/http/<method> and solana.com/docs/rpc/json-structures): the
 * watcher's client reads what a validator writes, so the fake writes nothing more or less. Read
 * with plain fetch, not @solana/kit, so the JSON itself is checked.
 */

const keys = (o: object) => Object.keys(o).sort();

describe("the fake Solana node's JSON-RPC shapes", () => {
  let node: SolanaNode;
  let sol: string;
  let token: string;
  let failed: string;
  let merchant: string;
  const call = async (method: string, params: unknown[] = []) => {
    const res = await fetch(node.url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 7, method, params }) });
    const body = (await res.json()) as { jsonrpc: string; id: number; result?: any; error?: { code: number; message: string } };
    expect(body.jsonrpc).toBe("2.0");
    expect(body.id).toBe(7);
    return body;
  };

  beforeAll(async () => {
    node = await startSolanaNode();
    const payer = await SolanaWallet.funded(node.url);
    merchant = (await SolanaWallet.funded(node.url, 1_000_000_000n)).address;
    const mint = await payer.createMint(6);
    await payer.mintTo(mint, payer.address, 10n ** 9n);
    sol = await payer.pay({ recipient: merchant, amount: 1_250_000_000n });
    token = await payer.pay({ recipient: merchant, amount: 2_500_000n, splToken: mint }, { createRecipientAccount: true });
    failed = await payer.pay({ recipient: merchant, amount: 10n ** 12n, splToken: mint }, { createRecipientAccount: true });
  });
  afterAll(async () => node?.close());

  it("getSignaturesForAddress (solana.com/docs/rpc/http/getsignaturesforaddress): newest first, before/until exclusive, a failed transaction with its err", async () => {
    const { result } = await call("getSignaturesForAddress", [merchant, { commitment: "finalized", limit: 1000 }]);
    expect(result.map((r: { signature: string }) => r.signature)).toEqual([failed, token, sol]);
    for (const r of result) expect(keys(r)).toEqual(["blockTime", "confirmationStatus", "err", "memo", "signature", "slot"]);
    expect(result[0].err).toEqual({ InstructionError: [1, { Custom: 1 }] }); // the transferChecked, after the account's idempotent creation
    expect(result[1]).toMatchObject({ err: null, memo: null, confirmationStatus: "finalized" });
    expect((await call("getSignaturesForAddress", [merchant, { until: sol }])).result.map((r: { signature: string }) => r.signature)).toEqual([failed, token]);
    expect((await call("getSignaturesForAddress", [merchant, { before: failed, limit: 1 }])).result.map((r: { signature: string }) => r.signature)).toEqual([token]);
  });

  it("getTransaction (solana.com/docs/rpc/http/gettransaction, json encoding): the transaction, its meta with balances before and after, token balances (solana.com/docs/rpc/json-structures)", async () => {
    const { result } = await call("getTransaction", [token, { commitment: "finalized", encoding: "json", maxSupportedTransactionVersion: 0 }]);
    expect(keys(result)).toEqual(["blockTime", "meta", "slot", "transaction", "version"]);
    expect(result.version).toBe(0);
    expect(keys(result.meta)).toEqual(["computeUnitsConsumed", "err", "fee", "innerInstructions", "loadedAddresses", "logMessages", "postBalances", "postTokenBalances", "preBalances", "preTokenBalances", "rewards", "status"]);
    expect(result.meta).toMatchObject({ err: null, status: { Ok: null }, fee: 5000, loadedAddresses: { writable: [], readonly: [] } });
    expect(keys(result.transaction)).toEqual(["message", "signatures"]);
    expect(keys(result.transaction.message)).toEqual(["accountKeys", "addressTableLookups", "header", "instructions", "recentBlockhash"]);
    expect(keys(result.transaction.message.header)).toEqual(["numReadonlySignedAccounts", "numReadonlyUnsignedAccounts", "numRequiredSignatures"]);
    for (const ix of result.transaction.message.instructions) expect(keys(ix)).toEqual(["accounts", "data", "programIdIndex", "stackHeight"]);
    expect(result.meta.preBalances).toHaveLength(result.transaction.message.accountKeys.length);
    const post = result.meta.postTokenBalances.find((b: { owner: string }) => b.owner === merchant);
    expect(keys(post)).toEqual(["accountIndex", "mint", "owner", "programId", "uiTokenAmount"]);
    expect(keys(post.uiTokenAmount)).toEqual(["amount", "decimals", "uiAmount", "uiAmountString"]);
    expect(post.uiTokenAmount).toEqual({ amount: "2500000", decimals: 6, uiAmount: 2.5, uiAmountString: "2.5" });
    // The merchant's token account was made by this transaction: no entry before.
    expect(result.meta.preTokenBalances.find((b: { owner: string }) => b.owner === merchant)).toBeUndefined();
    const lamports = await call("getTransaction", [sol, { encoding: "json", maxSupportedTransactionVersion: 0 }]);
    const i = lamports.result.transaction.message.accountKeys.indexOf(merchant);
    expect(lamports.result.meta.postBalances[i] - lamports.result.meta.preBalances[i]).toBe(1_250_000_000);
    // Without maxSupportedTransactionVersion a versioned transaction is an error, as a validator answers.
    expect((await call("getTransaction", [token, { encoding: "json" }])).error?.code).toBe(-32015);
    expect((await call("getTransaction", ["1".repeat(64), { encoding: "json", maxSupportedTransactionVersion: 0 }])).result).toBeNull();
  });

  it("getBlock, getSlot, getLatestBlockhash, getBalance, getAccountInfo, getGenesisHash in their documented shapes; a slot with no block is -32009", async () => {
    const slot = (await call("getSlot", [{ commitment: "finalized" }])).result;
    expect(Number.isInteger(slot)).toBe(true);
    const block = (await call("getBlock", [slot, { encoding: "json", transactionDetails: "full", maxSupportedTransactionVersion: 0, rewards: false }])).result;
    expect(keys(block)).toEqual(["blockHeight", "blockTime", "blockhash", "parentSlot", "previousBlockhash", "rewards", "transactions"]);
    expect(keys(block.transactions[0])).toEqual(["meta", "transaction", "version"]);
    expect(keys((await call("getBlock", [slot, { transactionDetails: "none" }])).result)).toEqual(["blockHeight", "blockTime", "blockhash", "parentSlot", "previousBlockhash"]);
    expect((await call("getBlock", [slot + 100])).error).toEqual({ code: -32009, message: `Slot ${slot + 100} was skipped, or missing in long-term storage` });
    const latest = (await call("getLatestBlockhash")).result;
    expect(keys(latest)).toEqual(["context", "value"]);
    expect(keys(latest.value)).toEqual(["blockhash", "lastValidBlockHeight"]);
    const balance = (await call("getBalance", [merchant])).result;
    expect(keys(balance)).toEqual(["context", "value"]);
    expect(balance.value).toBeGreaterThan(1_000_000_000);
    const info = (await call("getAccountInfo", [merchant, { encoding: "base64" }])).result.value;
    expect(keys(info)).toEqual(["data", "executable", "lamports", "owner", "rentEpoch", "space"]);
    expect(info.owner).toBe("11111111111111111111111111111111");
    expect((await call("getAccountInfo", [(await generateKeyPairSigner()).address, { encoding: "base64" }])).result.value).toBeNull();
    expect(typeof (await call("getGenesisHash")).result).toBe("string");
  });
});
