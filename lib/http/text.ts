/**
 * The one rule for text a client sends, in a body, a query or a header value: no control
 * characters other than tab, line feed and carriage return, and no unpaired surrogates.
 * PostgreSQL cannot store U+0000 or a lone surrogate at all (a 500 if it reached the database),
 * and the other C0 controls and DEL have no place in names, notes, emails or search strings:
 * they only ever arrive to garble a log line or a terminal.
 */
const FORBIDDEN_CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

export const TEXT_RULE = "must not contain control characters (other than tab, line feed and carriage return) or unpaired surrogates";

export function isAcceptableText(s: string): boolean {
  return !FORBIDDEN_CONTROLS.test(s) && s.isWellFormed();
}
