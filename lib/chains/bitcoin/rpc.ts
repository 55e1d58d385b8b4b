import http from "node:http";
import https from "node:https";
import { parse as parseLosslessJson } from "lossless-json";
import type { ChainNet } from "@/lib/wallets/derive";

/**
 * A client of Bitcoin Core's JSON-RPC (and of the nodes that speak it: Litecoin Core, Bitcoin
 * Cash Node), over node:http: one POST per call, Basic auth from the URL's
 * credentials. Hand-written because it is one request shape, and because amounts must stay
 * exact: the node writes them as JSON numbers (`0.75`), which this parses with lossless-json so
 * that every number reaches the caller as its source text (`DecimalText`), never a double.
 */

/** A JSON number as the node wrote it, e.g. "0.00000001" or "12". */
export type DecimalText = string & { readonly __decimalText: unique symbol };

export class BitcoinRpcError extends Error {
  constructor(
    message: string,
    /** The node's error code (e.g. -5 no such transaction, -8 bad parameter), or 0 for a transport failure. */
    readonly code: number,
  ) {
    super(message);
    this.name = "BitcoinRpcError";
  }
}

export type BitcoinRpc = {
  /** Calls `method`; numbers in the answer are `DecimalText`. */
  call<T>(method: string, params?: unknown[]): Promise<T>;
  /** The URL without its credentials, for logs and the health view. */
  readonly endpoint: string;
};

/** Numbers stay text; integers a double holds exactly (heights, confirmations, sizes) become numbers. */
function parseNumber(text: string): number | DecimalText {
  return /^-?\d+$/.test(text) && Number.isSafeInteger(Number(text)) ? Number(text) : (text as DecimalText);
}

/**
 * One POST on a connection of its own (`agent: false`: `Connection: close`), as bitcoin-cli does.
 * On a kept-alive connection Bitcoin Core's and Litecoin Core's HTTP server deliver an answer of
 * a few kilobytes or more ~40 ms late (its headers and body go out as separate writes, and
 * the second waits for the delayed acknowledgement of the first): a catch-up read 20 blocks a
 * second that way and 150 with a connection per call (docs/performance.md, "Chain watchers").
 */
function post(url: URL, headers: Record<string, string>, body: string, timeoutMs: number): Promise<{ status: number; text: string }> {
  const request = url.protocol === "https:" ? https.request : http.request;
  return new Promise((resolve, reject) => {
    const req = request(url, { method: "POST", agent: false, headers: { ...headers, "content-length": Buffer.byteLength(body) }, timeout: timeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }));
      res.on("error", reject);
    });
    req.on("timeout", () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on("error", reject);
    req.end(body);
  });
}

export function bitcoinRpc(url: string, options: { timeoutMs?: number } = {}): BitcoinRpc {
  const parsed = new URL(url);
  const auth =
    parsed.username || parsed.password
      ? `Basic ${Buffer.from(`${decodeURIComponent(parsed.username)}:${decodeURIComponent(parsed.password)}`).toString("base64")}`
      : undefined;
  parsed.username = "";
  parsed.password = "";
  const endpoint = parsed.toString();
  const timeoutMs = options.timeoutMs ?? 30_000;
  let id = 0;
  return {
    endpoint,
    async call<T>(method: string, params: unknown[] = []): Promise<T> {
      let response: { status: number; text: string };
      try {
        response = await post(parsed, { "content-type": "application/json", ...(auth ? { authorization: auth } : {}) }, JSON.stringify({ jsonrpc: "1.0", id: ++id, method, params }), timeoutMs);
      } catch (err) {
        throw new BitcoinRpcError(`${method}: the node at ${endpoint} did not answer (${(err as Error).message})`, 0);
      }
      const { text } = response;
      // The node answers errors with 404/500 and a JSON body; 401 has no body.
      if (response.status === 401 || response.status === 403) {
        throw new BitcoinRpcError(`${method}: the node at ${endpoint} refused the credentials (HTTP ${response.status})`, 0);
      }
      let body: { result?: unknown; error?: { code: number; message: string } | null };
      try {
        body = parseLosslessJson(text, null, parseNumber) as typeof body;
      } catch {
        throw new BitcoinRpcError(`${method}: the node at ${endpoint} answered HTTP ${response.status} without JSON`, 0);
      }
      if (body.error) throw new BitcoinRpcError(`${method}: ${body.error.message}`, Number(body.error.code));
      return body.result as T;
    },
  };
}

/**
 * The network the node serves, from `getblockchaininfo.chain`: "main"; "test", "testnet4" and
 * "signet" are test networks; "regtest". Anything else is refused: addresses for an unknown
 * network would be nobody's.
 */
export async function chainNetOf(rpc: BitcoinRpc): Promise<ChainNet> {
  const { chain } = await rpc.call<{ chain: string }>("getblockchaininfo");
  if (chain === "main") return "main";
  if (chain === "regtest") return "regtest";
  if (chain === "test" || chain === "testnet4" || chain === "signet") return "test";
  throw new BitcoinRpcError(`the node at ${rpc.endpoint} serves an unknown chain "${chain}"`, 0);
}
