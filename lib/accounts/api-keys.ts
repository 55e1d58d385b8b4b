import { randomBytes } from "node:crypto";
import { SignJWT, jwtVerify, errors as joseErrors } from "jose";
import type { Db } from "@/db/client";
import { insertApiKey } from "@/db/queries/api-keys";
import { touchApiKeyUse } from "@/db/queries/api-key-use";
import type { ApiKeyRow } from "@/db/schema";
import { config } from "@/lib/config";
import { ApiError } from "@/lib/http/errors";
import { log } from "@/log/logger.mjs";

const ISSUER = "cryptopay";
const ALG = "HS256";

export type ApiKeyClaims = { keyId: string; businessIds: number[] };

/** Issues a JWT API key whose `bids` claim lists the businesses it may act for (D6). Shown once. */
export async function issueApiKey(
  db: Db,
  input: { ownerBusinessId: number; businessIds: number[]; expiresInSeconds?: number },
): Promise<{ keyId: string; apiKey: string; expiresAt: Date | null }> {
  const keyId = `key_${randomBytes(12).toString("base64url")}`;
  const now = new Date();
  const expiresAt = input.expiresInSeconds ? new Date(now.getTime() + input.expiresInSeconds * 1000) : null;
  let jwt = new SignJWT({ bids: input.businessIds })
    .setProtectedHeader({ alg: ALG, typ: "JWT" })
    .setJti(keyId)
    .setIssuer(ISSUER)
    .setIssuedAt(Math.floor(now.getTime() / 1000));
  if (expiresAt) jwt = jwt.setExpirationTime(Math.floor(expiresAt.getTime() / 1000));
  const apiKey = await jwt.sign(config().apiKeySecret);
  await insertApiKey(db, {
    id: keyId,
    ownerBusinessId: input.ownerBusinessId,
    businessIds: input.businessIds,
    createdAt: now,
    expiresAt,
  });
  return { keyId, apiKey, expiresAt };
}

const unauthorized = (detail: string) =>
  new ApiError("unauthorized", 401, detail, undefined, { "www-authenticate": 'Bearer realm="api"' });

export function bearerToken(req: Request): string {
  const header = req.headers.get("authorization");
  if (!header) throw unauthorized("Missing Authorization header; send `Authorization: Bearer <API_KEY>`.");
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header);
  if (!match) throw unauthorized("The Authorization header must be `Bearer <API_KEY>`.");
  return match[1];
}

/**
 * Tokens whose signature, algorithm and issuer have been verified, with their expiry: the same
 * bytes verify the same way every time, so a key's next request skips the HMAC (and jose's key
 * import). Expiry is still checked on every request. Bounded; tokens with `nbf` are not kept.
 */
const verified = new Map<string, { claims: ApiKeyClaims; exp: number | undefined }>();
const VERIFIED_MAX = 10_000;

/** Checks signature, algorithm, issuer and expiry; no database access (the rate limiter runs next). */
export async function verifyApiKeyToken(token: string): Promise<ApiKeyClaims> {
  const known = verified.get(token);
  if (known) {
    if (known.exp === undefined || known.exp > Math.floor(Date.now() / 1000)) return known.claims;
    verified.delete(token);
    throw unauthorized("The API key has expired.");
  }
  try {
    const { payload } = await jwtVerify(token, config().apiKeySecret, { algorithms: [ALG], issuer: ISSUER });
    const bids = payload.bids;
    if (
      typeof payload.jti !== "string" ||
      !Array.isArray(bids) ||
      !bids.every((b) => Number.isSafeInteger(b) && b > 0)
    ) {
      throw unauthorized("The API key is not one this service issued.");
    }
    const claims = { keyId: payload.jti, businessIds: bids as number[] };
    if (payload.nbf === undefined) {
      if (verified.size >= VERIFIED_MAX) verified.delete(verified.keys().next().value!);
      verified.set(token, { claims, exp: payload.exp });
    }
    return claims;
  } catch (e) {
    if (e instanceof ApiError) throw e;
    if (e instanceof joseErrors.JWTExpired) throw unauthorized("The API key has expired.");
    if (e instanceof joseErrors.JWSSignatureVerificationFailed) throw unauthorized("The API key's signature is invalid.");
    if (e instanceof joseErrors.JOSEAlgNotAllowed) throw unauthorized("The API key uses an algorithm this service does not accept.");
    if (e instanceof joseErrors.JOSEError) throw unauthorized("The API key is malformed or invalid.");
    throw e;
  }
}

/** The stored half of the check on a row already read (undefined: no such key). */
export function assertKeyRowActive(row: Pick<ApiKeyRow, "revokedAt" | "expiresAt"> | undefined): void {
  if (!row) throw unauthorized("The API key is not known to this service.");
  if (row.revokedAt) throw unauthorized("The API key has been revoked.");
  if (row.expiresAt && row.expiresAt.getTime() <= Date.now()) throw unauthorized("The API key has expired.");
}

/** How often a key's `last_used_at` is written at most: the dashboard shows last use to the minute. */
export const KEY_USE_INTERVAL_MS = 60_000;
const KEY_USE_MAX = 10_000;
/** When this process last wrote each key's use (performance.now()), so most requests write nothing. */
const useNoted = new Map<string, number>();

/**
 * Records a request authenticated by the key (the dashboard's "last used"). Every API request
 * comes through here, so the write is throttled twice: this process asks the database at most
 * once a minute per key, and the conditional UPDATE writes only when the stored time is a minute
 * old (other instances). A failure is logged, never the request's failure.
 */
export async function noteKeyUse(db: Db, keyId: string, at = new Date()): Promise<void> {
  const now = performance.now();
  const last = useNoted.get(keyId);
  if (last !== undefined && now - last < KEY_USE_INTERVAL_MS) return;
  if (useNoted.size >= KEY_USE_MAX) useNoted.clear();
  useNoted.set(keyId, now);
  try {
    await touchApiKeyUse(db, keyId, at, KEY_USE_INTERVAL_MS);
  } catch (e) {
    useNoted.delete(keyId);
    log.error({ component: "api-keys", keyId, err: e }, "could not record a key's use");
  }
}
