import { secp256k1 } from "@noble/curves/secp256k1.js";
import { ripemd160 } from "@noble/hashes/legacy.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, concatBytes, hexToBytes, randomBytes } from "@noble/hashes/utils.js";
import { bech32 } from "@scure/base";
import { toBaseUnits } from "@/domain/amounts";
import type { VerboseTx } from "@/lib/chains/bitcoin/scan";
import { startLitecoind, type Litecoind } from "../../test/chains/nodes/litecoind";

/**
 * A Litecoin Core regtest node (the tests' `startLitecoind`) made ready for the chain-watcher
 * bench: past MWEB's activation (height 432, which a block crosses only with a peg-in in the
 * mempool, docs: /work/shared/reference/chain-watchers.md), and with a pool of keys of its own,
 * each holding one output, that pay random addresses or watched charges in transactions signed
 * here (segwit v0, BIP 143) and sent in batches: the wallet's `sendtoaddress` took ~330 ms per
 * transaction on this machine (a legacy BDB wallet writing itself to disk), too slow to fill
 * 1 000 blocks.
 */

const FEE = 10_000n; // 0.0001 LTC for a 1-in, 2-out P2WPKH transaction (~141 vB): far above the relay minimum
const SEQUENCE = 0xfffffffd;

type Utxo = { txid: string; vout: number; units: bigint };
type Key = { sk: Uint8Array; pub: Uint8Array; pkh: Uint8Array; address: string; utxo: Utxo };

export type Output = { address: string; units: bigint };

const dsha = (b: Uint8Array) => sha256(sha256(b));
const u32 = (n: number) => {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setUint32(0, n, true);
  return b;
};
const u64 = (n: bigint) => {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigUint64(0, n, true);
  return b;
};
const varint = (n: number) => (n < 0xfd ? Uint8Array.of(n) : concatBytes(Uint8Array.of(0xfd), u32(n).slice(0, 2)));
const withLength = (b: Uint8Array) => concatBytes(varint(b.length), b);
const reversed = (b: Uint8Array) => Uint8Array.from(b).reverse();
const p2wpkh = (pkh: Uint8Array) => concatBytes(Uint8Array.of(0x00, 0x14), pkh);

/** A random regtest segwit v0 key-hash address (`rltc1q…`): nobody's. */
export function randomLitecoinAddress(): string {
  return bech32.encode("rltc", [0, ...bech32.toWords(randomBytes(20))]);
}

function scriptOf(address: string): Uint8Array {
  const { words } = bech32.decode(address as `${string}1${string}`);
  return p2wpkh(bech32.fromWords(words.slice(1)));
}

function newKey(): Omit<Key, "utxo"> {
  const sk = secp256k1.utils.randomSecretKey();
  const pub = secp256k1.getPublicKey(sk, true);
  const pkh = ripemd160(sha256(pub));
  return { sk, pub, pkh, address: bech32.encode("rltc", [0, ...bech32.toWords(pkh)]) };
}

/** One input (the key's output) paying `out` and the change back to the key: its raw hex and txid. */
function signedPayment(key: Key, out: Output): { hex: string; txid: string; change: bigint } {
  const change = key.utxo.units - out.units - FEE;
  if (change < 1_000n) throw new Error(`key ${key.address} has too little left (${key.utxo.units} units)`);
  const outpoint = concatBytes(reversed(hexToBytes(key.utxo.txid)), u32(key.utxo.vout));
  const outputs = concatBytes(u64(out.units), withLength(scriptOf(out.address)), u64(change), withLength(p2wpkh(key.pkh)));
  const preimage = concatBytes(
    u32(2),
    dsha(outpoint),
    dsha(u32(SEQUENCE)),
    outpoint,
    withLength(concatBytes(Uint8Array.of(0x76, 0xa9, 0x14), key.pkh, Uint8Array.of(0x88, 0xac))),
    u64(key.utxo.units),
    u32(SEQUENCE),
    dsha(outputs),
    u32(0),
    u32(1), // SIGHASH_ALL
  );
  const sig = concatBytes(secp256k1.sign(dsha(preimage), key.sk, { prehash: false, format: "der" }), Uint8Array.of(1));
  const body = concatBytes(varint(1), outpoint, Uint8Array.of(0), u32(SEQUENCE), varint(2), outputs);
  const hex = bytesToHex(concatBytes(u32(2), Uint8Array.of(0, 1), body, varint(2), withLength(sig), withLength(key.pub), u32(0)));
  const txid = bytesToHex(reversed(dsha(concatBytes(u32(2), body, u32(0)))));
  return { hex, txid, change };
}

export type LitecoinBench = Awaited<ReturnType<typeof startLitecoinBench>>;

export async function startLitecoinBench(o: { keys: number; unitsPerKey: bigint }) {
  const node: Litecoind = await startLitecoind();
  const auth = (() => {
    const u = new URL(node.url);
    return `Basic ${Buffer.from(`${decodeURIComponent(u.username)}:${decodeURIComponent(u.password)}`).toString("base64")}`;
  })();
  const endpoint = node.rpc.endpoint;
  try {
    await node.rpc.call("createwallet", ["miner"]);
    const wallet = node.wallet("miner");
    const miner = await wallet.call<string>("getnewaddress", ["", "bech32"]);
    const mine = async (n: number) => node.rpc.call<string[]>("generatetoaddress", [n, miner]);
    // Mature coins, then MWEB's activation at 432 with a peg-in in the mempool.
    await mine(431);
    await wallet.call("sendtoaddress", [await wallet.call<string>("getnewaddress", ["", "mweb"]), "1"]);
    await mine(2);

    const bare = Array.from({ length: o.keys }, newKey);
    const amount = (Number(o.unitsPerKey) / 1e8).toFixed(8);
    const fund = await wallet.call<string>("sendmany", ["", Object.fromEntries(bare.map((k) => [k.address, amount]))]);
    await mine(1);
    const tx = await node.rpc.call<VerboseTx>("getrawtransaction", [fund, true]);
    const keys: Key[] = bare.map((k) => {
      const script = bytesToHex(p2wpkh(k.pkh));
      const out = tx.vout.find((v) => v.scriptPubKey.hex === script)!;
      return { ...k, utxo: { txid: fund, vout: out.n, units: toBaseUnits("LITECOIN", out.value) } };
    });
    let next = 0;

    /** JSON-RPC batch: many calls in one request; throws on the first error. */
    async function batch(method: string, paramsList: unknown[][]): Promise<unknown[]> {
      const res = await fetch(endpoint, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: auth },
        body: JSON.stringify(paramsList.map((params, id) => ({ jsonrpc: "1.0", id, method, params }))),
      });
      const answers = (await res.json()) as { id: number; result: unknown; error: { message: string } | null }[];
      const bad = answers.find((a) => a.error);
      if (bad) throw new Error(`${method}: ${bad.error!.message}`);
      return answers.sort((a, b) => a.id - b.id).map((a) => a.result);
    }

    return {
      node,
      url: node.url,
      rpc: node.rpc,
      mine,
      /**
       * One transaction per output, each from the next key of the pool (round robin: a key's
       * change is spent again only after the whole pool, by then mined), sent in batches of 500.
       * Returns the txids in order.
       */
      async pay(outputs: Output[]): Promise<string[]> {
        const txids: string[] = [];
        for (let i = 0; i < outputs.length; i += 500) {
          const part = outputs.slice(i, i + 500).map((out) => {
            const key = keys[next++ % keys.length];
            const t = signedPayment(key, out);
            key.utxo = { txid: t.txid, vout: 1, units: t.change };
            txids.push(t.txid);
            return t.hex;
          });
          const sent = await batch("sendrawtransaction", part.map((hex) => [hex]));
          sent.forEach((id, j) => {
            if (id !== txids[i + j]) throw new Error(`txid ${String(id)}, computed ${txids[i + j]}`);
          });
        }
        return txids;
      },
      async version(): Promise<string> {
        return (await node.rpc.call<{ subversion: string }>("getnetworkinfo")).subversion;
      },
      stop: () => node.stop(),
    };
  } catch (err) {
    await node.stop();
    throw err;
  }
}
