// What never reaches a log line: credentials, wherever a caller or a library puts them. Two
// nets. By name: a field called like a secret (password, token, apiKey, viewKey, authorization…)
// is replaced whatever it holds, at any depth. By shape: inside every string — messages, error
// messages and stacks, URLs — the userinfo of a URL, the values of key-like query parameters, a
// provider key in an RPC path (/v2/<key>), bearer and basic credentials, our API keys (JWTs),
// webhook secrets (whsec_…), sk_… keys, and the literal value of every secret the environment
// holds (METRICS_TOKEN, ADMIN_TOKEN, API_KEY_SECRET, SMTP and RPC URL passwords…) or the
// service generated for itself (addSecrets).

import { stdSerializers } from "pino";

export const CENSOR = "[REDACTED]";

/** Field names whose values are secrets (matched on the name's end, any case, at any depth). */
const SECRET_FIELD = /(password|passwd|passphrase|secret|token|api[-_]?key|authorization|cookie|view[-_]?key|spend[-_]?key|private[-_]?key|mnemonic|seed|backup[-_]?codes|totp[-_]?uri|^parameters)$/i;

const SHAPES = [
  // scheme://user:password@host → scheme://[REDACTED]@host (RPC, SMTP and database URLs)
  [/\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@"'<>]+@/gi, `$1${CENSOR}@`],
  // ?api_key=…, &token=…, &password=… (a provider's key in a query)
  [/([?&;][a-z0-9_.-]*(?:key|token|secret|password|passwd|pass|auth|signature|sig|credential|credentials)=)[^&#\s"'<>]+/gi, `$1${CENSOR}`],
  // https://eth-mainnet.example/v2/<key> (how hosted EVM and TRON providers put their key in the path)
  [/(\/v\d+\/)[A-Za-z0-9_-]{20,}/g, `$1${CENSOR}`],
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi, `$1 ${CENSOR}`],
  // API keys are JWTs (lib/accounts/api-keys.ts); so are session tokens of some providers.
  [/\beyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g, CENSOR],
  [/\bwhsec_[A-Za-z0-9+/=_-]+/g, CENSOR],
  [/\b(sk|rk)_(?:live_|test_)?[A-Za-z0-9]{8,}/g, CENSOR],
];

/** Where any shape above could begin: most strings (methods, routes, ids, words) have none, and skip the replacements. */
const MAYBE = /:\/\/|[?&;][a-z0-9_.-]*=|\/v\d|bearer|basic|eyJ|whsec_|sk_|rk_/i;

/** Environment variables that hold a secret outright, and URLs that may carry one. */
const SECRET_ENV = /(SECRET|TOKEN|PASSWORD|PASSPHRASE|_KEY|_KEYS|SEED|MNEMONIC)$/;
const URL_ENV = /_URL$/;
const MIN_SECRET = 6;

/** The literal secrets of an environment: whole values of secret variables, and the passwords, key-like query values and long path segments of URLs. */
export function secretsOf(env) {
  const found = new Set();
  for (const [name, value] of Object.entries(env)) {
    if (typeof value !== "string" || value.trim().length < MIN_SECRET) continue;
    if (SECRET_ENV.test(name)) found.add(value.trim());
    else if (URL_ENV.test(name)) for (const part of urlSecrets(value.trim())) found.add(part);
  }
  return [...found].filter((s) => s.length >= MIN_SECRET).sort((a, b) => b.length - a.length);
}

function urlSecrets(text) {
  let url;
  try {
    url = new URL(text);
  } catch {
    return [];
  }
  const parts = [];
  if (url.password) parts.push(url.password, decodeURIComponent(url.password));
  for (const [, value] of url.searchParams) parts.push(value);
  for (const segment of url.pathname.split("/")) if (segment.length >= 20) parts.push(segment);
  return parts;
}

/**
 * A redactor for a set of literal secrets (the process's environment, for the logger); `add`
 * puts more in it later (the secrets an embedded start generates and keeps in DATA_DIR).
 */
export function redactor(initial) {
  const secrets = [...initial];
  function add(values) {
    for (const v of values) if (typeof v === "string" && v.length >= MIN_SECRET && !secrets.includes(v)) secrets.push(v);
    secrets.sort((a, b) => b.length - a.length);
  }

  /** A string with every credential shape and known secret replaced. */
  function text(value) {
    let out = value;
    for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join(CENSOR);
    if (!MAYBE.test(out)) return out;
    for (const [pattern, replacement] of SHAPES) out = out.replace(pattern, replacement);
    return out;
  }

  /** A copy of a log argument that is safe to write: secret fields censored, strings scrubbed, errors serialized. */
  function value(v, depth = 0) {
    if (typeof v === "string") return text(v);
    if (v === null || typeof v !== "object") return v;
    if (depth > 8) return "[Object]";
    if (v instanceof Error) return value(stdSerializers.err(v), depth + 1);
    if (v instanceof Date) return v;
    if (v instanceof URL) return text(v.href);
    if (Array.isArray(v)) return v.map((item) => value(item, depth + 1));
    if (ArrayBuffer.isView(v)) return `[${v.constructor.name}]`;
    const out = {};
    for (const [key, item] of Object.entries(v)) out[key] = SECRET_FIELD.test(key) ? CENSOR : value(item, depth + 1);
    return out;
  }

  return { text, value, add };
}
