/**
 * What `npm run admin -- doctor` prints: one line per check, its verdict first, then what was
 * found and, for a warning or a failure, what to do about it.
 */

export type Verdict = "OK" | "WARN" | "FAIL";

export type CheckLine = { verdict: Verdict; name: string; detail: string; fix?: string };

export const ok = (name: string, detail: string): CheckLine => ({ verdict: "OK", name, detail });
export const warn = (name: string, detail: string, fix: string): CheckLine => ({ verdict: "WARN", name, detail, fix });
export const fail = (name: string, detail: string, fix: string): CheckLine => ({ verdict: "FAIL", name, detail, fix });

/** How long each check may wait for an answer (a node, a database, the public URL). */
export const CHECK_TIMEOUT_MS = 5_000;

const NAME_WIDTH = 18;

export function formatLine(l: CheckLine): string {
  const fix = l.fix ? ` → ${l.fix}` : "";
  return `${l.verdict.padEnd(4)}  ${l.name.padEnd(NAME_WIDTH)}  ${l.detail}${fix}`;
}

/** Rejects with "no answer within N s" when `work` takes longer than `ms`. */
export function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms / 1000} s`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/**
 * The reason an attempt failed, in one line: the innermost error's message and system code
 * (ECONNREFUSED, ENOTFOUND, a certificate's) along the `cause` chain, since fetch says only
 * "fetch failed", drizzle "Failed query: …" and viem wraps its transport's error twice.
 * Multi-line library messages are cut to their first line.
 */
export function reasonOf(e: unknown): { code: string | undefined; text: string } {
  let code: string | undefined;
  let text = "";
  for (let c: unknown = e, depth = 0; c && depth < 6; c = (c as { cause?: unknown }).cause, depth++) {
    const err = c as { code?: unknown; shortMessage?: unknown; message?: unknown };
    if (typeof err.code === "string" && /^[A-Z][A-Z0-9_]+$/.test(err.code)) code = err.code;
    const message = typeof err.shortMessage === "string" ? err.shortMessage : typeof err.message === "string" ? err.message : "";
    if (message.trim()) text = message.split("\n")[0].trim();
  }
  if (!text) text = String(e);
  if (code && !text.includes(code)) text = `${text} (${code})`;
  return { code, text };
}

const TLS_CODES = /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS|UNABLE_TO_GET_ISSUER/;

/** What to do about a connection that failed, by the reason's code; `what` names the server. */
export function networkFix(reason: { code: string | undefined; text: string }, what: string): string | undefined {
  const code = reason.code ?? "";
  if (code === "ECONNREFUSED" || /ECONNREFUSED/.test(reason.text)) return `nothing listens there: start ${what}, or correct the port`;
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return `the host name does not resolve: correct it, or fix this machine's DNS`;
  if (TLS_CODES.test(code)) return `its TLS certificate is not trusted here: install a certificate from a public CA (or add your CA with NODE_EXTRA_CA_CERTS)`;
  if (/no answer within|ETIMEDOUT|timeout/i.test(reason.text) || code === "ETIMEDOUT") {
    return `it accepts no connection or never answers: is ${what} running, and does a firewall let this machine through?`;
  }
  if (code === "ECONNRESET" || code === "EPIPE") return `the connection was cut: is it ${what}, and is the scheme (http or https) right?`;
  return undefined;
}
