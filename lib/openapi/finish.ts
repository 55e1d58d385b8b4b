import { acceptedCurrencies } from "@/lib/rates/quote";
import { config } from "@/lib/config";
import { minorUnits } from "@/domain/currencies";
import type { createDocument } from "zod-openapi";
import { QUERY_RULES, TEXT_RULE_DOC } from "@/lib/http/rules";

/** The rate limit in force in this process, in words (D14). */
function rateLimitInForce(): string {
  try {
    const { perSecond, burst } = config().rateLimit;
    return `each API key may make ${perSecond} requests per second on this server, with bursts up to ${burst}`;
  } catch {
    return "each API key may make RATE_LIMIT_PER_SECOND requests per second (100 by default) with bursts up to RATE_LIMIT_BURST (200 by default)";
  }
}

/** `info.description`: what holds for every operation, with the numbers this process enforces. */
export function serviceDescription(): string {
  return [
    "Create hosted-checkout cryptocurrency payments, fetch and list them, set internal notes and, in test mode, drive a simulated chain; operators manage businesses, API keys and webhook deliveries through the admin API.",
    "Successes are wrapped in an envelope `{ data, message: null, errors: null }`; errors are RFC 7807 ProblemDetails whose `errors` map names every invalid field at once.",
    `Request bodies: JSON of at most 64 KB (65,536 bytes; 413 beyond; 512 KB for the admin API's business create and update, which may carry a logo), nested at most 32 levels, unknown fields refused; every number read exactly as written (one no double holds exactly is refused, never rounded). The text rule, for strings and keys in bodies, query strings and header values: ${TEXT_RULE_DOC}.`,
    QUERY_RULES,
    `Rate limits: ${rateLimitInForce()}, counted by each server process; over it, 429 with \`Retry-After\` (seconds). The admin API is not rate-limited.`,
  ].join("\n\n");
}

type Json = Record<string, any>;

/** "0 for CLP, ISK, JPY; 3 for BHD, KWD; 2 for every other one": amount decimals by currency. */
function decimalsByCurrency(codes: string[]): string {
  const groups = new Map<number, string[]>();
  for (const c of codes) {
    const d = minorUnits(c) ?? 2;
    groups.set(d, [...(groups.get(d) ?? []), c]);
  }
  const rest = [...groups].filter(([d]) => d !== 2).map(([d, cs]) => `${d} for ${cs.join(", ")}`);
  return rest.length ? `${rest.join("; ")}; 2 for every other accepted currency` : "2 for every accepted currency";
}

/**
 * Parameters carry their schema's description and first example on the Parameter Object itself,
 * where linters, client generators and the /docs page read them (zod-openapi copies only a
 * `.meta()` description of the outermost schema, which `.optional()` and `.default()` hide).
 */
function liftParameters(doc: Json): void {
  for (const item of Object.values<Json>(doc.paths ?? {})) {
    for (const op of Object.values<Json>(item)) {
      for (const p of (op?.parameters ?? []) as Json[]) {
        if (!p.schema) continue;
        p.description ??= p.schema.description;
        if (p.example === undefined && p.examples === undefined && Array.isArray(p.schema.examples)) p.example = p.schema.examples[0];
      }
    }
  }
}

/**
 * What depends on the process (the accepted currencies come from the rate source in force) or
 * on the whole generated document.
 */
export function finishDocument<D extends ReturnType<typeof createDocument>>(doc: D): D {
  const request = doc.components?.schemas?.CreatePaymentRequest as { properties?: Record<string, Json> } | undefined;
  const currency = request?.properties?.currency;
  const amount = request?.properties?.amount;
  if (!currency || !amount) throw new Error("CreatePaymentRequest.currency or .amount is missing from the document");
  const codes = acceptedCurrencies();
  // Codes are stored upper-case but read in any letter case (`usd`, as Stripe's clients send them).
  const anyCase = codes.map((c) => [...c].map((l) => `[${l}${l.toLowerCase()}]`).join("")).join("|");
  currency.anyOf = [
    { enum: codes, description: "The accepted codes, as stored and returned." },
    { pattern: `^(?:${anyCase})$`, description: "The same codes in any letter case." },
  ];
  amount.description = `${amount.description} Decimals by currency: ${decimalsByCurrency(codes)}.`;
  liftParameters(doc as Json);
  return doc;
}
