import type { Sent } from "./fuzz-request";

/**
 * A curl command line that sends the same request to a running server, with the README's
 * shell variables for the base URL, credentials and ids ($BASE, $API_KEY, $ADMIN_TOKEN,
 * $BUSINESS_ID, $PAYMENT_ID, …) and everything else shell-quoted exactly.
 */

const printableAscii = (b: number) => b >= 0x20 && b < 0x7f;

/** Bytes as one shell word: '…' when printable ASCII (or valid UTF-8 text), else $'…' escapes. */
export function quoteBytes(bytes: Uint8Array, utf8Text = false): string {
  const text = utf8Text ? new TextDecoder("utf-8", { fatal: false }).decode(bytes) : undefined;
  const plain = bytes.every(printableAscii) || (text !== undefined && !/[\u0000-\u001f\u007f-\u009f\ufffd]/.test(text));
  if (plain) return `'${(text ?? Buffer.from(bytes).toString("latin1")).replace(/'/g, `'\\''`)}'`;
  let out = "$'";
  for (const b of bytes) {
    if (b === 0x27) out += "\\'";
    else if (b === 0x5c) out += "\\\\";
    else out += printableAscii(b) ? String.fromCharCode(b) : `\\x${b.toString(16).padStart(2, "0")}`;
  }
  return `${out}'`;
}

/** A header value's bytes: HTTP header values are Latin-1 byte strings. */
const latin1 = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0) & 0xff);
const quote = (s: string) => quoteBytes(latin1(s));
const quoteText = (s: string) => quoteBytes(new TextEncoder().encode(s), true);

/** A word made of literal parts and "$VAR" parts, quoted piece by piece. */
function word(parts: (string | { variable: string })[]): string {
  return parts.map((p) => (typeof p === "string" ? (p === "" ? "" : quote(p)) : `"${p.variable}"`)).join("");
}

/** The URL, with path segments that are fixture ids shown as their variables. */
function urlWord(pathAndQuery: string, vars: Record<string, string>): string {
  const [path, query] = pathAndQuery.split(/\?(.*)/s, 2);
  const parts: (string | { variable: string })[] = [{ variable: "$BASE" }];
  for (const segment of path.split("/").slice(1)) {
    parts.push("/");
    parts.push(vars[segment] ? { variable: vars[segment] } : segment);
  }
  if (query !== undefined) parts.push(`?${query}`);
  // Merge adjacent literals so the line reads naturally.
  const merged: typeof parts = [];
  for (const p of parts) {
    const last = merged[merged.length - 1];
    if (typeof p === "string" && typeof last === "string") merged[merged.length - 1] = last + p;
    else merged.push(p);
  }
  return word(merged);
}

function headerWord(name: string, value: string, vars: Record<string, string>): string {
  const [scheme, token] = value.split(/ (.*)/s, 2);
  if (name.toLowerCase() === "authorization" && token !== undefined && vars[token]) {
    return word([`${name}: ${scheme} `, { variable: vars[token] }]);
  }
  return quote(`${name}: ${value}`);
}

export function curlCommand(s: Sent, vars: Record<string, string>): string {
  const allVars = { ...vars, ...s.vars };
  const lines = [`curl -sS -i --globoff -X ${s.method} ${urlWord(s.pathAndQuery, allVars)}`];
  const names = Object.keys(s.headers).map((h) => h.toLowerCase());
  for (const [name, value] of Object.entries(s.headers)) lines.push(`-H ${headerWord(name, value, allVars)}`);
  // curl adds `Accept: */*`, and a form Content-Type to a body; the request had neither.
  if (!names.includes("accept")) lines.push(`-H 'Accept:'`);
  if (s.body !== undefined) {
    if (!names.includes("content-type")) lines.push(`-H 'Content-Type:'`);
    const body = typeof s.body === "string" ? quoteText(s.body) : quoteBytes(s.body);
    lines.push(`--data-binary ${body}`);
  }
  return lines.join(" \\\n  ");
}
