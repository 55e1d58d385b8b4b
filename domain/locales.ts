/**
 * The languages the checkout speaks: BCP 47 tags, each with its own name (what the language
 * switcher lists, so a reader finds their language whatever the page's language) and its
 * writing direction. English is the fallback when nothing a browser asks for is offered.
 */
export const LOCALES = ["en", "es", "fr", "de", "pt-BR", "it", "ru", "zh-CN", "ja", "ar"] as const;
export type Locale = (typeof LOCALES)[number];

export const DEFAULT_LOCALE: Locale = "en";

export const LOCALE_NAMES: Record<Locale, string> = {
  en: "English",
  es: "Español",
  fr: "Français",
  de: "Deutsch",
  "pt-BR": "Português (Brasil)",
  it: "Italiano",
  ru: "Русский",
  "zh-CN": "简体中文",
  ja: "日本語",
  ar: "العربية",
};

const RIGHT_TO_LEFT: ReadonlySet<Locale> = new Set(["ar"]);

export function isLocale(value: unknown): value is Locale {
  return typeof value === "string" && (LOCALES as readonly string[]).includes(value);
}

export function directionOf(locale: Locale): "ltr" | "rtl" {
  return RIGHT_TO_LEFT.has(locale) ? "rtl" : "ltr";
}

/** The cookie that keeps a customer's choice from the language switcher (next-intl's usual name). */
export const LOCALE_COOKIE = "NEXT_LOCALE";
