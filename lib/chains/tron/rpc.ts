import { z } from "zod";
import { tronHexOf } from "./address";

/**
 * Reading TRON through a java-tron full node's HTTP API (`/wallet/*`: the full node's port serves
 * no other), the shapes of tronprotocol/documentation-en `docs/api/http/`. Written on
 * fetch rather than tronweb: the watcher makes six kinds of POST, needs int64 amounts exactly
 * (tronweb's client parses JSON into doubles, which round above 2^53 sun) and reads block
 * headers without their transactions, which tronweb's block calls always fetch. Addresses are
 * sent and read in hex (no `visible`), as the node prints them by default.
 */

export type TronClient = {
  /** POSTs `body` to `path` and returns the parsed answer; a node error (`{"Error": …}`, HTTP ≥ 400) throws. */
  post(path: string, body: object): Promise<unknown>;
};

/** Parses int64 fields (`amount`, `balance`) from the JSON text itself, so no amount is ever rounded. */
function parseExact(text: string): unknown {
  return JSON.parse(text, (key, value, context?: { source?: string }) =>
    (key === "amount" || key === "balance") && typeof value === "number" && context?.source ? BigInt(context.source) : value,
  );
}

/**
 * A client of the node at `url`. Credentials in the URL become a Basic authorization header
 * (fetch refuses URLs that carry them); `apiKey` is sent as TRON-PRO-API-KEY, TronGrid's header.
 * No retries: the watcher's next pass is the retry.
 */
export function tronClient(url: string, o: { apiKey?: string; timeoutMs?: number } = {}): TronClient {
  const base = new URL(url);
  const headers: Record<string, string> = { "content-type": "application/json", accept: "application/json" };
  if (base.username || base.password) {
    headers.authorization = `Basic ${Buffer.from(`${decodeURIComponent(base.username)}:${decodeURIComponent(base.password)}`).toString("base64")}`;
    base.username = "";
    base.password = "";
  }
  if (o.apiKey) headers["TRON-PRO-API-KEY"] = o.apiKey;
  const root = base.href.endsWith("/") ? base.href : `${base.href}/`;
  return {
    async post(path, body) {
      const res = await fetch(new URL(path.replace(/^\//, ""), root), {
        method: "POST",
        headers,
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(o.timeoutMs ?? 30_000),
      });
      const text = await res.text();
      if (!res.ok) throw new Error(`TRON node ${path}: HTTP ${res.status}${text ? ` ${text.slice(0, 200)}` : ""}`);
      const parsed = parseExact(text);
      if (parsed && typeof parsed === "object" && "Error" in parsed) throw new Error(`TRON node ${path}: ${String((parsed as { Error: unknown }).Error).slice(0, 300)}`);
      return parsed;
    },
  };
}

const hex = z.string().regex(/^[0-9a-fA-F]*$/);
const int64 = z.union([z.bigint(), z.number().int().transform((n) => BigInt(n))]);

/** A block as getblock / getnowblock print it (docs/api/http/block-and-tx-query/getnowblock.md); protobuf JSON omits zero fields, so block 0 has no `number`. */
const BlockSchema = z.object({
  blockID: hex.length(64),
  block_header: z.object({ raw_data: z.object({ number: z.number().int().default(0), parentHash: hex.optional(), timestamp: z.number().optional() }) }),
  transactions: z
    .array(
      z.object({
        txID: hex.length(64),
        ret: z.array(z.object({ contractRet: z.string().optional() })).optional(),
        raw_data: z.object({
          contract: z.array(z.object({ type: z.string(), parameter: z.object({ value: z.record(z.string(), z.unknown()) }) })).default([]),
        }),
      }),
    )
    .default([]),
});
export type TronBlock = z.infer<typeof BlockSchema>;

/** What a TransferContract's parameter holds (docs/api/http/tx-build-and-broadcast/createtransaction.md): sun from owner to to. */
const TransferSchema = z.object({ to_address: hex, owner_address: hex, amount: int64 });

/** A transaction's execution result (docs/api/http/block-and-tx-query/gettransactioninfobyid.md). */
const TxInfoSchema = z.object({
  id: hex.length(64),
  blockNumber: z.number().int().optional(),
  result: z.string().optional(),
  receipt: z.object({ result: z.string().optional() }).partial().optional(),
  log: z.array(z.object({ address: hex, topics: z.array(hex).default([]), data: hex.default("") })).optional(),
});
export type TronTxInfo = z.infer<typeof TxInfoSchema>;

/** A node's answer for something it does not have: `{}` (documented for getblock, gettransactionbyid and the info calls). */
const isEmpty = (v: unknown) => v !== null && typeof v === "object" && !Array.isArray(v) && Object.keys(v).length === 0;

/** The block at `height` ("" for the newest) of the node's chain; with its transactions when `detail`. */
export async function readTronBlock(client: TronClient, height: number | "latest", o: { detail?: boolean } = {}): Promise<TronBlock> {
  const path = "/wallet/getblock";
  const raw = await client.post(path, { id_or_num: height === "latest" ? "" : String(height), detail: o.detail ?? false });
  if (isEmpty(raw)) throw new Error(`TRON node ${path}: no block ${height}`);
  return BlockSchema.parse(raw);
}

/** The node's newest block: number and id. */
export async function tronTipOf(client: TronClient): Promise<{ number: number; id: string }> {
  const b = await readTronBlock(client, "latest");
  return { number: b.block_header.raw_data.number, id: b.blockID };
}

/** getnodeinfo's blocks (docs/api/http/node-and-tools/getnodeinfo.md): "Num:<height>,ID:<block id>". */
const NodeInfoSchema = z.object({ solidityBlock: z.string().regex(/^Num:\d+,ID:[0-9a-fA-F]{64}$/) });

/**
 * The newest solidified block's number: irreversible (19 of the 27 super representatives built
 * on it). Read from /wallet/getnodeinfo, not /walletsolidity: java-tron serves the /walletsolidity
 * paths on another port (node.http.solidityPort, 8091) than /wallet (8090), so an own node's
 * TRON_RPC_URL reaches only /wallet; getnodeinfo gives the same height (the dynamic properties'
 * latest solidified block) on the full node's port and at providers alike.
 */
export async function tronSolidifiedOf(client: TronClient): Promise<number> {
  const info = NodeInfoSchema.parse(await client.post("/wallet/getnodeinfo", {}));
  return Number(info.solidityBlock.slice("Num:".length, info.solidityBlock.indexOf(",")));
}

/** The execution results of every transaction of the block at `height` (`[]` for an empty block). */
export async function readTxInfos(client: TronClient, height: number): Promise<TronTxInfo[]> {
  const raw = await client.post("/wallet/gettransactioninfobyblocknum", { num: height });
  return isEmpty(raw) ? [] : z.array(TxInfoSchema).parse(raw);
}

/** A TRX transfer in a block: hex addresses (41…, lower-case) and sun. */
export type TrxTransfer = { txId: string; to: string; sun: bigint };

/** The block's successful TransferContract transactions (`ret[0].contractRet` SUCCESS): TRX moved by its owner. */
export function trxTransfersOf(block: TronBlock): TrxTransfer[] {
  const out: TrxTransfer[] = [];
  for (const tx of block.transactions) {
    if (tx.ret?.[0]?.contractRet !== "SUCCESS") continue;
    for (const c of tx.raw_data.contract) {
      if (c.type !== "TransferContract") continue;
      const v = TransferSchema.safeParse(c.parameter.value);
      if (v.success) out.push({ txId: tx.txID, to: v.data.to_address.toLowerCase(), sun: v.data.amount });
    }
  }
  return out;
}

/** Where the node has a transaction: in a block (its info names one), pending in its pool, or nowhere. */
export async function locateTronTx(client: TronClient, txId: string): Promise<"block" | "pool" | "unknown"> {
  const info = await client.post("/wallet/gettransactioninfobyid", { value: txId });
  if (!isEmpty(info) && TxInfoSchema.parse(info).blockNumber !== undefined) return "block";
  const pending = await client.post("/wallet/gettransactionfrompending", { value: txId });
  return isEmpty(pending) ? "unknown" : "pool";
}

/** A node's `message`, which it prints as hex of the text when `visible` is not set. */
function readableMessage(message: string): string {
  return /^([0-9a-fA-F]{2})+$/.test(message) ? Buffer.from(message, "hex").toString("utf8") : message;
}

/** The zero address: the caller of read-only contract calls, which need one (docs/api/http/smart-contract/triggerconstantcontract.md). */
const NOBODY = `41${"0".repeat(40)}`;

/** A read-only call of `selector` on `contract` (base58); the returned word as a bigint. */
async function callConstant(client: TronClient, contract: string, selector: string, parameter = ""): Promise<bigint> {
  const raw = (await client.post("/wallet/triggerconstantcontract", {
    owner_address: NOBODY,
    contract_address: tronHexOf(contract),
    function_selector: selector,
    parameter,
  })) as { result?: { result?: boolean; message?: string }; constant_result?: string[] };
  const word = raw.constant_result?.[0];
  if (raw.result?.result !== true || !word || !/^[0-9a-fA-F]{1,64}$/.test(word)) {
    throw new Error(`${selector} on ${contract} failed${raw.result?.message ? `: ${readableMessage(raw.result.message)}` : ""}`);
  }
  return BigInt(`0x${word}`);
}

/** A TRC-20 contract's decimals(). */
export async function readTrc20Decimals(client: TronClient, contract: string): Promise<number> {
  return Number(await callConstant(client, contract, "decimals()"));
}

/** A TRC-20 balance of `owner` (base58), in the token's base units. */
export async function readTrc20Balance(client: TronClient, contract: string, owner: string): Promise<bigint> {
  return callConstant(client, contract, "balanceOf(address)", tronHexOf(owner).slice(2).padStart(64, "0"));
}

/** An account's TRX balance in sun; 0 for an account the chain does not have yet (never activated: `{}`). */
export async function readTrxBalance(client: TronClient, owner: string): Promise<bigint> {
  const raw = await client.post("/wallet/getaccount", { address: tronHexOf(owner) });
  if (isEmpty(raw)) return 0n;
  return int64.default(0n).parse((raw as { balance?: unknown }).balance);
}
