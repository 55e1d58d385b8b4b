import * as openApiRoute from "@/app/v1/openapi.json/route";
import type { Handler } from "@/lib/http/route";
import { request } from "../helpers";
import { businessFor, pathFixture, validToken, type Fixtures } from "./fixtures";
import type { Operation } from "./openapi";

/**
 * One request as the fuzzer builds it (a Draft: generated, then perhaps mutated), as it is
 * sent (a Sent: fixtures resolved, body rendered), and what came back (a Received).
 */

/** Stands for "an existing value" of a path parameter (fixtures.ts), resolved when sending. */
export const EXISTING = Symbol("existing");

export type Credential =
  | "valid" // the operation's own credential
  | "none" // no Authorization header
  | "garbage" // a bearer token that is nothing
  | "otherBusiness" // another business's valid API key
  | "wrongScheme" // the API key on an admin operation, the admin token on a merchant one
  | "malformed"; // an Authorization header that is not `Bearer <token>` (`Token <token>`)

export type Body = { json: unknown } | { text: string } | { bytes: Uint8Array };

export type Draft = {
  op: Operation;
  method: string;
  path: Record<string, string | typeof EXISTING>;
  /** In order; a name may repeat. */
  query: [string, string][];
  /** Header parameters, Accept and Content-Type. */
  headers: Record<string, string>;
  body?: Body;
  credential: Credential;
};

export type Sent = {
  method: string;
  pathAndQuery: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
  /** Literal values the curl line shows as shell variables (`$KEY_ID`, …). */
  vars: Record<string, string>;
};

export type Received = {
  status: number;
  headers: Headers;
  text: string;
  /** What the service logged with console.error while answering (a 500's cause). */
  serverLog: string[];
};

function authorization(d: Draft, fx: Fixtures): string | undefined {
  const own = validToken(d.op, fx);
  switch (d.credential) {
    case "valid":
      return own && `Bearer ${own}`;
    case "none":
      return undefined;
    case "garbage":
      return "Bearer not-a-real-token";
    case "otherBusiness":
      return `Bearer ${fx.other.apiKey}`;
    case "wrongScheme":
      return `Bearer ${own === fx.adminToken ? fx.merchant.apiKey : fx.adminToken}`;
    case "malformed":
      return `Token ${own ?? ""}`;
  }
}

/**
 * A number written with exactly this text (`0.4999999999999999999999`, `1e400`), which no JS
 * number can carry: a marker string in the value, replaced by the text when rendered.
 */
const RAW = "\ue000raw-number:";
export const rawNumber = (text: string) => `${RAW}${text}\ue000`;

export function renderBody(body: Body): string | Uint8Array {
  if ("json" in body) return JSON.stringify(body.json).replace(new RegExp(`"${RAW}([^"\ue000]*)\ue000"`, "g"), "$1");
  return "text" in body ? body.text : body.bytes;
}

/** Resolves fixtures and renders the draft into the request that is sent. */
export async function materialize(d: Draft, fx: Fixtures): Promise<Sent> {
  const vars: Record<string, string> = {};
  let path = d.op.path;
  for (const [name, value] of Object.entries(d.path)) {
    const v = value === EXISTING ? await pathFixture(name, d.op, fx) : value;
    // An existing id reads as the README's variable for it: {paymentId} → $PAYMENT_ID.
    if (value === EXISTING) vars[v] = `$${name.replace(/([a-z])([A-Z])/g, "$1_$2").toUpperCase()}`;
    path = path.replace(`{${name}}`, encodeURIComponent(v));
  }
  const search = new URLSearchParams(d.query).toString();
  const headers: Record<string, string> = { ...d.headers };
  const auth = authorization(d, fx);
  if (auth) headers.authorization = auth;
  return {
    method: d.method,
    pathAndQuery: search ? `${path}?${search}` : path,
    headers,
    body: d.body && renderBody(d.body),
    vars,
  };
}

/**
 * Routes test/helpers.ts does not know (its table falls through to the /v1 catch-all, a 404),
 * dispatched the same way: the real route module, a real Request.
 */
const ROUTES_HELPERS_LACK: [RegExp, Record<string, unknown>][] = [[/^\/v1\/openapi\.json$/, openApiRoute]];

async function dispatch(s: Sent): Promise<Response> {
  const url = new URL(s.pathAndQuery, "http://localhost:3000");
  const mod = ROUTES_HELPERS_LACK.find(([re]) => re.test(url.pathname))?.[1];
  if (!mod) return request(s.method, s.pathAndQuery, { headers: s.headers, rawBody: s.body });
  const handler = mod[s.method] as Handler | undefined;
  if (!handler) return new Response(null, { status: 405 }); // the framework's default, as in helpers
  const req = new Request(url, { method: s.method, headers: s.headers, body: s.body as BodyInit | undefined });
  return handler(req, { params: Promise.resolve(undefined as never) });
}

/** An error with its causes, innermost last: a failed query's cause is the database's message. */
function describeError(e: unknown): string {
  const parts: string[] = [];
  for (let cur = e, depth = 0; cur instanceof Error && depth < 5; cur = cur.cause, depth++) parts.push(`${cur.name}: ${cur.message}`);
  return parts.length ? parts.join(" ← caused by ") : String(e);
}

/** Sends through the real route handlers in-process (test/helpers.ts `request`), or through `via`. */
export async function send(s: Sent, via: (s: Sent) => Promise<Response> = dispatch): Promise<Received> {
  const serverLog: string[] = [];
  const original = console.error;
  console.error = (...args: unknown[]) => {
    serverLog.push(args.map(describeError).join(" "));
  };
  try {
    const res = await via(s);
    return { status: res.status, headers: res.headers, text: await res.text(), serverLog };
  } finally {
    console.error = original;
  }
}

/** The id the operation's `{businessId}` gets when it is not mutated (for cross-field rules). */
export const ownBusinessId = (d: Draft, fx: Fixtures) => businessFor(d.op, fx).businessId;
