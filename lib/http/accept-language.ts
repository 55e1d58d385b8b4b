import { match } from "@formatjs/intl-localematcher";
import Negotiator from "negotiator";
import { DEFAULT_LOCALE, isLocale, LOCALES, type Locale } from "@/domain/locales";

/**
 * The offered locale that best serves an `Accept-Language` header (RFC 9110 §12.5.4): the
 * header's ranges in quality order, matched by the best-fit algorithm of ECMA-402 (so `de-AT`
 * gets `de`, `pt` gets `pt-BR`, `zh` and `zh-Hans` get `zh-CN`), English when none matches.
 * `negotiator` parses the header and `@formatjs/intl-localematcher` matches, as Next.js's
 * internationalisation guide does; a malformed header falls back to English.
 */
export function negotiateLocale(acceptLanguage: string | null | undefined): Locale {
  if (!acceptLanguage) return DEFAULT_LOCALE;
  try {
    const asked = new Negotiator({ headers: { "accept-language": acceptLanguage } }).languages().filter((l) => l !== "*");
    const found = match(asked, [...LOCALES], DEFAULT_LOCALE, { algorithm: "best fit" });
    return isLocale(found) ? found : DEFAULT_LOCALE;
  } catch {
    return DEFAULT_LOCALE;
  }
}
