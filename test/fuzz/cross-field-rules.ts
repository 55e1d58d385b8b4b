import type { Fixtures } from "./fixtures";
import { ownBusinessId, type Draft } from "./fuzz-request";
import { png } from "../brand/images";

/**
 * The rules the document states only in prose (descriptions, README), which a request valid
 * against the schemas can still break. This list is explicit and small on purpose: a
 * generated valid request may get a 400 naming ONLY fields of rules listed here for its
 * operation (or a 409 for the idempotency rule), and nothing else. `satisfy` nudges most
 * generated requests to meet the rule instead, so the successful path is exercised too.
 */
export type CrossFieldRule = {
  operationId: string;
  /** The document's words for the rule. */
  rule: string;
  /** The error fields a 400 for this rule names. */
  fields?: RegExp;
  /** The status this rule gets when broken, if not 400 (then with no field). */
  status?: number;
  satisfy?: (d: Draft, fx: Fixtures) => void;
};

type Obj = Record<string, any>;
const body = (d: Draft): Obj | undefined => {
  const b = d.body && "json" in d.body ? d.body.json : undefined;
  return b && typeof b === "object" && !Array.isArray(b) ? (b as Obj) : undefined;
};

/** Query parameters by name (a draft may hold each more than once). */
const queryValue = (d: Draft, name: string) => d.query.find(([n]) => n === name)?.[1];

function swapQuery(d: Draft, lo: string, hi: string, compare: (a: string, b: string) => boolean) {
  const a = queryValue(d, lo);
  const b = queryValue(d, hi);
  if (a === undefined || b === undefined || !compare(a, b)) return;
  d.query = d.query.map(([n, v]): [string, string] => (n === lo ? [n, b] : n === hi ? [n, a] : [n, v]));
}

let unique = 0;

export const CROSS_FIELD_RULES: CrossFieldRule[] = [
  {
    operationId: "createPayment",
    rule: "amount: at most the currency's number of decimals (2 for USD and EUR, 0 for JPY, 3 for KWD)",
    fields: /^amount$/,
    satisfy: (d) => {
      const b = body(d);
      if (b && typeof b.amount === "number" && b.amount >= 1) b.amount = Math.round(b.amount * 100) / 100;
    },
  },
  {
    operationId: "createPayment",
    rule: "feeTransfers: at most 100% in total",
    fields: /^feeTransfers$/,
    satisfy: (d) => {
      const list = body(d)?.feeTransfers;
      if (!Array.isArray(list) || list.length === 0) return;
      for (const t of list) if (t && typeof t.percent === "number") t.percent = Math.max(0.01, Math.floor((100 / list.length) * 100) / 100);
    },
  },
  {
    operationId: "createPayment",
    rule: "paymentMethods narrows the coins the business has enabled: at least one enabled coin must remain",
    fields: /^paymentMethods$/,
    satisfy: (d) => {
      const b = body(d);
      const m = b?.paymentMethods;
      if (m && !Object.values(m).some((list) => Array.isArray(list) && list.length > 0)) delete b!.paymentMethods;
    },
  },
  {
    operationId: "createPayment",
    rule: "Idempotency-Key: the same key with a different body gets 409",
    status: 409,
    satisfy: (d) => {
      const name = Object.keys(d.headers).find((h) => h.toLowerCase() === "idempotency-key");
      if (name) d.headers[name] = `${d.headers[name].slice(0, 240)}-${process.pid}-${++unique}`;
    },
  },
  // Not across fields, but stated only in prose: the description bounds the instant.
  ...["fromTime", "toTime"].map(
    (name): CrossFieldRule => ({
      operationId: "listPayments",
      rule: `${name}: between 0001-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z (UTC)`,
      fields: new RegExp(`^${name}$`),
      satisfy: (d) => {
        const v = queryValue(d, name);
        const t = v === undefined ? NaN : Date.parse(v);
        const bound = t < Date.parse("0001-01-01T00:00:00Z") ? "0001-01-01T00:00:00Z" : t > Date.parse("9999-12-31T23:59:59.999Z") ? "9999-12-31T23:59:59Z" : undefined;
        if (bound) d.query = d.query.map(([n, x]): [string, string] => [n, n === name ? bound : x]);
      },
    }),
  ),
  {
    operationId: "listPayments",
    rule: "fromTime..toTime is a range: toTime must not be before fromTime",
    fields: /^toTime$/,
    satisfy: (d) => swapQuery(d, "fromTime", "toTime", (a, b) => Date.parse(a) > Date.parse(b)),
  },
  {
    operationId: "listPayments",
    rule: "fromAmount..toAmount is a range: toAmount must not be less than fromAmount",
    fields: /^toAmount$/,
    satisfy: (d) => swapQuery(d, "fromAmount", "toAmount", (a, b) => Number(a) > Number(b)),
  },
  {
    operationId: "simulatePayment",
    rule: "an action the payment's state forbids (select after a transfer, pay before select, confirm/fail with no transfer), or a coin without an exchange rate in its currency, gets 409",
    status: 409,
  },
  {
    operationId: "simulatePayment",
    rule: "coin: a coin the payment offers; amount: at most the selected coin's decimals",
    fields: /^(coin|amount)$/,
    satisfy: (d) => {
      const b = body(d);
      if (b && typeof b.amount === "number" && b.amount >= 1e-6) b.amount = Math.round(b.amount * 1e6) / 1e6;
    },
  },
  ...["adminCreateBusiness", "adminPatchBusiness"].flatMap((operationId): CrossFieldRule[] => [
    {
      operationId,
      rule: "a live business needs an https webhookUrl that is not private, and only coins it has a deposit-address source for",
      fields: /^(webhookUrl|enabledCoins)$/,
      // Test mode has neither rule. A patch states it: the business may be live from an earlier request.
      satisfy: (d) => {
        const b = body(d);
        if (b && (b.mode === "live" || operationId === "adminPatchBusiness")) b.mode = "test";
      },
    },
    {
      operationId,
      rule: "accentColor: contrast with white text of at least 4.5:1 (WCAG AA)",
      fields: /^accentColor$/,
      satisfy: (d) => {
        const b = body(d);
        if (b && typeof b.accentColor === "string") b.accentColor = "#1d4ed8";
      },
    },
    {
      operationId,
      rule: "logo: a PNG, JPEG or WebP image by its content, at most 256 KB",
      fields: /^logo$/,
      satisfy: (d) => {
        const b = body(d);
        if (b && typeof b.logo === "string") b.logo = png(1, 1, () => [0, 0, 0, 255]).toString("base64");
      },
    },
    {
      operationId,
      rule: "extendedPublicKeys: account-level xpub/zpub keys of each family's network",
      fields: /^extendedPublicKeys\.[A-Z_]+$/,
      satisfy: (d) => void delete body(d)?.extendedPublicKeys,
    },
  ]),
  {
    operationId: "adminCreateBusiness",
    rule: "parentBusinessId: an existing top-level business",
    fields: /^parentBusinessId$/,
    satisfy: (d, fx) => {
      const b = body(d);
      if (b && "parentBusinessId" in b) b.parentBusinessId = fx.sandbox.businessId;
    },
  },
  {
    operationId: "adminCreateUser",
    rule: "businessId: an existing business",
    fields: /^businessId$/,
    satisfy: (d, fx) => {
      const b = body(d);
      if (b && "businessId" in b) b.businessId = fx.sandbox.businessId;
    },
  },
  {
    operationId: "adminCreateUser",
    rule: "an existing user keeps their password: a password for an email that has an account is refused (409)",
    status: 409,
    satisfy: (d) => {
      const b = body(d);
      if (b && "password" in b) b.email = `fuzz-new-${++unique}-${Date.now()}@shop.example`;
    },
  },
  {
    operationId: "adminSetUserPassword",
    rule: "email: a dashboard user's (404 otherwise)",
    status: 404,
    satisfy: (d, fx) => {
      const b = body(d);
      if (b && "email" in b) b.email = fx.userEmail;
    },
  },
  {
    operationId: "adminCreateApiKey",
    rule: "businessIds: this business and/or its sub-businesses",
    fields: /^businessIds(\[\d+\])?$/,
    satisfy: (d, fx) => {
      const b = body(d);
      if (b && Array.isArray(b.businessIds)) b.businessIds = [ownBusinessId(d, fx)];
    },
  },
];

CROSS_FIELD_RULES.push({
  operationId: "adminRecoverWebhookEndpoint",
  rule: "since: not in the future",
  fields: /^since$/,
  satisfy: (d) => {
    const b = body(d);
    if (b && typeof b.since === "string" && Date.parse(b.since) > Date.now()) b.since = "2020-01-01T00:00:00Z";
  },
});

export const rulesOf = (operationId: string) => CROSS_FIELD_RULES.filter((r) => r.operationId === operationId);

/** A copy of the draft that meets every rule of its operation that can be met by construction. */
export function applyCrossFieldRules(d: Draft, fx: Fixtures): Draft {
  const copy: Draft = { ...d, query: [...d.query], headers: { ...d.headers }, body: d.body && "json" in d.body ? { json: structuredClone(d.body.json) } : d.body };
  for (const r of rulesOf(d.op.id)) r.satisfy?.(copy, fx);
  return copy;
}

/** Whether a 400's error fields are all explained by the operation's listed rules. */
export function explainedByRules(operationId: string, status: number, errorFields: string[]): boolean {
  const rules = rulesOf(operationId);
  if (status === 400) return errorFields.length > 0 && errorFields.every((f) => rules.some((r) => r.fields?.test(f)));
  return rules.some((r) => r.status === status);
}

CROSS_FIELD_RULES.push(
  {
    operationId: "adminSetMoneroWallet",
    rule: "primaryAddress: a Monero standard address; privateViewKey: the view key whose public key that address carries",
    fields: /^(primaryAddress|privateViewKey)$/,
    satisfy: (d) => {
      const b = body(d);
      const example = d.op.body?.examples?.[0] as Obj | undefined;
      if (b && example) Object.assign(b, { primaryAddress: example.primaryAddress, privateViewKey: example.privateViewKey });
    },
  },
  { operationId: "adminGetMoneroWallet", rule: "the business has a Monero wallet (404 otherwise)", status: 404 },
  { operationId: "adminRemoveMoneroWallet", rule: "the business has a Monero wallet (404 otherwise)", status: 404 },
);

/** The wallet fields are addresses in their chains' own forms, which the document describes in prose. */
const WALLET_EXAMPLES = { solanaWallet: "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v", tonWallet: "EQCxE6mUtQJKFnGfaROTKOt1lZbDiiX1kCixRv7Nw2Id_sDs" };
for (const operationId of ["adminCreateBusiness", "adminPatchBusiness"]) {
  CROSS_FIELD_RULES.push({
    operationId,
    rule: "solanaWallet: a base58 Solana public key; tonWallet: a TON address, user-friendly or raw",
    fields: /^(solanaWallet|tonWallet)$/,
    satisfy: (d) => {
      const b = body(d);
      if (!b) return;
      for (const [field, value] of Object.entries(WALLET_EXAMPLES)) if (typeof b[field] === "string") b[field] = value;
    },
  });
}
