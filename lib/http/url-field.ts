import { fullFormats } from "ajv-formats/dist/formats";
import { z } from "zod";

/**
 * RFC 3986's `URI` rule as ajv-formats checks JSON Schema's `format: "uri"`: the same function
 * the document's readers most often validate with, so the server and a client agree on what a
 * URI is (no space, no unencoded `[ ] { } | \ ^ " < >` outside an IPv6 host, `%` only before
 * two hex digits, ASCII only).
 */
const isRfc3986Uri = fullFormats.uri as (value: string) => boolean;

/** RFC 3986 Appendix B: the authority of a URI that has one (after `scheme://`, up to the path). */
const AUTHORITY = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/([^/?#]*)/;

/** An http(s) URI with a host: RFC 9110 §4.2.1 forbids an empty one (`http:///x`, `http:x`). */
function isHttpUri(value: string): boolean {
  if (!/^https?:\/\//i.test(value) || !isRfc3986Uri(value)) return false;
  const host = AUTHORITY.exec(value)![1].replace(/^.*@/, "").replace(/:[0-9]*$/, "");
  return host !== "";
}

/**
 * The URL as a browser would send it (WHATWG `URL.href`: lower-case scheme and host, default
 * port dropped, dot segments resolved, the parser's percent-encoding), or null when `value` is
 * not an absolute http(s) URI per RFC 3986 that the WHATWG parser also reads. The result is
 * checked again: decoding a percent-encoded host can leave characters no URI may hold.
 */
export function normalisedHttpUrl(value: string): string | null {
  if (!isHttpUri(value) || !URL.canParse(value)) return null;
  const href = new URL(value).href;
  return isHttpUri(href) ? href : null;
}

export const URL_PROBLEM =
  "must be an absolute http:// or https:// URI (RFC 3986) naming a host; spaces, non-ASCII characters and characters such as [ ] { } | \\ ^ \" < > must be percent-encoded outside the host";

/**
 * An absolute http(s) URI of at most 2048 characters as sent (D11a), stored in its normalised
 * form (`normalisedHttpUrl`), so the address shown, compared and connected to is one string.
 */
export const urlField = z
  .string()
  .max(2048, "must be at most 2048 characters")
  .refine((v) => normalisedHttpUrl(v) !== null, { message: URL_PROBLEM, abort: true })
  .overwrite((v) => normalisedHttpUrl(v)!)
  .meta({ format: "uri" });
