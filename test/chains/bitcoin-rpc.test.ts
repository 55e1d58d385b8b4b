import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toBaseUnits } from "@/domain/amounts";
import { deriveAddressForCoin } from "@/lib/wallets/derive";
import { BitcoinRpcError, bitcoinRpc, chainNetOf, type DecimalText } from "@/lib/chains/bitcoin/rpc";
import { matchOutputs, scriptPubKeyOf, spentOutpoints, type VerboseTx } from "@/lib/chains/bitcoin/scan";
import { LITECOIN_REGTEST_TPUB as tpub, litecoindInstalled, startLitecoind, type Litecoind } from "./nodes/litecoind";

/**
 * The Bitcoin-family JSON-RPC client against a real Litecoin Core node in regtest. Without
 * litecoind installed the file is skipped, except in CI (`.ci/run` installs it), where that is a
 * failure.
 */
const run = litecoindInstalled() || process.env.CI === "true";

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

describe.runIf(run)("matching a block's outputs against watched addresses (Litecoin Core, regtest)", () => {
  let node: Litecoind;
  beforeAll(async () => {
    node = await startLitecoind();
    await node.rpc.call("createwallet", ["miner"]);
  }, 60_000);
  afterAll(async () => node?.stop(), 30_000);

  it("gives each watched output once, by outpoint and in base units, and only watched ones", async () => {
    const miner = node.wallet("miner");
    await node.rpc.call("generatetoaddress", [101, await miner.call<string>("getnewaddress")]);
    const watchedAddresses = [0, 1, 2].map((i) => deriveAddressForCoin("LITECOIN", tpub, i, "regtest"));
    const watched = new Set(watchedAddresses.map(scriptPubKeyOf));
    // The node's own view of each address's script agrees with ours.
    for (const address of watchedAddresses) {
      const info = await node.rpc.call<{ scriptPubKey: string }>("validateaddress", [address]);
      expect(scriptPubKeyOf(address)).toBe(info.scriptPubKey);
    }
    // One transaction paying two watched addresses and a stranger, and one paying the first again.
    const stranger = await miner.call<string>("getnewaddress");
    const both = await miner.call<string>("sendmany", ["", { [watchedAddresses[0]]: "1.5", [watchedAddresses[1]]: "0.00100001", [stranger]: "2" }]);
    const again = await miner.call<string>("sendtoaddress", [watchedAddresses[0], "0.25"]);
    const mempool = await Promise.all(
      [both, again].map((txid) => node.rpc.call<VerboseTx>("getrawtransaction", [txid, true])),
    );
    expect(matchOutputs(mempool, watched, "LITECOIN")).toHaveLength(3); // seen before any block
    const [hash] = await node.rpc.call<string[]>("generatetoaddress", [1, stranger]);
    const block = await node.rpc.call<{ tx: VerboseTx[] }>("getblock", [hash, 2]);
    const matches = matchOutputs(block.tx, watched, "LITECOIN");
    const byAddress = (i: number) => matches.filter((m) => m.scriptPubKey === scriptPubKeyOf(watchedAddresses[i]));
    expect(byAddress(0).map((m) => m.units).sort((a, b) => (a < b ? -1 : 1))).toEqual([25_000_000n, 150_000_000n]);
    expect(byAddress(1).map((m) => m.units)).toEqual([100_001n]);
    expect(byAddress(2)).toEqual([]);
    expect(new Set(matches.map((m) => m.outpoint)).size).toBe(3);
    for (const m of matches) expect(m.outpoint).toBe(`${m.txid}:${m.vout}`);
    // The block's spends: the inputs of our two payments are among them.
    const spent = spentOutpoints(block.tx);
    for (const tx of mempool) for (const input of tx.vin) expect(spent.has(`${input.txid}:${input.vout}`)).toBe(true);
  }, 60_000);

  it("gives the script of CashAddr and every network's segwit addresses", () => {
    expect(scriptPubKeyOf("bitcoincash:qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6a")).toBe("76a91476a04053bda0a88bda5177b86a15c3b29f55987388ac");
    expect(scriptPubKeyOf("bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4")).toBe("0014751e76e8199196d454941c45d1b3a323f1433bd6");
    expect(() => scriptPubKeyOf("bc1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3qccfmv3")).toThrow(/segwit v0 key-hash/);
  });
});
