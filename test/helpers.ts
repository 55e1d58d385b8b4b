import { expect } from "vitest";
import { chainCursors } from "@/db/schema";
import { coinsOfChain, tokenContractsOn, trc20ContractsOn, TRON_MAINNET_CHAIN_ID } from "@/domain/watched-chains";
import { getDb } from "@/db/client";
import { createBusiness } from "@/lib/businesses/businesses";
import { TEST_EXTENDED_PUBLIC_KEYS } from "@/lib/wallets/derive";
import type { CreateBusinessInput } from "@/lib/businesses/schemas";
import { config } from "@/lib/config";
import type { Handler } from "@/lib/http/route";
import * as paymentsRoute from "@/app/v1/businesses/[businessId]/payments/route";
import * as paymentRoute from "@/app/v1/businesses/[businessId]/payments/[paymentId]/route";
import * as noteRoute from "@/app/v1/businesses/[businessId]/payments/[paymentId]/note/route";
import * as simulateRoute from "@/app/v1/businesses/[businessId]/payments/[paymentId]/simulate/route";
import * as v1Unknown from "@/app/v1/[[...path]]/route";
import * as adminBusinesses from "@/app/admin/v1/businesses/route";
import * as adminBusiness from "@/app/admin/v1/businesses/[businessId]/route";
import * as adminKeys from "@/app/admin/v1/businesses/[businessId]/api-keys/route";
import * as adminKey from "@/app/admin/v1/businesses/[businessId]/api-keys/[keyId]/route";
import * as adminRotate from "@/app/admin/v1/businesses/[businessId]/webhook-secret/rotate/route";
import * as adminMoneroWallet from "@/app/admin/v1/businesses/[businessId]/monero-wallet/route";
import * as adminDeliveries from "@/app/admin/v1/businesses/[businessId]/webhook-deliveries/route";
import * as adminChains from "@/app/admin/v1/chains/route";
import * as adminUsers from "@/app/admin/v1/users/route";
import * as adminUsersUnlock from "@/app/admin/v1/users/unlock/route";
import * as adminUsersPassword from "@/app/admin/v1/users/password/route";
import * as adminRates from "@/app/admin/v1/rates/route";
import * as adminRedeliver from "@/app/admin/v1/businesses/[businessId]/webhook-deliveries/[deliveryId]/redeliver/route";
import * as adminUnknown from "@/app/admin/v1/[[...path]]/route";
import * as adminEndpoints from "@/app/admin/v1/businesses/[businessId]/webhook-endpoints/route";
import * as adminEndpoint from "@/app/admin/v1/businesses/[businessId]/webhook-endpoints/[endpointId]/route";
import * as adminEndpointSecret from "@/app/admin/v1/businesses/[businessId]/webhook-endpoints/[endpointId]/secret/route";
import * as adminEndpointRotate from "@/app/admin/v1/businesses/[businessId]/webhook-endpoints/[endpointId]/secret/rotate/route";
import * as adminEndpointRecover from "@/app/admin/v1/businesses/[businessId]/webhook-endpoints/[endpointId]/recover/route";

type RouteModule = Partial<Record<string, Handler | unknown>>;

/**
 * The app's route table, as Next matches it: the same handler modules the server runs, called
 * in-process with real Requests against the real database.
 */
const ROUTES: [RegExp, string[], RouteModule][] = [
  [/^\/v1\/businesses\/([^/]+)\/payments$/, ["businessId"], paymentsRoute],
  [/^\/v1\/businesses\/([^/]+)\/payments\/([^/]+)$/, ["businessId", "paymentId"], paymentRoute],
  [/^\/v1\/businesses\/([^/]+)\/payments\/([^/]+)\/note$/, ["businessId", "paymentId"], noteRoute],
  [/^\/v1\/businesses\/([^/]+)\/payments\/([^/]+)\/simulate$/, ["businessId", "paymentId"], simulateRoute],
  [/^\/admin\/v1\/businesses$/, [], adminBusinesses],
  [/^\/admin\/v1\/businesses\/([^/]+)$/, ["businessId"], adminBusiness],
  [/^\/admin\/v1\/businesses\/([^/]+)\/api-keys$/, ["businessId"], adminKeys],
  [/^\/admin\/v1\/businesses\/([^/]+)\/api-keys\/([^/]+)$/, ["businessId", "keyId"], adminKey],
  [/^\/admin\/v1\/businesses\/([^/]+)\/webhook-secret\/rotate$/, ["businessId"], adminRotate],
  [/^\/admin\/v1\/businesses\/([^/]+)\/monero-wallet$/, ["businessId"], adminMoneroWallet],
  [/^\/admin\/v1\/businesses\/([^/]+)\/webhook-deliveries$/, ["businessId"], adminDeliveries],
  [/^\/admin\/v1\/businesses\/([^/]+)\/webhook-deliveries\/([^/]+)\/redeliver$/, ["businessId", "deliveryId"], adminRedeliver],
  [/^\/admin\/v1\/businesses\/([^/]+)\/webhook-endpoints$/, ["businessId"], adminEndpoints],
  [/^\/admin\/v1\/businesses\/([^/]+)\/webhook-endpoints\/([^/]+)$/, ["businessId", "endpointId"], adminEndpoint],
  [/^\/admin\/v1\/businesses\/([^/]+)\/webhook-endpoints\/([^/]+)\/secret$/, ["businessId", "endpointId"], adminEndpointSecret],
  [/^\/admin\/v1\/businesses\/([^/]+)\/webhook-endpoints\/([^/]+)\/secret\/rotate$/, ["businessId", "endpointId"], adminEndpointRotate],
  [/^\/admin\/v1\/businesses\/([^/]+)\/webhook-endpoints\/([^/]+)\/recover$/, ["businessId", "endpointId"], adminEndpointRecover],
  [/^\/admin\/v1\/chains$/, [], adminChains],
  [/^\/admin\/v1\/users$/, [], adminUsers],
  [/^\/admin\/v1\/users\/password$/, [], adminUsersPassword],
  [/^\/admin\/v1\/users\/unlock$/, [], adminUsersUnlock],
  [/^\/admin\/v1\/rates$/, [], adminRates],
  [/^\/v1\/(.+)$/, ["path"], v1Unknown],
  [/^\/admin\/v1\/(.+)$/, ["path"], adminUnknown],
];

export type CallOptions = {
  body?: unknown;
  rawBody?: string | Uint8Array;
  key?: string | null;
  headers?: Record<string, string>;
};

export async function request(method: string, pathAndQuery: string, opts: CallOptions = {}): Promise<Response> {
  const url = new URL(pathAndQuery, "http://localhost:3000");
  const headers = new Headers(opts.headers);
  if (opts.key) headers.set("authorization", `Bearer ${opts.key}`);
  let body: BodyInit | undefined;
  if (opts.rawBody !== undefined) body = opts.rawBody as BodyInit;
  else if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    if (!headers.has("content-type")) headers.set("content-type", "application/json");
  }
  const req = new Request(url, { method, headers, body });
  for (const [pattern, names, mod] of ROUTES) {
    const m = pattern.exec(url.pathname);
    if (!m) continue;
    const params: Record<string, string | string[]> = {};
    names.forEach((n, i) => (params[n] = n === "path" ? m[i + 1].split("/") : decodeURIComponent(m[i + 1])));
    const handler = mod[method] as Handler | undefined;
    if (!handler) return new Response(null, { status: 405 }); // the framework's default: a test fails on it
    // Next passes no params object to a route without dynamic segments.
    return handler(req, { params: Promise.resolve(names.length ? params : (undefined as never)) });
  }
  throw new Error(`no route for ${url.pathname}`);
}

export async function json<T = any>(res: Response): Promise<T> {
  return (await res.json()) as T;
}

export function adminToken(): string {
  return config().adminToken!;
}

let seq = 0;
/**
 * A business; a live one gets the public test keys as its address source unless told otherwise:
 * the mainnet BITCOIN, ETHEREUM and TRON ones. LITECOIN and BITCOIN_CASH are the chains tests
 * follow on real regtest nodes, whose network a mainnet key would not fit (test/setup.ts).
 */
export async function newBusiness(input: Partial<CreateBusinessInput> = {}) {
  const db = await getDb();
  const { BITCOIN, ETHEREUM, TRON } = TEST_EXTENDED_PUBLIC_KEYS;
  const keys = input.mode === "live" ? { extendedPublicKeys: { BITCOIN, ETHEREUM, TRON } } : {};
  return createBusiness(db, { name: `Business ${++seq}`, mode: "test", ...keys, ...input });
}

export function paymentsPath(businessId: number) {
  return `/v1/businesses/${businessId}/payments`;
}

export async function createPayment(
  b: { businessId: number; apiKey: string },
  body: Record<string, unknown> = { currency: "USD", amount: 10 },
) {
  const res = await request("POST", paymentsPath(b.businessId), { key: b.apiKey, body });
  const payload = await json(res);
  if (res.status !== 200) throw new Error(`create failed: ${res.status} ${JSON.stringify(payload)}`);
  return payload.data as { id: string; url: string };
}

/**
 * Asserts a ProblemDetails response: exact status, a problem content type (or `contentType`),
 * type/title/status/detail, and — when `fields` is given — an `errors` map naming exactly those
 * fields, each with at least one message. Returns the parsed body.
 */
export async function expectProblem(
  res: Response,
  status: number,
  fields?: string[],
  contentType = "application/problem+json",
) {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  expect(res.headers.get("content-type")?.split(";")[0]).toBe(contentType);
  const body = JSON.parse(text);
  expect(typeof body.type).toBe("string");
  expect(body.type.length).toBeGreaterThan(0);
  expect(typeof body.title).toBe("string");
  expect(body.title.length).toBeGreaterThan(0);
  expect(body.status).toBe(status);
  expect(typeof body.detail).toBe("string");
  expect(body.detail.length).toBeGreaterThan(0);
  if (fields) {
    expect(Object.keys(body.errors ?? {}).sort()).toEqual([...fields].sort());
    for (const f of fields) {
      expect(Array.isArray(body.errors[f])).toBe(true);
      expect(body.errors[f].length).toBeGreaterThan(0);
      for (const m of body.errors[f]) expect(typeof m).toBe("string");
    }
  }
  return body;
}

/**
 * What a chain's watcher writes after a successful tick, without a node: the chain is healthy on
 * `network` and its coins are offered to live businesses. For tests of offering and deriving;
 * the watcher itself is tested against real nodes (test/chains). Rows are per chain and the
 * database may be shared by test files, so each chain is always marked the same way: BITCOIN,
 * ETHEREUM and TRON on mainnet, LITECOIN on regtest, as the test that follows a real regtest
 * litecoind writes it (test/chains/watch-chains.test.ts).
 */
export async function chainFollowed(
  chain: "BITCOIN" | "ETHEREUM" | "LITECOIN" | "TRON",
  o: { network?: "main" | "test" | "regtest"; chainId?: number } = {},
) {
  const db = await getDb();
  const now = new Date();
  const chainId = chain === "ETHEREUM" ? (o.chainId ?? 1) : chain === "TRON" ? (o.chainId ?? TRON_MAINNET_CHAIN_ID) : null;
  const tokens = chain === "ETHEREUM" ? tokenContractsOn(chainId!, {}) : chain === "TRON" ? trc20ContractsOn(chainId!, {}) : {};
  // The tip counts as just moved: a row another file wrote long ago (a long run) would otherwise read as stalled.
  const health = { network: o.network ?? "main", chainId, coins: coinsOfChain(chain, tokens), tickedAt: now, tipChangedAt: now };
  // A cursor a real follower in another test file moves is left where it is: only its health is refreshed.
  await db
    .insert(chainCursors)
    .values({ chain, ...health, height: 1, blockHash: "00", tip: 1, updatedAt: now })
    .onConflictDoUpdate({ target: chainCursors.chain, set: health });
}
