import { z } from "zod";

/** RFC 5321 §4.5.3.1: at most 64 octets before the `@`, at most 254 in the whole address (256 for the path, less `<` and `>`). */
export const EMAIL_MAX_LOCAL = 64;
export const EMAIL_MAX_LENGTH = 254;

/**
 * zod's e-mail shape (dot-separated atoms of letters, digits and `_ ' + -` before the `@`, a
 * dotted domain with a top-level label of letters) with RFC 5321's limit on the part before the
 * `@`, as one pattern for the document. The look-ahead says what zod's own checks below enforce
 * with a message each; test/url-email-fields.test.ts holds the two equal.
 */
export const EMAIL_PATTERN = `^(?=[^@]{1,${EMAIL_MAX_LOCAL}}@)${z.regexes.email.source.slice(1)}`;

/**
 * The one e-mail address schema: every `format: email` field of the API, the dashboard and the
 * checkout parses with it. ASCII only, as zod's e-mail shape is.
 */
export const emailField = z
  .email({ pattern: z.regexes.email, error: "must be an email address such as jane@example.com" })
  .max(EMAIL_MAX_LENGTH, `must be at most ${EMAIL_MAX_LENGTH} characters (RFC 5321)`)
  .refine((v) => v.indexOf("@") <= EMAIL_MAX_LOCAL, `the part before @ must be at most ${EMAIL_MAX_LOCAL} characters (RFC 5321)`)
  .meta({ pattern: EMAIL_PATTERN });
