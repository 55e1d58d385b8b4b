import { parse as parseLosslessJson } from "lossless-json";
import type { LitecoinBench } from "./litecoin";
import { median } from "./stats";
import type { TronBench } from "./tron";

/**
 * One block's reads split into their parts, apart from any tick: what the node's answer costs
 * and what the client's parsing adds. For the fake TRON node, which serves from the bench's own
 * process, the answer is the node's own cost inside the tick figures.
 */

const r1 = (x: number) => Math.round(x * 10) / 10;

/** The newest Litecoin block read as the client reads it, split into its parts. */
export async function litecoinBlockRead(ltc: LitecoinBench) {
  const u = new URL(ltc.url);
  const auth = `Basic ${Buffer.from(`${decodeURIComponent(u.username)}:${decodeURIComponent(u.password)}`).toString("base64")}`;
  const hash = await ltc.rpc.call<string>("getbestblockhash");
  const t0 = performance.now();
  const res = await fetch(ltc.rpc.endpoint, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: auth },
    body: JSON.stringify({ jsonrpc: "1.0", id: 1, method: "getblock", params: [hash, 2] }),
  });
  const text = await res.text();
  const t1 = performance.now();
  parseLosslessJson(text, null, (s: string) => s);
  const t2 = performance.now();
  JSON.parse(text);
  const t3 = performance.now();
  return { bytes: text.length, fetchMs: r1(t1 - t0), losslessParseMs: r1(t2 - t1), jsonParseMs: r1(t3 - t2) };
}

export type TronBlockRead = { txs: number; blockBytes: number; infosBytes: number; nodeMs: number; clientMs: number };

/**
 * The newest TRON block's two reads (getblock with its transactions, gettransactioninfobyblocknum),
 * median of five: `nodeMs` the node's answers as text (its handling and the HTTP exchange, in this
 * process), `clientMs` the same two through the watcher's client (answers, exact-amount JSON parse
 * and schema validation).
 */
export async function tronBlockRead(tron: TronBench): Promise<TronBlockRead> {
  const { readTronBlock, readTxInfos, tronClient } = await import("@/lib/chains/tron/rpc");
  const client = tronClient(tron.url);
  const height = tron.node.head();
  const text = async (path: string, body: object) => {
    const res = await fetch(`${tron.url}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    return res.text();
  };
  const node: number[] = [];
  const viaClient: number[] = [];
  let sizes = { txs: 0, blockBytes: 0, infosBytes: 0 };
  for (let r = 0; r < 5; r++) {
    const t0 = performance.now();
    const block = await text("/wallet/getblock", { id_or_num: String(height), detail: true });
    const infos = await text("/wallet/gettransactioninfobyblocknum", { num: height });
    const t1 = performance.now();
    const parsed = await readTronBlock(client, height, { detail: true });
    await readTxInfos(client, height);
    node.push(t1 - t0);
    viaClient.push(performance.now() - t1);
    sizes = { txs: parsed.transactions.length, blockBytes: block.length, infosBytes: infos.length };
  }
  return { ...sizes, nodeMs: r1(median(node)), clientMs: r1(median(viaClient)) };
}
