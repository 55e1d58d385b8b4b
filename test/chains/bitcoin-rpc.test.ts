import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toBaseUnits } from "@/lib/chains/amounts";
import { TEST_EXTENDED_PUBLIC_KEYS, deriveAddressForCoin } from "@/lib/chains/derive";
import { BitcoinRpcError, bitcoinRpc, chainNetOf, type DecimalText } from "@/lib/chains/rpc/bitcoin-rpc";
import { litecoindInstalled, startLitecoind, type Litecoind } from "./nodes/litecoind";
import { createBase58check } from "@scure/base";
import { sha256 } from "@noble/hashes/sha2.js";

/**
 * The Bitcoin-family JSON-RPC client against a real Litecoin Core node in regtest. Without
 * litecoind installed the file is skipped, except in CI (`.ci/run` installs it), where that is a
 * failure.
 */
const run = litecoindInstalled() || process.env.CI === "true";
const base58check = createBase58check(sha256);
const tpub = (() => {
  const bytes = base58check.decode(TEST_EXTENDED_PUBLIC_KEYS.LITECOIN);
  new DataView(bytes.buffer, bytes.byteOffset, 4).setUint32(0, 0x043587cf, false);
  return base58check.encode(bytes);
})();

describe.runIf(run)("Bitcoin-family JSON-RPC against Litecoin Core (regtest)", () => {
  let node: Litecoind;
  beforeAll(async () => {
    node = await startLitecoind();
  }, 60_000);
  afterAll(async () => node?.stop(), 30_000);

  it("asks the node which network it serves", async () => {
    expect(await chainNetOf(node.rpc)).toBe("regtest");
  });

  it("derives the addresses the node itself derives from the same key", async () => {
    const { descriptor } = await node.rpc.call<{ descriptor: string }>("getdescriptorinfo", [`wpkh(${tpub}/0/*)`]);
    const fromNode = await node.rpc.call<string[]>("deriveaddresses", [descriptor, [0, 9]]);
    const ours = Array.from({ length: 10 }, (_, i) => deriveAddressForCoin("LITECOIN", tpub, i, "regtest"));
    expect(ours).toEqual(fromNode);
  });

  it("reads amounts as the node wrote them, to the last base unit", async () => {
    await node.rpc.call("createwallet", ["miner"]);
    const miner = node.wallet("miner");
    const mine = await miner.call<string>("getnewaddress");
    await node.rpc.call("generatetoaddress", [101, mine]);
    const to = deriveAddressForCoin("LITECOIN", tpub, 7, "regtest");
    // 0.1 + 0.2 style amounts: a double would not hold either sum exactly.
    const txid = await miner.call<string>("sendtoaddress", [to, "0.30000001"]);
    type Out = { value: DecimalText; scriptPubKey: { address?: string; addresses?: string[] } };
    const tx = await node.rpc.call<{ vout: Out[] }>("getrawtransaction", [txid, true]);
    // Litecoin Core 0.21 lists `addresses`; Bitcoin Core 22+ gives one `address`.
    const out = tx.vout.find((o) => (o.scriptPubKey.address ?? o.scriptPubKey.addresses?.[0]) === to);
    expect(out?.value).toBe("0.30000001");
    expect(toBaseUnits("LITECOIN", out!.value)).toBe(30_000_001n);
    const info = await node.rpc.call<{ blocks: number; chain: string }>("getblockchaininfo");
    expect(info.blocks).toBe(101); // whole numbers that a double holds come back as numbers
  }, 60_000);

  it("reports the node's errors with their codes, and refused credentials as such", async () => {
    await expect(node.rpc.call("nosuchmethod")).rejects.toMatchObject({ name: "BitcoinRpcError", code: -32601 });
    await expect(node.rpc.call("getblockhash", [999_999])).rejects.toMatchObject({ code: -8 });
    const wrong = bitcoinRpc(node.url.replace("secret", "wrong"));
    await expect(wrong.call("getblockcount")).rejects.toThrow(/refused the credentials \(HTTP 401\)/);
    expect(wrong.endpoint).not.toContain("wrong"); // credentials stay out of messages and logs
    const nobody = bitcoinRpc("http://u:p@127.0.0.1:9/", { timeoutMs: 1_000 });
    await expect(nobody.call("getblockcount")).rejects.toBeInstanceOf(BitcoinRpcError);
  });
});
