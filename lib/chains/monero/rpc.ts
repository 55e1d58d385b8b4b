import { z } from "zod";
import type { ChainNet } from "@/lib/wallets/derive";

/**
 * Talking to monerod and monero-wallet-rpc over their JSON-RPC (`/json_rpc`) and monerod's
 * plain JSON endpoints (docs.getmonero.org/rpc-library/monerod-rpc and .../wallet-rpc; the shapes
 * below were read from Debian's 0.18.0.0 in regtest, docs/real-chains.md). Written on fetch
 * rather than monero-ts: the service makes a dozen kinds of call, and monero-ts brings a WASM
 * build of the whole wallet (tens of megabytes) to do what one POST does. Amounts are uint64
 * piconero, above 2^53 for large sums: they are read from the JSON text itself as bigint.
 *
 * No HTTP digest authentication: the wallet-rpc is meant to listen on loopback (or a private
 * network) with `--disable-rpc-login`, as the docs say; a URL carrying credentials is refused by
 * the configuration.
 */

export class MoneroRpcError extends Error {
  constructor(
    message: string,
    /** The JSON-RPC error code (e.g. -1 wallet already exists), 0 for a transport failure. */
    readonly code: number,
  ) {
    super(message);
    this.name = "MoneroRpcError";
  }
}

export type MoneroRpc = {
  /** A JSON-RPC method at /json_rpc; the result parsed with `schema`. */
  call<T>(method: string, params: object, schema: z.ZodType<T>): Promise<T>;
  /** One of monerod's plain JSON endpoints (`/get_transactions`); the answer parsed with `schema`. */
  other<T>(path: string, body: object, schema: z.ZodType<T>): Promise<T>;
  /** The URL as it may be shown and logged. */
  readonly endpoint: string;
};

/** Fields holding piconero (or a lock height that may exceed 2^53) are read as bigint from their source text. */
const EXACT = new Set(["amount", "amounts", "fee", "unlock_time", "balance", "unlocked_balance"]);

function parseExact(text: string): unknown {
  return JSON.parse(text, function (this: unknown, key, value, context?: { source?: string }) {
    if (typeof value !== "number" || !context?.source) return value;
    // Inside an `amounts` array the key is the index: the holder is the array.
    return EXACT.has(key) || (Array.isArray(this) && /^\d+$/.test(key)) ? BigInt(context.source) : value;
  });
}

export function moneroRpc(url: string, o: { timeoutMs?: number } = {}): MoneroRpc {
  const base = new URL(url);
  const root = base.href.endsWith("/") ? base.href : `${base.href}/`;
  const endpoint = `${base.protocol}//${base.host}${base.pathname === "/" ? "" : base.pathname}`;
  const timeoutMs = o.timeoutMs ?? 60_000;
  let id = 0;
  async function post(path: string, body: object): Promise<unknown> {
    let res: Response;
    try {
      res = await fetch(new URL(path, root), {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      throw new MoneroRpcError(`${path}: ${endpoint} did not answer (${(err as Error).message})`, 0);
    }
    const text = await res.text();
    if (res.status === 401) throw new MoneroRpcError(`${path}: ${endpoint} asks for a login (run it with --disable-rpc-login on a private interface)`, 0);
    if (!res.ok) throw new MoneroRpcError(`${path}: ${endpoint} answered HTTP ${res.status}`, 0);
    return parseExact(text);
  }
  return {
    endpoint,
    async call(method, params, schema) {
      const body = (await post("json_rpc", { jsonrpc: "2.0", id: String(++id), method, params })) as { result?: unknown; error?: { code: number; message: string } };
      if (body.error) throw new MoneroRpcError(`${method}: ${body.error.message}`, Number(body.error.code));
      const parsed = schema.safeParse(body.result);
      if (!parsed.success) throw new MoneroRpcError(`${method}: ${endpoint} answered an unexpected shape (${parsed.error.issues[0]?.path.join(".")}: ${parsed.error.issues[0]?.message})`, 0);
      return parsed.data;
    },
    async other(path, body, schema) {
      const answer = (await post(path.replace(/^\//, ""), body)) as { status?: string };
      if (answer.status && answer.status !== "OK") throw new MoneroRpcError(`${path}: ${answer.status}`, 0);
      const parsed = schema.safeParse(answer);
      if (!parsed.success) throw new MoneroRpcError(`${path}: ${endpoint} answered an unexpected shape (${parsed.error.issues[0]?.path.join(".")}: ${parsed.error.issues[0]?.message})`, 0);
      return parsed.data;
    },
  };
}

const piconero = z.union([z.bigint(), z.number().int().nonnegative().transform((n) => BigInt(n))]);
const hash = z.string().regex(/^[0-9a-f]{64}$/);

/** monerod `get_info`: `nettype` is mainnet, testnet, stagenet, or fakechain (regtest). */
const Info = z.object({ height: z.number().int(), nettype: z.string(), top_block_hash: hash });

/** The network monerod serves: regtest's "fakechain" uses mainnet's address prefixes, but its blocks are made on demand. */
export async function moneroNetOf(daemon: MoneroRpc): Promise<{ net: ChainNet; height: number; nettype: string }> {
  const info = await daemon.call("get_info", {}, Info);
  const net: ChainNet | null = info.nettype === "mainnet" ? "main" : info.nettype === "fakechain" ? "regtest" : info.nettype === "testnet" || info.nettype === "stagenet" ? "test" : null;
  if (!net) throw new MoneroRpcError(`the daemon at ${daemon.endpoint} serves an unknown network "${info.nettype}"`, 0);
  return { net, height: info.height, nettype: info.nettype };
}

const Header = z.object({ height: z.number().int(), hash });

/** The newest block's height (get_info's `height` is the chain's length: the top block is one below). */
export async function moneroTip(daemon: MoneroRpc): Promise<number> {
  return (await daemon.call("get_last_block_header", {}, z.object({ block_header: Header }))).block_header.height;
}

export async function moneroHashAt(daemon: MoneroRpc, height: number): Promise<string> {
  return (await daemon.call("get_block_header_by_height", { height }, z.object({ block_header: Header }))).block_header.hash;
}

/** The blocks `from`..`to` (one call; the daemon caps a range's size, so callers read in slices). */
export async function moneroHeaders(daemon: MoneroRpc, from: number, to: number): Promise<{ height: number; hash: string }[]> {
  return (await daemon.call("get_block_headers_range", { start_height: from, end_height: to }, z.object({ headers: z.array(Header) }))).headers;
}

const TxInfo = z.object({ tx_hash: hash, in_pool: z.boolean(), block_height: z.number().int().optional(), double_spend_seen: z.boolean().optional() });

/** What monerod knows of transactions: in a block, in its pool, or nothing (`missed_tx`). */
export async function moneroTransactions(daemon: MoneroRpc, txids: string[]) {
  return daemon.other("get_transactions", { txs_hashes: txids, decode_as_json: false }, z.object({ txs: z.array(TxInfo).optional(), missed_tx: z.array(z.string()).optional() }));
}

const PoolTx = z.object({ id_hash: hash, last_failed_height: z.number().int(), double_spend_seen: z.boolean() });
export type PoolTx = z.infer<typeof PoolTx>;

/** The daemon's pool: a transaction failing there (`last_failed_height` ≠ 0, after a deep reorganisation) will never be mined. */
export async function moneroPool(daemon: MoneroRpc) {
  return (await daemon.other("get_transaction_pool", {}, z.object({ transactions: z.array(PoolTx).optional() }))).transactions ?? [];
}

/** One incoming transfer as `get_transfers` lists it in `in` (mined) or `pool` (not yet). */
export const MoneroTransfer = z.object({
  txid: hash,
  amount: piconero,
  subaddr_index: z.object({ major: z.number().int(), minor: z.number().int() }),
  address: z.string(),
  height: z.number().int(),
  unlock_time: piconero,
  double_spend_seen: z.boolean(),
  suggested_confirmations_threshold: z.number().int().optional(),
  locked: z.boolean().optional(),
  type: z.string(),
});
export type MoneroTransfer = z.infer<typeof MoneroTransfer>;

export const Transfers = z.object({ in: z.array(MoneroTransfer).optional(), pool: z.array(MoneroTransfer).optional() });

export const CreatedAddress = z.object({ address: z.string(), address_index: z.number().int() });

export const Empty = z.unknown();
