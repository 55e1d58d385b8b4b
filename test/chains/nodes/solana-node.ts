import { createHash } from "node:crypto";
import { createServer, type Server } from "node:http";
import { getBase58Decoder, getBase58Encoder, getBase64Encoder, getTransactionDecoder, type Address } from "@solana/kit";
import { SolanaChain, type Block, type RecordedTx } from "./solana-node-chain";

/**
 * A fake Solana node for the tests: the JSON-RPC HTTP API (solana.com/docs/rpc) over the
 * LiteSVM chain of solana-node-chain.ts. Each method names the page whose request and response
 * shapes it follows. Every commitment is answered alike: every block here is finalized as soon as
 * it is made (Alpenglow finalizes in about a second; the tests wait for nothing). `calls` counts
 * the requests by method, for the tests and the bench.
 */

/** Devnet's genesis hash (solana.com/docs/rpc/http/getgenesishash names mainnet's; devnet's is `solana genesis-hash` on devnet). */
export const DEVNET_GENESIS = "EtWTRABZaYq6iMfeYKouRu166VU2xqa1wcaWoxPkrZBG";
/** A genesis hash of no public cluster: a private one, as a local validator's. */
export const PRIVATE_GENESIS = getBase58Decoder().decode(createHash("sha256").update("a private test cluster").digest());

type Params = unknown[];
class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** JSON with bigints written as plain numbers, as the node writes u64s. */
function toJson(value: unknown): string {
  return JSON.stringify(value, (_k, v) => (typeof v === "bigint" ? `__big__${v}` : v)).replace(/"__big__(\d+)"/g, "$1");
}

const cfg = (p: Params, i: number) => (p[i] && typeof p[i] === "object" ? (p[i] as Record<string, unknown>) : {});

/** A transaction as getTransaction / getBlock "full" with encoding json give it (solana.com/docs/rpc/http/gettransaction). */
function txJson(t: RecordedTx) {
  return {
    meta: {
      err: t.err,
      status: t.err === null ? { Ok: null } : { Err: t.err },
      fee: t.fee,
      preBalances: t.preBalances,
      postBalances: t.postBalances,
      innerInstructions: [],
      logMessages: t.logMessages,
      preTokenBalances: t.preTokenBalances,
      postTokenBalances: t.postTokenBalances,
      rewards: [],
      loadedAddresses: { writable: [], readonly: [] },
      computeUnitsConsumed: t.computeUnitsConsumed,
    },
    transaction: { signatures: t.signatures, message: { ...t.message, ...(t.version === 0 && { addressTableLookups: [] }) } },
    version: t.version,
  };
}

function blockOf(chain: SolanaChain, slot: unknown): Block {
  const n = Number(slot);
  const block = Number.isInteger(n) ? chain.blocks[n] : undefined;
  // solana.com/docs/rpc/http/getblock: a slot with no block answers -32009 (skipped, or not in long-term storage).
  if (!block) throw new RpcError(-32009, `Slot ${slot} was skipped, or missing in long-term storage`);
  return block;
}

const methods: Record<string, (chain: SolanaChain, p: Params) => unknown> = {
  // solana.com/docs/rpc/http/getgenesishash
  getGenesisHash: (chain) => chain.genesisHash,
  // solana.com/docs/rpc/http/getslot
  getSlot: (chain) => chain.slot,
  // solana.com/docs/rpc/http/getlatestblockhash: { context, value: { blockhash, lastValidBlockHeight } }
  getLatestBlockhash: (chain) => ({ context: { slot: chain.slot }, value: { blockhash: chain.svm.latestBlockhash(), lastValidBlockHeight: BigInt(chain.slot + 150) } }),
  // solana.com/docs/rpc/http/getbalance: { context, value: lamports }
  getBalance: (chain, p) => ({ context: { slot: chain.slot }, value: BigInt(chain.svm.getBalance(String(p[0]) as Address) ?? 0n) }),
  // solana.com/docs/rpc/http/getaccountinfo (encoding base64): value null for an account that does not exist
  getAccountInfo: (chain, p) => {
    const acc = chain.svm.getAccount(String(p[0]) as Address);
    const value = acc.exists
      ? { data: [Buffer.from(acc.data).toString("base64"), "base64"], executable: acc.executable, lamports: BigInt(acc.lamports), owner: acc.programAddress, rentEpoch: 18446744073709551615n, space: BigInt(acc.data.length) }
      : null;
    return { context: { slot: chain.slot }, value };
  },
  // solana.com/docs/rpc/http/getminimumbalanceforrentexemption: lamports, a number
  getMinimumBalanceForRentExemption: (chain, p) => chain.svm.minimumBalanceForRentExemption(BigInt(p[0] as number)),
  // solana.com/docs/rpc/http/requestairdrop: the signature of the airdrop; here the lamports arrive at once
  requestAirdrop: (chain, p) => {
    chain.airdrop(String(p[0]), BigInt(p[1] as number));
    return "1111111111111111111111111111111111111111111111111111111111111111";
  },
  // solana.com/docs/rpc/http/sendtransaction: the wire transaction, base58 by default or base64; answers its first signature
  sendTransaction: (chain, p) => {
    const encoding = cfg(p, 1).encoding ?? "base58";
    const bytes = encoding === "base64" ? getBase64Encoder().encode(String(p[0])) : getBase58Encoder().encode(String(p[0]));
    try {
      return chain.send(getTransactionDecoder().decode(bytes));
    } catch (e) {
      throw new RpcError(-32002, (e as Error).message);
    }
  },
  // solana.com/docs/rpc/http/getsignaturesforaddress: newest first; before/until exclusive; limit ≤ 1000
  getSignaturesForAddress: (chain, p) => {
    const c = cfg(p, 1);
    let list = chain.signaturesOf(String(p[0]));
    if (typeof c.before === "string") list = list.slice(list.findIndex((t) => t.signature === c.before) + 1);
    if (typeof c.until === "string") {
      const at = list.findIndex((t) => t.signature === c.until);
      if (at >= 0) list = list.slice(0, at);
    }
    const limit = Math.min(Number(c.limit ?? 1000), 1000);
    return list.slice(0, limit).map((t) => ({ signature: t.signature, slot: t.slot, err: t.err, memo: null, blockTime: t.blockTime, confirmationStatus: "finalized" }));
  },
  // solana.com/docs/rpc/http/gettransaction: null when unknown; a versioned transaction needs maxSupportedTransactionVersion
  getTransaction: (chain, p) => {
    const t = chain.bySignature.get(String(p[0]));
    if (!t) return null;
    if (t.version !== "legacy" && cfg(p, 1).maxSupportedTransactionVersion === undefined) {
      throw new RpcError(-32015, "Transaction version (0) is not supported by the requesting client. Please try the request again with the following configuration parameter: \"maxSupportedTransactionVersion\": 0");
    }
    return { slot: t.slot, blockTime: t.blockTime, ...txJson(t) };
  },
  // solana.com/docs/rpc/http/getblock: transactionDetails full (default), signatures or none
  getBlock: (chain, p) => {
    const b = blockOf(chain, p[0]);
    const details = cfg(p, 1).transactionDetails ?? "full";
    const base = { blockhash: b.blockhash, previousBlockhash: chain.blocks[b.parentSlot]?.blockhash ?? b.blockhash, parentSlot: b.parentSlot, blockHeight: BigInt(b.slot), blockTime: b.blockTime };
    if (details === "none") return base;
    if (details === "signatures") return { ...base, signatures: b.txs.map((t) => t.signature) };
    return { ...base, transactions: b.txs.map(txJson), rewards: [] };
  },
};

export type SolanaNode = { chain: SolanaChain; url: string; calls: Map<string, number>; close(): Promise<void> };

/** Starts the fake node on 127.0.0.1 (port 0: any free one); with `slotMs`, an empty slot passes that often, as on a live cluster. */
export async function startSolanaNode(o: { genesisHash?: string; port?: number; slotMs?: number } = {}): Promise<SolanaNode> {
  const chain = new SolanaChain(o.genesisHash ?? PRIVATE_GENESIS);
  const timer = o.slotMs ? setInterval(() => chain.mine(), o.slotMs) : undefined;
  const calls = new Map<string, number>();
  const server: Server = createServer(async (req, res) => {
    let text = "";
    for await (const chunk of req) text += chunk;
    const answer = (body: unknown) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(toJson(body));
    };
    let request: { id?: unknown; method?: string; params?: Params };
    try {
      request = JSON.parse(text);
    } catch {
      return answer({ jsonrpc: "2.0", error: { code: -32700, message: "Parse error" }, id: null });
    }
    const method = methods[request.method ?? ""];
    calls.set(request.method ?? "", (calls.get(request.method ?? "") ?? 0) + 1);
    if (!method) return answer({ jsonrpc: "2.0", error: { code: -32601, message: "Method not found" }, id: request.id ?? null });
    try {
      answer({ jsonrpc: "2.0", result: method(chain, request.params ?? []), id: request.id ?? null });
    } catch (e) {
      const code = e instanceof RpcError ? e.code : -32603;
      answer({ jsonrpc: "2.0", error: { code, message: (e as Error).message }, id: request.id ?? null });
    }
  });
  await new Promise<void>((resolve) => server.listen(o.port ?? 0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return { chain, url: `http://127.0.0.1:${port}`, calls, close: () => new Promise((resolve) => (clearInterval(timer), server.close(() => resolve()))) };
}
