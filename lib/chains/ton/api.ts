/**
 * A toncenter-compatible HTTP API as the TON watcher uses it (TON_API_URL, its key as X-API-Key):
 * v2 for the masterchain head and an account's transactions (docs.ton.org/ecosystem/api/toncenter/v2/;
 * every answer is `{ ok, result }` or `{ ok: false, error, code }`), v3 for jetton transfers
 * (docs.ton.org/ecosystem/api/toncenter/v3/). Transactions come as their BOC (`data`), which the
 * watcher decodes itself (parse.ts): the JSON's convenience fields are never trusted for money.
 */
export type TonApi = { url: string; apiKey: string | undefined };

/** A block's id as toncenter gives it (`ton.blockIdExt`). */
export type BlockIdExt = { workchain: number; shard: string; seqno: number; root_hash: string; file_hash: string };

/** One item of v2 getTransactions (docs.ton.org/ecosystem/api/toncenter/v2/transactions/get-transactions). */
export type V2Transaction = { utime: number; data: string; transaction_id: { lt: string; hash: string } };

export class TonApiError extends Error {}

async function call<T>(api: TonApi, path: string, query: Record<string, string | number | undefined>): Promise<T> {
  const url = new URL(path, api.url.endsWith("/") ? api.url : `${api.url}/`);
  for (const [k, v] of Object.entries(query)) if (v !== undefined) url.searchParams.set(k, String(v));
  const res = await fetch(url, { headers: { accept: "application/json", ...(api.apiKey && { "X-API-Key": api.apiKey }) }, signal: AbortSignal.timeout(20_000) });
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new TonApiError(`${path}: HTTP ${res.status}, not JSON`);
  }
  if (path.startsWith("api/v2/")) {
    const b = body as { ok?: boolean; result?: T; error?: string; code?: number };
    if (!res.ok || b.ok !== true) throw new TonApiError(`${path}: ${b.error ?? `HTTP ${res.status}`}`);
    return b.result as T;
  }
  if (!res.ok) throw new TonApiError(`${path}: ${(body as { error?: string }).error ?? `HTTP ${res.status}`}`);
  return body as T;
}

/** The masterchain's newest block and its zero state (v2 getMasterchainInfo). */
export async function masterchainInfo(api: TonApi): Promise<{ last: BlockIdExt; init: BlockIdExt }> {
  return call(api, "api/v2/getMasterchainInfo", {});
}

/** The masterchain block `seqno`'s id (v2 lookupBlock), for the cursor's check that the API still serves the same chain. */
export async function masterchainBlock(api: TonApi, seqno: number): Promise<BlockIdExt> {
  return call(api, "api/v2/lookupBlock", { workchain: -1, shard: "-9223372036854775808", seqno });
}

/** Most transactions one getTransactions call returns here. */
export const PAGE = 100;

/**
 * The account's transactions after `after` (a logical time, or a moment for an account not read
 * before), oldest first. The API
 * answers newest first, from (`lt`, `hash`) when given; the next page starts at the oldest one
 * read, which it repeats. Pages of `pageSize` are walked until a page reaches `after` or runs out.
 */
export async function transactionsSince(api: TonApi, account: string, after: { lt: string } | { since: Date }, pageSize = PAGE): Promise<V2Transaction[]> {
  const toLt = "lt" in after ? after.lt : undefined;
  const older = (t: V2Transaction) => ("lt" in after ? BigInt(t.transaction_id.lt) <= BigInt(after.lt) : t.utime < Math.floor(after.since.getTime() / 1000));
  const out: V2Transaction[] = [];
  const seen = new Set<string>();
  let from: { lt: string; hash: string } | undefined;
  for (;;) {
    const page = await call<V2Transaction[]>(api, "api/v2/getTransactions", {
      address: account,
      limit: pageSize,
      lt: from?.lt,
      hash: from?.hash,
      to_lt: toLt,
      archival: "true",
    });
    let reached = false;
    for (const t of page) {
      if (older(t)) {
        reached = true;
        break;
      }
      if (seen.has(t.transaction_id.hash)) continue;
      seen.add(t.transaction_id.hash);
      out.push(t);
    }
    const oldest = page.at(-1);
    if (reached || page.length < pageSize || !oldest || (from && oldest.transaction_id.hash === from.hash)) break;
    from = oldest.transaction_id;
  }
  return out.reverse();
}

/** A get method's stack entry as v2 runGetMethod returns it: `["num", "0x…"]`, `["cell", { bytes }]`, … */
type StackEntry = [string, unknown];

/** Runs a get method on a contract (v2 runGetMethod); the stack's entries as toncenter gives them. */
export async function runGetMethod(api: TonApi, address: string, method: string, stack: StackEntry[]): Promise<{ exit_code: number; stack: StackEntry[] }> {
  const url = new URL("api/v2/runGetMethod", api.url.endsWith("/") ? api.url : `${api.url}/`);
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json", ...(api.apiKey && { "X-API-Key": api.apiKey }) },
    body: JSON.stringify({ address, method, stack }),
    signal: AbortSignal.timeout(20_000),
  });
  const body = (await res.json().catch(() => ({}))) as { ok?: boolean; result?: { exit_code: number; stack: StackEntry[] }; error?: string };
  if (!res.ok || body.ok !== true || !body.result) throw new TonApiError(`runGetMethod ${method}: ${body.error ?? `HTTP ${res.status}`}`);
  return body.result;
}
