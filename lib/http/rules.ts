/**
 * Rules the server enforces that the schemas' `.meta()` descriptions share. Plain data, no
 * imports: lib/payments and lib/admin use it without depending on the document's builder.
 */

/**
 * lib/http/url-field.ts as a JSON Schema pattern: http or https, `://`, then a dotted IPv4 address
 * or a host name of letter-or-digit labels joined by single hyphens whose last label starts with
 * a letter (`localhost`, `shop.example.com`), an optional port, then a path, query and fragment
 * of RFC 3986's unreserved and sub-delimiter characters, `:`, `@`, `/` (and `?` after the path)
 * or percent-encoded octets. The server reads URIs by RFC 3986 and the WHATWG parser, which a
 * regular expression cannot say whole: this pattern is a strict subset, so whatever matches is
 * accepted (IPv6 literals, user info, longer ports and more host names are accepted too,
 * unlisted). It has no look-around, so a generator can produce values from it.
 */
const URI_CHAR = "(?:[A-Za-z0-9._~!$&'()*+,;=:@/-]|%[0-9A-Fa-f]{2})";
const URI_QUERY_CHAR = "(?:[A-Za-z0-9._~!$&'()*+,;=:@/?-]|%[0-9A-Fa-f]{2})";
const IPV4_OCTET = "(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])";
export const URL_SCHEME_PATTERN =
  `^[Hh][Tt][Tt][Pp][Ss]?://(?:${IPV4_OCTET}(?:\\.${IPV4_OCTET}){3}|(?:[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*\\.)*[A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*)` +
  `(?::[0-9]{1,4})?(?:/${URI_CHAR}*)?(?:\\?${URI_QUERY_CHAR}*)?(?:#${URI_QUERY_CHAR}*)?$`;

export const URL_RULE =
  "An absolute `http://` or `https://` URI (RFC 3986) naming a host, of at most 2048 characters as sent: spaces, non-ASCII characters and characters such as `[ ] { } | \\ ^ \" < >` are refused unless percent-encoded (brackets only around an IPv6 host). It is stored, and returned, as the WHATWG URL parser writes it: scheme and host in lower case, a default port dropped, `/` for an empty path.";

/** D7 (lib/http/url-safety.ts): what a live business's URLs must also be. */
export const LIVE_URL_RULE =
  "For a `live` business it must be `https://` and must not name a loopback, private, link-local or other non-public address (`localhost`, `10.0.0.1`, `[::1]`, …); host names are checked again when the service connects.";

/** lib/http/text.ts, in words. */
export const TEXT_RULE_DOC =
  "no control characters other than tab, line feed and carriage return, and no unpaired surrogates";

/** lib/http/query.ts: how numbers and repeated names are read from a query string. */
export const QUERY_RULES =
  "Query parameter names match case-insensitively; an unknown name, or a single-valued parameter given twice, is refused with 400. Values are read exactly as sent: no trimming; integers in plain decimal digits and amounts as decimals such as `10` or `12.50` (no sign `+`, exponent, hex or empty value). Every value follows the text rule.";
