/**
 * Rules the server enforces that the schemas' `.meta()` descriptions share. Plain data, no
 * imports: lib/payments and lib/admin use it without depending on the document's builder.
 */

/**
 * lib/http/url-field.ts as a JSON Schema pattern: http or https, `://`, then a dotted IPv4 address
 * or a host name whose last label starts with a letter (`localhost`, `shop.example.com`), an
 * optional port and a path, query or fragment of visible ASCII. The server parses URLs as
 * browsers do (WHATWG), which a regular expression cannot say whole: this pattern is a strict
 * subset of it, so whatever matches is accepted (IPv6 literals and user info are accepted too,
 * unlisted).
 */
export const URL_SCHEME_PATTERN =
  "^[Hh][Tt][Tt][Pp][Ss]?://(?:(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])(?:\\.(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])){3}|(?:[A-Za-z0-9-]+\\.)*[A-Za-z][A-Za-z0-9-]*)(?::[0-9]{1,4})?(?:[/?#][!-~]*)?$";

export const URL_RULE = "An absolute `http://` or `https://` URL of at most 2048 characters.";

/** D7 (lib/http/url-safety.ts): what a live business's URLs must also be. */
export const LIVE_URL_RULE =
  "For a `live` business it must be `https://` and must not name a loopback, private, link-local or other non-public address (`localhost`, `10.0.0.1`, `[::1]`, …); host names are checked again when the service connects.";

/** lib/http/text.ts, in words. */
export const TEXT_RULE_DOC =
  "no control characters other than tab, line feed and carriage return, and no unpaired surrogates";

/** lib/http/query.ts: how numbers and repeated names are read from a query string. */
export const QUERY_RULES =
  "Query parameter names match case-insensitively; an unknown name, or a single-valued parameter given twice, is refused with 400. Values are read exactly as sent: no trimming; integers in plain decimal digits and amounts as decimals such as `10` or `12.50` (no sign `+`, exponent, hex or empty value). Every value follows the text rule.";
