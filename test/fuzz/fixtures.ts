import { getDb } from "@/db/client";
import { listDeliveries, recordAttempt } from "@/db/queries/webhooks";
import { createUser } from "@/lib/accounts/users";
import { createApiKey } from "@/lib/businesses/businesses";
import { listEndpoints } from "@/db/queries/webhook-endpoints";
import { createEndpoint, destroyEndpoint } from "@/lib/webhooks/endpoints";
import { adminToken, createPayment, newBusiness } from "../helpers";
import type { Operation } from "./openapi";

/**
 * What a client must know that the document cannot tell it: its credentials, and ids of
 * resources that exist. Created with the test helpers against the real database.
 */

type Business = Awaited<ReturnType<typeof newBusiness>>;

export type Fixtures = {
  /** The business the merchant API (API key) is fuzzed against. */
  merchant: Business;
  /** Another business: its valid key must get nowhere with the merchant's resources. */
  other: Business;
  /** The business admin operations act on; they change its settings, so it is not `merchant`. */
  sandbox: Business;
  /** The most recent payment of the merchant (a new one now and then, see pathFixture). */
  paymentId: string;
  deliveryId: number;
  adminToken: string;
  /** A dashboard user of the sandbox, whose password the admin API may set. */
  userEmail: string;
};

export async function createFixtures(): Promise<Fixtures> {
  const merchant = await newBusiness({ name: "Fuzz merchant" });
  const other = await newBusiness({ name: "Fuzz other" });
  const sandbox = await newBusiness({ name: "Fuzz admin sandbox" });
  const { id: paymentId } = await createPayment(merchant);
  // A webhook delivery of the sandbox, addressed to a closed loopback port: redelivering it
  // makes a real attempt that fails at once and reaches nothing outside this machine.
  const { id: sandboxPayment } = await createPayment(sandbox, { currency: "USD", amount: 10, notifyUrl: "http://127.0.0.1:9/fuzz" });
  const db = await getDb();
  const [delivery] = (await listDeliveries(db, sandbox.businessId, { paymentId: sandboxPayment, limit: 1, offset: 0 })).rows;
  // Given up (a last attempt recorded as failed), so that no other test file's deliverDue on a
  // shared PostgreSQL claims it and holds its lease while the fuzzer redelivers it (a 409).
  const now = new Date();
  await recordAttempt(
    db,
    { deliveryId: delivery.id, attemptedAt: now, succeeded: false, statusCode: null, latencyMs: 0, error: "connection refused" },
    { status: "failed", nextAttemptAt: null, lastAttemptAt: now, lastStatusCode: null },
  );
  const user = await createUser(db, { email: `fuzz-user-${sandbox.businessId}@shop.example`, businessId: sandbox.businessId, role: "viewer" });
  return { merchant, other, sandbox, paymentId, deliveryId: delivery.id, adminToken: adminToken(), userEmail: user.email };
}

/** Which credential each of the document's security schemes takes. */
const SCHEME_CREDENTIAL: Record<string, "apiKey" | "adminToken"> = { bearerAuth: "apiKey", adminBearer: "adminToken" };

export type CredentialKind = "apiKey" | "adminToken" | "none";

export function credentialKind(op: Operation): CredentialKind {
  const scheme = op.security[0];
  if (!scheme) return "none";
  const kind = SCHEME_CREDENTIAL[scheme.name];
  if (!kind) throw new Error(`the fuzzer does not know which credential security scheme ${scheme.name} takes`);
  return kind;
}

/** The token that authorizes `op`; undefined for a public operation. */
export function validToken(op: Operation, fx: Fixtures): string | undefined {
  const kind = credentialKind(op);
  return kind === "apiKey" ? fx.merchant.apiKey : kind === "adminToken" ? fx.adminToken : undefined;
}

/** The business whose id goes into `{businessId}`: the merchant's for its API, else the sandbox. */
export function businessFor(op: Operation, fx: Fixtures): Business {
  return credentialKind(op) === "apiKey" ? fx.merchant : fx.sandbox;
}

let paymentRequests = 0;

/**
 * An existing value for a path parameter. `keyId` is a fresh key each time: revoking one is
 * a valid request only once. Every fourth `paymentId` is a new payment, so actions that move a
 * payment along (the test-mode simulator) meet payments in every state, not only a final one.
 */
/**
 * Keeps the sandbox under its 10 endpoints, so that adding one is a valid request: the oldest
 * ones go once there are 5.
 */
export async function roomForEndpoints(fx: Fixtures): Promise<void> {
  const db = await getDb();
  const endpoints = await listEndpoints(db, fx.sandbox.businessId);
  for (const e of endpoints.slice(0, Math.max(0, endpoints.length - 4))) await destroyEndpoint(db, fx.sandbox.businessId, e.id);
}

export async function pathFixture(name: string, op: Operation, fx: Fixtures): Promise<string> {
  switch (name) {
    case "businessId":
      if (op.id === "adminCreateWebhookEndpoint") await roomForEndpoints(fx);
      return String(businessFor(op, fx).businessId);
    case "paymentId":
      if (++paymentRequests % 4 === 0) fx.paymentId = (await createPayment(fx.merchant)).id;
      return fx.paymentId;
    case "deliveryId":
      return String(fx.deliveryId);
    case "keyId":
      return (await createApiKey(await getDb(), fx.sandbox.businessId, {})).keyId;
    case "endpointId":
      // A fresh endpoint each time, as for keys: deleting or disabling one is valid only once.
      await roomForEndpoints(fx);
      return String((await createEndpoint(await getDb(), fx.sandbox.businessId, { url: "http://127.0.0.1:9/fuzz" })).endpointId);
    default:
      throw new Error(`the fuzzer has no existing value for path parameter {${name}} of ${op.id}`);
  }
}

/** Credentials the curl reproduction shows as the README's shell variables instead of literally (ids: fuzz-request.ts). */
export function shellVariables(fx: Fixtures): Record<string, string> {
  return {
    [fx.merchant.apiKey]: "$API_KEY",
    [fx.other.apiKey]: "$OTHER_API_KEY",
    [fx.adminToken]: "$ADMIN_TOKEN",
  };
}
